// Found by `ktflow fuzz --seed 5170048 --count 1 --arch sample`: element-wise, 4x48
// f32 in a grid [1, 2] of column blocks of 24 (96-byte rows, 192 bytes apart).
#box_4x48 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#box_4x24 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 23 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @kernel_s5170048(%in0: index, %in1: index, %out0: index)
      attributes {grid = [1, 2]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %row_first = arith.muli %gx, %c4 : index
    %c24 = arith.constant 24 : index
    %col_first = arith.muli %gy, %c24 : index
    %in0_view = ktdp.construct_memory_view %in0, sizes: [4, 48], strides: [48, 1] {
        coordinate_set = #box_4x48, memory_space = #ktdp.memory_space<global>
    } : memref<4x48xf32>
    %in1_view = ktdp.construct_memory_view %in1, sizes: [4, 48], strides: [48, 1] {
        coordinate_set = #box_4x48, memory_space = #ktdp.memory_space<global>
    } : memref<4x48xf32>
    %out0_view = ktdp.construct_memory_view %out0, sizes: [4, 48], strides: [48, 1] {
        coordinate_set = #box_4x48, memory_space = #ktdp.memory_space<global>
    } : memref<4x48xf32>
    %in0_tile0 = ktdp.construct_access_tile %in0_view[%row_first, %col_first] {
        access_tile_set = #box_4x24, access_tile_order = #id2
    } : memref<4x48xf32> -> !ktdp.access_tile<4x24xindex>
    %in0_1 = ktdp.load %in0_tile0 : !ktdp.access_tile<4x24xindex> -> tensor<4x24xf32>
    %in1_tile2 = ktdp.construct_access_tile %in1_view[%row_first, %col_first] {
        access_tile_set = #box_4x24, access_tile_order = #id2
    } : memref<4x48xf32> -> !ktdp.access_tile<4x24xindex>
    %in1_3 = ktdp.load %in1_tile2 : !ktdp.access_tile<4x24xindex> -> tensor<4x24xf32>
    %v4 = arith.subf %in1_3, %in0_1 : tensor<4x24xf32>
    %v5 = arith.maximumf %v4, %in0_1 : tensor<4x24xf32>
    %v6 = arith.negf %v4 : tensor<4x24xf32>
    %v7 = arith.addf %v6, %v5 : tensor<4x24xf32>
    %out0_tile8 = ktdp.construct_access_tile %out0_view[%row_first, %col_first] {
        access_tile_set = #box_4x24, access_tile_order = #id2
    } : memref<4x48xf32> -> !ktdp.access_tile<4x24xindex>
    ktdp.store %v7, %out0_tile8 : tensor<4x24xf32>, !ktdp.access_tile<4x24xindex>
    return
  }
}
