// Gathered rows feeding a group of phases: softmax over x[ids[r], :], 32 i32
// indices into a 32 x 1024 f16 table (f32 statistics), 2 grid tiles of 16 rows.
// Derived from `ktflow gen` output, its load turned into an indirect access tile.

#box_32x1024 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#box_16x1024 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @softmax_f16(%x: index, %ids: index, %y: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %row_first = arith.muli %t, %c16 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [32, 1024], strides: [1024, 1] {
        coordinate_set = #box_32x1024, memory_space = #ktdp.memory_space<global>
    } : memref<32x1024xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [32, 1024], strides: [1024, 1] {
        coordinate_set = #box_32x1024, memory_space = #ktdp.memory_space<global>
    } : memref<32x1024xf16>
    %ids_mem = ktdp.construct_memory_view %ids, sizes: [32], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32xi32>
    %x_tile0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %x_view[ind(%ids_mem[%row_first + %i]), (%j)] {
          variables_space_set = #box_16x1024, variables_space_order = #id2
        } : memref<32x1024xf16>, memref<32xi32> -> !ktdp.access_tile<16x1024xindex>
    %x_1 = ktdp.load %x_tile0 : !ktdp.access_tile<16x1024xindex> -> tensor<16x1024xf16>
    %cast2 = arith.extf %x_1 : tensor<16x1024xf16> to tensor<16x1024xf32>
    %inf4 = arith.constant 0xFF800000 : f32
    %init5 = tensor.empty() : tensor<16xf32>
    %acc3 = linalg.fill ins(%inf4 : f32) outs(%init5 : tensor<16xf32>) -> tensor<16xf32>
    %red6 = linalg.reduce { arith.maximumf } ins(%cast2 : tensor<16x1024xf32>) outs(%acc3 : tensor<16xf32>) dimensions = [1]
    %init7 = tensor.empty() : tensor<16x1024xf32>
    %row8 = linalg.broadcast ins(%red6 : tensor<16xf32>) outs(%init7 : tensor<16x1024xf32>) dimensions = [1]
    %v9 = arith.subf %cast2, %row8 : tensor<16x1024xf32>
    %v10 = math.exp %v9 : tensor<16x1024xf32>
    %acc11 = arith.constant dense<0.0> : tensor<16xf32>
    %red12 = linalg.reduce { arith.addf } ins(%v10 : tensor<16x1024xf32>) outs(%acc11 : tensor<16xf32>) dimensions = [1]
    %init13 = tensor.empty() : tensor<16x1024xf32>
    %row14 = linalg.broadcast ins(%red12 : tensor<16xf32>) outs(%init13 : tensor<16x1024xf32>) dimensions = [1]
    %v15 = arith.divf %v10, %row14 : tensor<16x1024xf32>
    %cast16 = arith.truncf %v15 : tensor<16x1024xf32> to tensor<16x1024xf16>
    %y_tile17 = ktdp.construct_access_tile %y_view[%row_first, %c0] {
        access_tile_set = #box_16x1024, access_tile_order = #id2
    } : memref<32x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    ktdp.store %cast16, %y_tile17 : tensor<16x1024xf16>, !ktdp.access_tile<16x1024xindex>
    return
  }
}
