// Negative twin of row_blocks_packed_19x113_f32.mlir: 32x113 f32 in row blocks of
// 16 (packed: 7232-byte runs, 113 x 64 bytes).
#box_32x113 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 112 >= 0)>
#box_113 = affine_set<(d0) : (d0 >= 0, -d0 + 112 >= 0)>
#box_16x113 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 112 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @kernel_s5170210(%in0: index, %in1: index, %in2: index, %rowv: index, %out0: index, %out1: index)
      attributes {grid = [2, 1]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c10 = arith.constant 16 : index
    %row_first = arith.muli %gx, %c10 : index
    %c113 = arith.constant 113 : index
    %col_first = arith.muli %gy, %c113 : index
    %in0_view = ktdp.construct_memory_view %in0, sizes: [32, 113], strides: [113, 1] {
        coordinate_set = #box_32x113, memory_space = #ktdp.memory_space<global>
    } : memref<32x113xf32>
    %in1_view = ktdp.construct_memory_view %in1, sizes: [32, 113], strides: [113, 1] {
        coordinate_set = #box_32x113, memory_space = #ktdp.memory_space<global>
    } : memref<32x113xf32>
    %in2_view = ktdp.construct_memory_view %in2, sizes: [32, 113], strides: [113, 1] {
        coordinate_set = #box_32x113, memory_space = #ktdp.memory_space<global>
    } : memref<32x113xf32>
    %rowv_view = ktdp.construct_memory_view %rowv, sizes: [113], strides: [1] {
        coordinate_set = #box_113, memory_space = #ktdp.memory_space<global>
    } : memref<113xf32>
    %out0_view = ktdp.construct_memory_view %out0, sizes: [32, 113], strides: [113, 1] {
        coordinate_set = #box_32x113, memory_space = #ktdp.memory_space<global>
    } : memref<32x113xf32>
    %out1_view = ktdp.construct_memory_view %out1, sizes: [32, 113], strides: [113, 1] {
        coordinate_set = #box_32x113, memory_space = #ktdp.memory_space<global>
    } : memref<32x113xf32>
    %in0_tile0 = ktdp.construct_access_tile %in0_view[%row_first, %col_first] {
        access_tile_set = #box_16x113, access_tile_order = #id2
    } : memref<32x113xf32> -> !ktdp.access_tile<16x113xindex>
    %in0_1 = ktdp.load %in0_tile0 : !ktdp.access_tile<16x113xindex> -> tensor<16x113xf32>
    %in1_tile2 = ktdp.construct_access_tile %in1_view[%row_first, %col_first] {
        access_tile_set = #box_16x113, access_tile_order = #id2
    } : memref<32x113xf32> -> !ktdp.access_tile<16x113xindex>
    %in1_3 = ktdp.load %in1_tile2 : !ktdp.access_tile<16x113xindex> -> tensor<16x113xf32>
    %in2_tile4 = ktdp.construct_access_tile %in2_view[%row_first, %col_first] {
        access_tile_set = #box_16x113, access_tile_order = #id2
    } : memref<32x113xf32> -> !ktdp.access_tile<16x113xindex>
    %in2_5 = ktdp.load %in2_tile4 : !ktdp.access_tile<16x113xindex> -> tensor<16x113xf32>
    %rowv_tile6 = ktdp.construct_access_tile %rowv_view[%col_first] {
        access_tile_set = #box_113, access_tile_order = #id1
    } : memref<113xf32> -> !ktdp.access_tile<113xindex>
    %rowv_7 = ktdp.load %rowv_tile6 : !ktdp.access_tile<113xindex> -> tensor<113xf32>
    %init8 = tensor.empty() : tensor<16x113xf32>
    %rowv_wide9 = linalg.broadcast ins(%rowv_7 : tensor<113xf32>) outs(%init8 : tensor<16x113xf32>) dimensions = [0]
    %k10 = arith.constant dense<0.00> : tensor<16x113xf32>
    %v11 = arith.maximumf %in2_5, %k10 : tensor<16x113xf32>
    %k12 = arith.constant dense<1.00> : tensor<16x113xf32>
    %v13 = arith.subf %in0_1, %k12 : tensor<16x113xf32>
    %v14 = arith.maximumf %v13, %in1_3 : tensor<16x113xf32>
    %v15 = arith.maximumf %v14, %rowv_wide9 : tensor<16x113xf32>
    %v16 = arith.addf %v15, %v11 : tensor<16x113xf32>
    %out0_tile17 = ktdp.construct_access_tile %out0_view[%row_first, %col_first] {
        access_tile_set = #box_16x113, access_tile_order = #id2
    } : memref<32x113xf32> -> !ktdp.access_tile<16x113xindex>
    ktdp.store %v16, %out0_tile17 : tensor<16x113xf32>, !ktdp.access_tile<16x113xindex>
    %out1_tile18 = ktdp.construct_access_tile %out1_view[%row_first, %col_first] {
        access_tile_set = #box_16x113, access_tile_order = #id2
    } : memref<32x113xf32> -> !ktdp.access_tile<16x113xindex>
    ktdp.store %in2_5, %out1_tile18 : tensor<16x113xf32>, !ktdp.access_tile<16x113xindex>
    return
  }
}
