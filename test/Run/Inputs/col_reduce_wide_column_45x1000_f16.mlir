// Negative twin of col_reduce_dense_column_150x12_f16.mlir: the same
// column sums and maxima of src[r, c] * s[r] over 45 rows of 1000 f16
// (2000 bytes apart). Rows of more vectors than the compute unit's
// registers hold accumulators for are not dense (RowLayout.cpp,
// denseColumnFits), and padded rows need a DMA stride the description
// forbids: diagnosed with its rule.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of %src (45x1000),
// %s (45), %sums and %maxes (1000 each).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 999 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 44 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
module {
  func.func @col_reduce_dense_column(%src: index, %s: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [45, 1000], strides: [1000, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<45x1000xf16>
    %s_mem = ktdp.construct_memory_view %s, sizes: [45], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<45xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<45x1000xf16> -> !ktdp.access_tile<45x1000xindex>
    %s_at = ktdp.construct_access_tile %s_mem[%c0] {
        access_tile_set = #col, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<45xf16> -> !ktdp.access_tile<45xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<45x1000xindex> -> tensor<45x1000xf16>
    %sv = ktdp.load %s_at : !ktdp.access_tile<45xindex> -> tensor<45xf16>
    %init = tensor.empty() : tensor<45x1000xf16>
    %sw = linalg.broadcast ins(%sv : tensor<45xf16>) outs(%init : tensor<45x1000xf16>) dimensions = [1]
    %y = arith.mulf %x, %sw : tensor<45x1000xf16>
    %zeros = arith.constant dense<0.0> : tensor<1000xf16>
    %sum = linalg.reduce { arith.addf } ins(%y : tensor<45x1000xf16>) outs(%zeros : tensor<1000xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<1000xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<1000xf16>) -> tensor<1000xf16>
    %max = linalg.reduce { arith.maximumf } ins(%y : tensor<45x1000xf16>) outs(%m0 : tensor<1000xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [1000], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1000xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [1000], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1000xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    ktdp.store %sum, %sums_at : tensor<1000xf16>, !ktdp.access_tile<1000xindex>
    ktdp.store %max, %maxes_at : tensor<1000xf16>, !ktdp.access_tile<1000xindex>
    return
  }
}
