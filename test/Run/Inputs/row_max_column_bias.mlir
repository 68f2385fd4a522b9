// Row maxima of biased rows, y[r] = max over c of (x[r, c] + b[r]): a row
// reduction whose bias is a column operand, one value per row. Eight grid
// tiles of 16 rows: each tile's 64-byte bias slice starts 64c bytes into
// the bias, inside a DMA unit on a description whose unit is larger.
// Arguments (global memory, base addresses in elements):
//   %x  f32[128, 64]  input
//   %b  f32[128]      input, one bias per row
//   %y  f32[128]      output

#box_128x64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#box_16x64 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#box_128 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#box_16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @row_max_column_bias(%x: index, %b: index, %y: index) attributes {grid = [8]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %row_first = arith.muli %t, %c16 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [128, 64], strides: [64, 1] {
        coordinate_set = #box_128x64, memory_space = #ktdp.memory_space<global>
    } : memref<128x64xf32>
    %b_view = ktdp.construct_memory_view %b, sizes: [128], strides: [1] {
        coordinate_set = #box_128, memory_space = #ktdp.memory_space<global>
    } : memref<128xf32>
    %y_view = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {
        coordinate_set = #box_128, memory_space = #ktdp.memory_space<global>
    } : memref<128xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%row_first, %c0] {
        access_tile_set = #box_16x64, access_tile_order = #id2
    } : memref<128x64xf32> -> !ktdp.access_tile<16x64xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf32>
    %b_tile = ktdp.construct_access_tile %b_view[%row_first] {
        access_tile_set = #box_16, access_tile_order = #id1
    } : memref<128xf32> -> !ktdp.access_tile<16xindex>
    %bv = ktdp.load %b_tile : !ktdp.access_tile<16xindex> -> tensor<16xf32>
    %init = tensor.empty() : tensor<16x64xf32>
    %b_wide = linalg.broadcast ins(%bv : tensor<16xf32>) outs(%init : tensor<16x64xf32>) dimensions = [1]
    %v = arith.addf %xv, %b_wide : tensor<16x64xf32>
    %ninf = arith.constant 0xFF800000 : f32
    %init1 = tensor.empty() : tensor<16xf32>
    %acc = linalg.fill ins(%ninf : f32) outs(%init1 : tensor<16xf32>) -> tensor<16xf32>
    %m = linalg.reduce { arith.maximumf } ins(%v : tensor<16x64xf32>) outs(%acc : tensor<16xf32>) dimensions = [1]
    %y_tile = ktdp.construct_access_tile %y_view[%row_first] {
        access_tile_set = #box_16, access_tile_order = #id1
    } : memref<128xf32> -> !ktdp.access_tile<16xindex>
    ktdp.store %m, %y_tile : tensor<16xf32>, !ktdp.access_tile<16xindex>
    return
  }
}
