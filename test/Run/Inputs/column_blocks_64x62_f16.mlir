// Element-wise over grid column blocks of f16 rows whose stride is not
// aligned to a DMA unit: 64 rows of 62 f16 (124 bytes apart), two grid
// tiles of 31 columns. Per-row DMA runs at a 124-byte stride are forbidden
// on every shipped description; ktsched-align-blocks gives each grid tile
// a block of whole rows (all 62 columns) instead.
//
// Grid: [2]; tile t owns columns [31t, 31t + 31). Arguments: base addresses
// (f16 elements) of %x, %y (64x62 inputs), %s (1 element) and %z (64x62
// output).
// Expected result (each operation rounded to f16):
//   z = max(x * s[0], y) - x

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 61 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 30 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @column_blocks(%x: index, %y: index, %s: index, %z: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c31 = arith.constant 31 : index
    %col = arith.muli %t, %c31 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 62], strides: [62, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<64x62xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 62], strides: [62, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<64x62xf16>
    %s_view = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {
        coordinate_set = #one, memory_space = #ktdp.memory_space<global>
    } : memref<1xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [64, 62], strides: [62, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<64x62xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<64x62xf16> -> !ktdp.access_tile<64x31xindex>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<64x62xf16> -> !ktdp.access_tile<64x31xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {
        access_tile_set = #one, access_tile_order = #id1
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<64x31xindex> -> tensor<64x31xf16>
    %yv = ktdp.load %y_tile : !ktdp.access_tile<64x31xindex> -> tensor<64x31xf16>
    %sv = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
    %ss = tensor.collapse_shape %sv [] : tensor<1xf16> into tensor<f16>
    %init = tensor.empty() : tensor<64x31xf16>
    %sw = linalg.broadcast ins(%ss : tensor<f16>) outs(%init : tensor<64x31xf16>) dimensions = [0, 1]
    %p = arith.mulf %xv, %sw : tensor<64x31xf16>
    %m = arith.maximumf %p, %yv : tensor<64x31xf16>
    %zv = arith.subf %m, %xv : tensor<64x31xf16>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<64x62xf16> -> !ktdp.access_tile<64x31xindex>
    ktdp.store %zv, %z_tile : tensor<64x31xf16>, !ktdp.access_tile<64x31xindex>
    return
  }
}
