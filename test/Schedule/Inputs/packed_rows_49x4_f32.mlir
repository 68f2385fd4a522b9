// Found by `ktflow fuzz --seed 5170033 --count 1 --arch sample` (sample: a 176-byte store
// run before masked classes took the split's units). Element-wise, 49x4 f32 in two
// row blocks of 25; rows of 16 bytes, stored packed.
#box_49x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 48 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#box_4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#box_25x4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 24 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @kernel_s5170033(%in0: index, %rowv: index, %out0: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c25 = arith.constant 25 : index
    %row_first = arith.muli %t, %c25 : index
    %in0_view = ktdp.construct_memory_view %in0, sizes: [49, 4], strides: [4, 1] {
        coordinate_set = #box_49x4, memory_space = #ktdp.memory_space<global>
    } : memref<49x4xf32>
    %rowv_view = ktdp.construct_memory_view %rowv, sizes: [4], strides: [1] {
        coordinate_set = #box_4, memory_space = #ktdp.memory_space<global>
    } : memref<4xf32>
    %out0_view = ktdp.construct_memory_view %out0, sizes: [49, 4], strides: [4, 1] {
        coordinate_set = #box_49x4, memory_space = #ktdp.memory_space<global>
    } : memref<49x4xf32>
    %in0_tile0 = ktdp.construct_access_tile %in0_view[%row_first, %c0] {
        access_tile_set = #box_25x4, access_tile_order = #id2
    } : memref<49x4xf32> -> !ktdp.access_tile<25x4xindex>
    %in0_1 = ktdp.load %in0_tile0 : !ktdp.access_tile<25x4xindex> -> tensor<25x4xf32>
    %rowv_tile2 = ktdp.construct_access_tile %rowv_view[%c0] {
        access_tile_set = #box_4, access_tile_order = #id1
    } : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %rowv_3 = ktdp.load %rowv_tile2 : !ktdp.access_tile<4xindex> -> tensor<4xf32>
    %init4 = tensor.empty() : tensor<25x4xf32>
    %rowv_wide5 = linalg.broadcast ins(%rowv_3 : tensor<4xf32>) outs(%init4 : tensor<25x4xf32>) dimensions = [0]
    %k6 = arith.constant dense<-0.75> : tensor<25x4xf32>
    %v7 = arith.subf %k6, %rowv_wide5 : tensor<25x4xf32>
    %v8 = math.absf %in0_1 : tensor<25x4xf32>
    %v9 = math.absf %v8 : tensor<25x4xf32>
    %k10 = arith.constant dense<2.50> : tensor<25x4xf32>
    %v11 = arith.mulf %k6, %k10 : tensor<25x4xf32>
    %v12 = arith.subf %v7, %v11 : tensor<25x4xf32>
    %k13 = arith.constant dense<2.00> : tensor<25x4xf32>
    %v14 = arith.minimumf %v12, %k13 : tensor<25x4xf32>
    %v15 = math.exp %v14 : tensor<25x4xf32>
    %v16 = arith.addf %v15, %v9 : tensor<25x4xf32>
    %out0_tile17 = ktdp.construct_access_tile %out0_view[%row_first, %c0] {
        access_tile_set = #box_25x4, access_tile_order = #id2
    } : memref<49x4xf32> -> !ktdp.access_tile<25x4xindex>
    ktdp.store %v16, %out0_tile17 : tensor<25x4xf32>, !ktdp.access_tile<25x4xindex>
    return
  }
}
