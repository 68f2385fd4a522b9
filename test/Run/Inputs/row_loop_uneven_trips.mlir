// Example 06 with 22 rows instead of 24: rows dealt out cyclically over 4
// tiles give tiles 0 and 1 six rows (loop iterations) and tiles 2 and 3
// five, so the grid tiles run different trip counts.
//
// Grid: [4].
// Arguments (base addresses in f16 elements, global memory):
//   %x    f16[22, 128], row-major
//   %w    f16[128]
//   %y    f16[22, 128], row-major
// Expected result (each operation rounded to f16):
//   y[r, c] = x[r, c] * x[r, c] + w[c]

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 21 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#w_all = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @square_plus_row(%x: index, %w: index, %y: index)
      attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c22 = arith.constant 22 : index
    %t = ktdp.get_compute_tile_id : index

    %x_mem = ktdp.construct_memory_view %x, sizes: [22, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<22x128xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [22, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<22x128xf16>
    // The weight vector is viewed as a 1x128 matrix so that it has the same
    // shape as one row of x.
    %w_mem = ktdp.construct_memory_view %w, sizes: [1, 128], strides: [128, 1] {
        coordinate_set = #w_all, memory_space = #ktdp.memory_space<global>
    } : memref<1x128xf16>
    %w_at = ktdp.construct_access_tile %w_mem[%c0, %c0] {
        access_tile_set = #one_row, access_tile_order = #lex
    } : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %wv = ktdp.load %w_at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>

    scf.for %r = %t to %c22 step %c4 {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #lex
      } : memref<22x128xf16> -> !ktdp.access_tile<1x128xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %sq = arith.mulf %xv, %xv : tensor<1x128xf16>
      %yv = arith.addf %sq, %wv : tensor<1x128xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #lex
      } : memref<22x128xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %yv, %y_at : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
    return
  }
}
