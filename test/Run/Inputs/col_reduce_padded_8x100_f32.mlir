// Column sum and max of 8 rows of 100 f32 laid 128 elements apart (a view
// of the first 100 columns of an 8x128 matrix), grid 1: every tile row
// ends in a partial vector, the rows are read into a row-padded slot, and
// the one row of results (100 f32, at the end of the outputs' data) is
// stored from whole vectors.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
module {
  func.func @col_reduce_padded(%src: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [8, 100], strides: [128, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x100xf32>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<8x100xf32> -> !ktdp.access_tile<8x100xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<8x100xindex> -> tensor<8x100xf32>
    %one = arith.constant dense<1.0> : tensor<8x100xf32>
    %xs = arith.addf %x, %one : tensor<8x100xf32>
    %zeros = arith.constant dense<0.0> : tensor<100xf32>
    %sum = linalg.reduce { arith.addf } ins(%xs : tensor<8x100xf32>) outs(%zeros : tensor<100xf32>) dimensions = [0]
    %ninf = arith.constant 0xFF800000 : f32
    %e0 = tensor.empty() : tensor<100xf32>
    %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<100xf32>) -> tensor<100xf32>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<8x100xf32>) outs(%m0 : tensor<100xf32>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [100], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<100xf32>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [100], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<100xf32>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<100xf32> -> !ktdp.access_tile<100xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<100xf32> -> !ktdp.access_tile<100xindex>
    ktdp.store %sum, %sums_at : tensor<100xf32>, !ktdp.access_tile<100xindex>
    ktdp.store %max, %maxes_at : tensor<100xf32>, !ktdp.access_tile<100xindex>
    return
  }
}
