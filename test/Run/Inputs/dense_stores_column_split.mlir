// Column blocks of the dense stores (test/Run/dense-stores.test), reduced
// by `ktflow fuzz` from seed 16160085 (`--max-tiles 2`, deep): a grid of
// two tiles over the columns of 2x2 f32, out0 = in1. Each tile's rows are
// one column, 4 bytes, 8 bytes apart in global memory: not one run, so
// the rows cannot be packed, and each 4-byte row alone is no legal DMA run
// on any shipped description (deep: 32 to 262144 bytes in multiples of 32),
// unless the two blocks are merged into whole rows.
//
//
// Shape 2x2, grid [1, 2], 2-D blocks, tile 2x1, computed in f32.
// Arguments (base addresses in elements of the buffer's type, global memory):
//   %in1  f32[2, 2]  input
//   %out0  f32[2, 2]  output
// Expected result (each op rounded to f32):
//   out0 = in1

#box_2x2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#box_2x1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @kernel_s16160085(%in1: index, %out0: index)
      attributes {grid = [1, 2]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %row_first = arith.muli %gx, %c2 : index
    %c1 = arith.constant 1 : index
    %col_first = arith.muli %gy, %c1 : index
    %in1_view = ktdp.construct_memory_view %in1, sizes: [2, 2], strides: [2, 1] {
        coordinate_set = #box_2x2, memory_space = #ktdp.memory_space<global>
    } : memref<2x2xf32>
    %out0_view = ktdp.construct_memory_view %out0, sizes: [2, 2], strides: [2, 1] {
        coordinate_set = #box_2x2, memory_space = #ktdp.memory_space<global>
    } : memref<2x2xf32>
    %in1_tile0 = ktdp.construct_access_tile %in1_view[%row_first, %col_first] {
        access_tile_set = #box_2x1, access_tile_order = #id2
    } : memref<2x2xf32> -> !ktdp.access_tile<2x1xindex>
    %in1_1 = ktdp.load %in1_tile0 : !ktdp.access_tile<2x1xindex> -> tensor<2x1xf32>
    %out0_tile2 = ktdp.construct_access_tile %out0_view[%row_first, %col_first] {
        access_tile_set = #box_2x1, access_tile_order = #id2
    } : memref<2x2xf32> -> !ktdp.access_tile<2x1xindex>
    ktdp.store %in1_1, %out0_tile2 : tensor<2x1xf32>, !ktdp.access_tile<2x1xindex>
    return
  }
}
