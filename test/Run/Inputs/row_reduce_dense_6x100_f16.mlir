// Row sum and max of a 6x100 f16 matrix, grid 1: 100 f16 are not whole
// vectors, and the rows are 200 bytes apart, a stride no DMA unit of
// sample (64 bytes) or spyre (128) allows: the slot holds the rows dense
// and the compute unit realigns them (test/Run/dense-rows.test). Padding
// lanes holding the next row's data would change both outputs.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 5 >= 0)>
module {
  func.func @row_reduce_dense(%src: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [6, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<6x100xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<6x100xf16> -> !ktdp.access_tile<6x100xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<6x100xindex> -> tensor<6x100xf16>
    // Padding lanes computed from a zero would be 1 (sum) and -0 (max, above
    // every real value -x*x): a fold that saw them would be off.
    %one = arith.constant dense<1.0> : tensor<6x100xf16>
    %xs = arith.addf %x, %one : tensor<6x100xf16>
    %sq = arith.mulf %x, %x : tensor<6x100xf16>
    %xm = arith.negf %sq : tensor<6x100xf16>
    %zeros = arith.constant dense<0.0> : tensor<6xf16>
    %sum = linalg.reduce { arith.addf } ins(%xs : tensor<6x100xf16>) outs(%zeros : tensor<6xf16>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<6xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<6xf16>) -> tensor<6xf16>
    %max = linalg.reduce { arith.maximumf } ins(%xm : tensor<6x100xf16>) outs(%m0 : tensor<6xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [6], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<6xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [6], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<6xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<6xf16> -> !ktdp.access_tile<6xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<6xf16> -> !ktdp.access_tile<6xindex>
    ktdp.store %sum, %sums_at : tensor<6xf16>, !ktdp.access_tile<6xindex>
    ktdp.store %max, %maxes_at : tensor<6xf16>, !ktdp.access_tile<6xindex>
    return
  }
}
