// Rows [16t, min(16t + 16, n_rows)) per tile: the clamped upper bound is
// the minimum of two affine bounds, so trip counts differ between tiles
// (n_rows = 56: 16, 16, 16, 8; 40: 16, 16, 8, 0).
//   y[r, c] = x[r, c] * x[r, c]
#x_all = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @clamped(%x: index, %y: index, %n_rows: i32) attributes {grid = [4]} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %pid = ktdp.get_compute_tile_id : index
    %rows = arith.index_cast %n_rows : i32 to index
    %first = arith.muli %pid, %c16 : index
    %end = arith.addi %first, %c16 : index
    %last = arith.minsi %end, %rows : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [%rows, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<?x128xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [%rows, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<?x128xf16>
    scf.for %r = %first to %last step %c1 {
      %x_at = ktdp.construct_access_tile %x_mem[%r, 0] {
          access_tile_set = #row, access_tile_order = #lex
      } : memref<?x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %yv = arith.mulf %xv, %xv : tensor<1x128xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r, 0] {
          access_tile_set = #row, access_tile_order = #lex
      } : memref<?x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %yv, %y_at : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
    return
  }
}
