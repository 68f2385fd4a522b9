// Gathered rows feeding a row reduction: y[r] = sum over columns of
// x[ids[r], :], 32 i32 indices into a 32 x 256 f16 table, 2 grid tiles of 16 rows.
// Derived from `ktflow gen` output, its load turned into an indirect access tile.

#box_32x256 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#box_32 = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#box_16x256 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#box_16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @rowsum_f16(%x: index, %ids: index, %y: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %row_first = arith.muli %t, %c16 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [32, 256], strides: [256, 1] {
        coordinate_set = #box_32x256, memory_space = #ktdp.memory_space<global>
    } : memref<32x256xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [32], strides: [1] {
        coordinate_set = #box_32, memory_space = #ktdp.memory_space<global>
    } : memref<32xf16>
    %ids_mem = ktdp.construct_memory_view %ids, sizes: [32], strides: [1] {
        coordinate_set = #box_32, memory_space = #ktdp.memory_space<global>
    } : memref<32xi32>
    %x_tile0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %x_view[ind(%ids_mem[%row_first + %i]), (%j)] {
          variables_space_set = #box_16x256, variables_space_order = #id2
        } : memref<32x256xf16>, memref<32xi32> -> !ktdp.access_tile<16x256xindex>
    %x_1 = ktdp.load %x_tile0 : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %acc2 = arith.constant dense<0.0> : tensor<16xf16>
    %red3 = linalg.reduce { arith.addf } ins(%x_1 : tensor<16x256xf16>) outs(%acc2 : tensor<16xf16>) dimensions = [1]
    %y_tile4 = ktdp.construct_access_tile %y_view[%row_first] {
        access_tile_set = #box_16, access_tile_order = #id1
    } : memref<32xf16> -> !ktdp.access_tile<16xindex>
    ktdp.store %red3, %y_tile4 : tensor<16xf16>, !ktdp.access_tile<16xindex>
    return
  }
}
