// Element-wise over grid column blocks whose rows are not whole DMA
// granules: 96 rows of 11 f32 (44 bytes a row), two grid tiles of 6
// columns (tile 1's last column masked). Every row of every tile would be
// a 24- or 20-byte DMA run at a 44-byte stride, which no shipped
// description's DMA allows; ktsched-align-blocks gives each grid tile a
// block of whole rows instead (all 11 columns), which is one dense run.
//
// Grid: [2]; tile t owns columns [6t, 6t + 6). Arguments: base addresses
// (f32 elements) of %x, %y (96x11 inputs), %s (1 element) and %z (96x11
// output).
// Expected result (each operation rounded to f32):
//   z = max(x * s[0], y) - x

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 5 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @column_blocks(%x: index, %y: index, %s: index, %z: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %col = arith.muli %t, %c6 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [96, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<96x11xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [96, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<96x11xf32>
    %s_view = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {
        coordinate_set = #one, memory_space = #ktdp.memory_space<global>
    } : memref<1xf32>
    %z_view = ktdp.construct_memory_view %z, sizes: [96, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<96x11xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x6xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x6xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {
        access_tile_set = #one, access_tile_order = #id1
    } : memref<1xf32> -> !ktdp.access_tile<1xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<96x6xindex> -> tensor<96x6xf32>
    %yv = ktdp.load %y_tile : !ktdp.access_tile<96x6xindex> -> tensor<96x6xf32>
    %sv = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf32>
    %ss = tensor.collapse_shape %sv [] : tensor<1xf32> into tensor<f32>
    %init = tensor.empty() : tensor<96x6xf32>
    %sw = linalg.broadcast ins(%ss : tensor<f32>) outs(%init : tensor<96x6xf32>) dimensions = [0, 1]
    %p = arith.mulf %xv, %sw : tensor<96x6xf32>
    %m = arith.maximumf %p, %yv : tensor<96x6xf32>
    %zv = arith.subf %m, %xv : tensor<96x6xf32>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x6xindex>
    ktdp.store %zv, %z_tile : tensor<96x6xf32>, !ktdp.access_tile<96x6xindex>
    return
  }
}
