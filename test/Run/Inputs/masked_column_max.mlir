// Column maxima of -|m| accumulated over row chunks (example 07's form)
// whose last chunk runs past the view: m is f16[56, 128], the loop visits
// chunks [k, k + 16) for k = 0, 16, 32, 48, so rows 56..63 are masked.
// KTIR loads masked points as zeros, so they fold -|0| = -0 into every
// column's maximum; the absorbed reduction takes that in its init instead.
//   colmax[c] = max(-0, max over r < 56 of -|m[r, c]|)
#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 55 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#v_all = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#v_blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @masked_column_max(%m: index, %colmax: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %col = arith.muli %t, %c64 : index
    %m_mem = ktdp.construct_memory_view %m, sizes: [56, 128], strides: [128, 1] {
        coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
    } : memref<56x128xf16>
    %start = arith.constant dense<0xFC00> : tensor<64xf16>
    %total = scf.for %k = %c0 to %c64 step %c16
        iter_args(%running = %start) -> (tensor<64xf16>) {
      %at = ktdp.construct_access_tile %m_mem[%k, %col] {
          access_tile_set = #chunk, access_tile_order = #lex
      } : memref<56x128xf16> -> !ktdp.access_tile<16x64xindex>
      %part = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
      %abs = math.absf %part : tensor<16x64xf16>
      %neg = arith.negf %abs : tensor<16x64xf16>
      %ninf = arith.constant dense<0xFC00> : tensor<64xf16>
      %chunk_max = linalg.reduce { arith.maximumf } ins(%neg : tensor<16x64xf16>)
                     outs(%ninf : tensor<64xf16>) dimensions = [0]
      %next = arith.maximumf %running, %chunk_max : tensor<64xf16>
      scf.yield %next : tensor<64xf16>
    }
    %o_mem = ktdp.construct_memory_view %colmax, sizes: [128], strides: [1] {
        coordinate_set = #v_all, memory_space = #ktdp.memory_space<global>
    } : memref<128xf16>
    %o_at = ktdp.construct_access_tile %o_mem[%col] {
        access_tile_set = #v_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<128xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %total, %o_at : tensor<64xf16>, !ktdp.access_tile<64xindex>
    return
  }
}
