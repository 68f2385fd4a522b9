// A column broadcast in a group of f16 and f32 buffers: y[r, c] = f32(x[r, c] + bias[r]).
// Arguments (global memory, base addresses in elements of each buffer's type):
//   %x     f16[64, 128]  input
//   %bias  f16[64]       input, one value per row
//   %y     f32[64, 128]  output
// For test/Run/conversions.test: the column operand is held in its own
// (f16) registers beside the f32 results' pieces.

#box_64x128 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#box_64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @bcast_col_mixed(%x: index, %bias: index, %y: index)
      attributes {grid = [1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %row_first = arith.muli %t, %c64 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #box_64x128, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %bias_view = ktdp.construct_memory_view %bias, sizes: [64], strides: [1] {
        coordinate_set = #box_64, memory_space = #ktdp.memory_space<global>
    } : memref<64xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #box_64x128, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf32>
    %x_tile0 = ktdp.construct_access_tile %x_view[%row_first, %c0] {
        access_tile_set = #box_64x128, access_tile_order = #id2
    } : memref<64x128xf16> -> !ktdp.access_tile<64x128xindex>
    %x_1 = ktdp.load %x_tile0 : !ktdp.access_tile<64x128xindex> -> tensor<64x128xf16>
    %bias_tile2 = ktdp.construct_access_tile %bias_view[%row_first] {
        access_tile_set = #box_64, access_tile_order = #id1
    } : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %bias_3 = ktdp.load %bias_tile2 : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %init4 = tensor.empty() : tensor<64x128xf16>
    %bias_wide5 = linalg.broadcast ins(%bias_3 : tensor<64xf16>) outs(%init4 : tensor<64x128xf16>) dimensions = [1]
    %v6h = arith.addf %x_1, %bias_wide5 : tensor<64x128xf16>
    %v6 = arith.extf %v6h : tensor<64x128xf16> to tensor<64x128xf32>
    %y_tile7 = ktdp.construct_access_tile %y_view[%row_first, %c0] {
        access_tile_set = #box_64x128, access_tile_order = #id2
    } : memref<64x128xf32> -> !ktdp.access_tile<64x128xindex>
    ktdp.store %v6, %y_tile7 : tensor<64x128xf32>, !ktdp.access_tile<64x128xindex>
    return
  }
}
