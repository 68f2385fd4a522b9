// Twin of contiguous_row_operand.mlir: the scale is a column of 100
// values, one per row, broadcast along it (y = x * s[r]). The rows are
// packed into dense stores (each 11-element row alone would leave as a
// 22-byte store, which no description's DMA allows) and the column is
// held a vector of rows at a time beside them, on deep's two levels too.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of %x (100x11), %s
// (100 elements) and %y, %z (100x11 outputs).
// Expected result (each operation rounded to f16):
//   y = x * s[r]
//   z = max(x - 1, -x)

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @contiguous_column_operand(%x: index, %s: index, %y: index, %z: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %s_view = ktdp.construct_memory_view %s, sizes: [100], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>
    } : memref<100xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %c0] {
        access_tile_set = #all, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<100x11xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {
        access_tile_set = #col, access_tile_order = #id1
    } : memref<100xf16> -> !ktdp.access_tile<100xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<100x11xindex> -> tensor<100x11xf16>
    %sv = ktdp.load %s_tile : !ktdp.access_tile<100xindex> -> tensor<100xf16>
    %init = tensor.empty() : tensor<100x11xf16>
    %sw = linalg.broadcast ins(%sv : tensor<100xf16>) outs(%init : tensor<100x11xf16>) dimensions = [1]
    %yv = arith.mulf %xv, %sw : tensor<100x11xf16>
    %ones = arith.constant dense<1.0> : tensor<100x11xf16>
    %xm1 = arith.subf %xv, %ones : tensor<100x11xf16>
    %nx = arith.negf %xv : tensor<100x11xf16>
    %zv = arith.maximumf %xm1, %nx : tensor<100x11xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %c0] {
        access_tile_set = #all, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<100x11xindex>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %c0] {
        access_tile_set = #all, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<100x11xindex>
    ktdp.store %yv, %y_tile : tensor<100x11xf16>, !ktdp.access_tile<100x11xindex>
    ktdp.store %zv, %z_tile : tensor<100x11xf16>, !ktdp.access_tile<100x11xindex>
    return
  }
}
