// Rows dealt out cyclically over the grid as a frontend writes it: the row
// count arrives as an i64 kernel argument (bounding the view and the loop,
// clamped to the rows the buffers hold with arith.minsi), the row length as
// an i32, the grid stride as an index, and a scale as an f32 scalar that
// is widened, doubled and narrowed before it is splat into the compute.
// With --arg n_rows=N --arg n_cols=128 --arg step=4 --arg scale=S all of it
// folds to constants and affine subscripts.
//
// Grid: [4]. Arguments: %x, %y f16[n_rows, 128] (n_rows <= 64), row-major.
// Expected result (each operation rounded to f16):
//   y[r, c] = x[r, c] * f16(2 * scale)
#rows = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
#one_row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @scaled_rows(%x: index, %y: index, %n_rows: i64, %n_cols: i32, %step: index,
                         %scale: f32) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %two = arith.constant 2.0 : f32
    %t = ktdp.get_compute_tile_id : index
    %rows_i = arith.index_cast %n_rows : i64 to index
    %rows = arith.minsi %rows_i, %c64 : index
    %cols = arith.index_castui %n_cols : i32 to index
    %x_mem = ktdp.construct_memory_view %x, sizes: [%rows, %cols], strides: [%cols, 1] {
        coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<?x?xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [%rows, %cols], strides: [%cols, 1] {
        coordinate_set = #rows, memory_space = #ktdp.memory_space<global>
    } : memref<?x?xf16>
    %doubled = arith.mulf %scale, %two : f32
    %s16 = arith.truncf %doubled : f32 to f16
    %s = tensor.splat %s16 : tensor<1x128xf16>
    scf.for %r = %t to %rows step %step {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #lex
      } : memref<?x?xf16> -> !ktdp.access_tile<1x128xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %yv = arith.mulf %xv, %s : tensor<1x128xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r, %c0] {
          access_tile_set = #one_row, access_tile_order = #lex
      } : memref<?x?xf16> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %yv, %y_at : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
    return
  }
}
