// Row sum and max of a 16x100 f32 matrix truncated to f16, grid 1: dense
// rows 400 bytes apart, moved in two f32 pieces per f16 step; on sample
// (32 f16 lanes) the last step's second piece (elements 112..127) lies
// wholly past the row's end, so it is not read: the next row's first
// vector follows the row's last read (test/Run/dense-rows-wide.test).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
module {
  func.func @row_reduce_dense_wide_short(%src: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [16, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x100xf32>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<16x100xf32> -> !ktdp.access_tile<16x100xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<16x100xindex> -> tensor<16x100xf32>
    %h = arith.truncf %x : tensor<16x100xf32> to tensor<16x100xf16>
    %one = arith.constant dense<1.0> : tensor<16x100xf16>
    %hs = arith.addf %h, %one : tensor<16x100xf16>
    %sq = arith.mulf %h, %h : tensor<16x100xf16>
    %hm = arith.negf %sq : tensor<16x100xf16>
    %zeros = arith.constant dense<0.0> : tensor<16xf16>
    %sum = linalg.reduce { arith.addf } ins(%hs : tensor<16x100xf16>) outs(%zeros : tensor<16xf16>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<16xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<16xf16>) -> tensor<16xf16>
    %max = linalg.reduce { arith.maximumf } ins(%hm : tensor<16x100xf16>) outs(%m0 : tensor<16xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [16], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [16], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<16xf16> -> !ktdp.access_tile<16xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<16xf16> -> !ktdp.access_tile<16xindex>
    ktdp.store %sum, %sums_at : tensor<16xf16>, !ktdp.access_tile<16xindex>
    ktdp.store %max, %maxes_at : tensor<16xf16>, !ktdp.access_tile<16xindex>
    return
  }
}
