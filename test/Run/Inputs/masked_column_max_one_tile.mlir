// Negative twin of masked_column_max.mlir: tile t takes the column maxima
// of -|m| over rows [32t, 32t + 32) of f16[56, 128] in chunks of 16 and
// stores them to out[128t, 128t + 128). Tile 0's chunks lie inside the view, tile 1's
// pass its end (rows 56..63 masked, -0 folded in by KTIR): the masked
// points' value would go into one tile's init only.
#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 55 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#o_all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#o_row = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @masked_on_one_tile(%m: index, %out: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %first = arith.muli %t, %c32 : index
    %last = arith.addi %first, %c32 : index
    %m_mem = ktdp.construct_memory_view %m, sizes: [56, 128], strides: [128, 1] {
        coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
    } : memref<56x128xf16>
    %start = arith.constant dense<0xFC00> : tensor<128xf16>
    %total = scf.for %k = %first to %last step %c16
        iter_args(%running = %start) -> (tensor<128xf16>) {
      %at = ktdp.construct_access_tile %m_mem[%k, %c0] {
          access_tile_set = #chunk, access_tile_order = #lex
      } : memref<56x128xf16> -> !ktdp.access_tile<16x128xindex>
      %part = ktdp.load %at : !ktdp.access_tile<16x128xindex> -> tensor<16x128xf16>
      %abs = math.absf %part : tensor<16x128xf16>
      %neg = arith.negf %abs : tensor<16x128xf16>
      %ninf = arith.constant dense<0xFC00> : tensor<128xf16>
      %chunk_max = linalg.reduce { arith.maximumf } ins(%neg : tensor<16x128xf16>)
                     outs(%ninf : tensor<128xf16>) dimensions = [0]
      %next = arith.maximumf %running, %chunk_max : tensor<128xf16>
      scf.yield %next : tensor<128xf16>
    }
    %c128 = arith.constant 128 : index
    %o_first = arith.muli %t, %c128 : index
    %o_mem = ktdp.construct_memory_view %out, sizes: [256], strides: [1] {
        coordinate_set = #o_all, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %o_at = ktdp.construct_access_tile %o_mem[%o_first] {
        access_tile_set = #o_row, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<256xf16> -> !ktdp.access_tile<128xindex>
    ktdp.store %total, %o_at : tensor<128xf16>, !ktdp.access_tile<128xindex>
    return
  }
}
