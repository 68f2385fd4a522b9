// Row sum and max of a 4x1000 f32 matrix, grid 1: 1000 f32 are not whole
// vectors (16 lanes on sample and deep, 32 on spyre), so every row ends in a
// partial vector. The rows are 4000 bytes apart: whole units of deep's DMA
// (lowered into a row-padded slot), not of sample's or spyre's
// (realigned from a dense slot there: test/Run/dense-rows.test).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 999 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
module {
  func.func @row_reduce_partial(%src: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [4, 1000], strides: [1000, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x1000xf32>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<4x1000xf32> -> !ktdp.access_tile<4x1000xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<4x1000xindex> -> tensor<4x1000xf32>
    // Padding lanes computed from a zero would be 1 (sum) and -0 (max, above
    // every real value -x*x): a fold that saw them would be off.
    %one = arith.constant dense<1.0> : tensor<4x1000xf32>
    %xs = arith.addf %x, %one : tensor<4x1000xf32>
    %sq = arith.mulf %x, %x : tensor<4x1000xf32>
    %xm = arith.negf %sq : tensor<4x1000xf32>
    %zeros = arith.constant dense<0.0> : tensor<4xf32>
    %sum = linalg.reduce { arith.addf } ins(%xs : tensor<4x1000xf32>) outs(%zeros : tensor<4xf32>) dimensions = [1]
    %ninf = arith.constant 0xFF800000 : f32
    %e0 = tensor.empty() : tensor<4xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
    %max = linalg.reduce { arith.maximumf } ins(%xm : tensor<4x1000xf32>) outs(%m0 : tensor<4xf32>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [4], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [4], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<4xf32> -> !ktdp.access_tile<4xindex>
    ktdp.store %sum, %sums_at : tensor<4xf32>, !ktdp.access_tile<4xindex>
    ktdp.store %max, %maxes_at : tensor<4xf32>, !ktdp.access_tile<4xindex>
    return
  }
}
