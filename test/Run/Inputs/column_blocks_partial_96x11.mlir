// Negative twin of column_blocks_96x11.mlir: grid column blocks of 4
// columns on two tiles leave columns 8..10 of the 11 untouched, so whole
// rows per tile would store what the kernel does not: not re-divided.
//
// Grid: [2]; tile t owns columns [4t, 4t + 4). Arguments: base addresses
// (f32 elements) of %x, %y (96x11 inputs), %s (1 element) and %z (96x11
// output).
// Expected result (each operation rounded to f32), columns 0..7:
//   z = max(x * s[0], y) - x

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @column_blocks_partial(%x: index, %y: index, %s: index, %z: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %col = arith.muli %t, %c4 : index
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
    } : memref<96x11xf32> -> !ktdp.access_tile<96x4xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x4xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {
        access_tile_set = #one, access_tile_order = #id1
    } : memref<1xf32> -> !ktdp.access_tile<1xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<96x4xindex> -> tensor<96x4xf32>
    %yv = ktdp.load %y_tile : !ktdp.access_tile<96x4xindex> -> tensor<96x4xf32>
    %sv = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf32>
    %ss = tensor.collapse_shape %sv [] : tensor<1xf32> into tensor<f32>
    %init = tensor.empty() : tensor<96x4xf32>
    %sw = linalg.broadcast ins(%ss : tensor<f32>) outs(%init : tensor<96x4xf32>) dimensions = [0, 1]
    %p = arith.mulf %xv, %sw : tensor<96x4xf32>
    %m = arith.maximumf %p, %yv : tensor<96x4xf32>
    %zv = arith.subf %m, %xv : tensor<96x4xf32>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x4xindex>
    ktdp.store %zv, %z_tile : tensor<96x4xf32>, !ktdp.access_tile<96x4xindex>
    return
  }
}
