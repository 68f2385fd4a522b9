// A column block on a grid of one tile: the origin's column `t * 9` names
// the tile id, whose only value is 0, so the 4x9 f32 block (rows of 9
// elements, not whole vectors) is the whole dense tensor.
#box_4x9 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 8 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @column_block_grid1(%in0: index, %in1: index, %out0: index)
      attributes {grid = [1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c9 = arith.constant 9 : index
    %col = arith.muli %t, %c9 : index
    %a_view = ktdp.construct_memory_view %in0, sizes: [4, 9], strides: [9, 1] {
        coordinate_set = #box_4x9, memory_space = #ktdp.memory_space<global>
    } : memref<4x9xf32>
    %b_view = ktdp.construct_memory_view %in1, sizes: [4, 9], strides: [9, 1] {
        coordinate_set = #box_4x9, memory_space = #ktdp.memory_space<global>
    } : memref<4x9xf32>
    %o_view = ktdp.construct_memory_view %out0, sizes: [4, 9], strides: [9, 1] {
        coordinate_set = #box_4x9, memory_space = #ktdp.memory_space<global>
    } : memref<4x9xf32>
    %a_tile = ktdp.construct_access_tile %a_view[%c0, %col] {
        access_tile_set = #box_4x9, access_tile_order = #id2
    } : memref<4x9xf32> -> !ktdp.access_tile<4x9xindex>
    %a = ktdp.load %a_tile : !ktdp.access_tile<4x9xindex> -> tensor<4x9xf32>
    %b_tile = ktdp.construct_access_tile %b_view[%c0, %col] {
        access_tile_set = #box_4x9, access_tile_order = #id2
    } : memref<4x9xf32> -> !ktdp.access_tile<4x9xindex>
    %b = ktdp.load %b_tile : !ktdp.access_tile<4x9xindex> -> tensor<4x9xf32>
    %s = arith.addf %a, %b : tensor<4x9xf32>
    %o_tile = ktdp.construct_access_tile %o_view[%c0, %col] {
        access_tile_set = #box_4x9, access_tile_order = #id2
    } : memref<4x9xf32> -> !ktdp.access_tile<4x9xindex>
    ktdp.store %s, %o_tile : tensor<4x9xf32>, !ktdp.access_tile<4x9xindex>
    return
  }
}
