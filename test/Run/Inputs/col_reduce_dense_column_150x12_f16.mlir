// Column sums and maxima (dimension 0) of src[r, c] * s[r] over 150 rows
// of 12 f16: the rows are 24 bytes apart, a stride no shipped DMA can pad
// to whole vectors, so the slot keeps them dense (row_layout) and the
// compute unit realigns each row before folding it; s is a column operand
// (one value per row), held a vector of rows at a time and broadcast per
// row. 150 rows are a first block, whole blocks and a last partial one on
// every description (sample: 32 + 3 x 32 + 22; spyre: 64 + 64 + 22), each
// in periods of rows of one shift each.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of %src (150x12),
// %s (150), %sums and %maxes (12 each).
// Expected result (each operation rounded to f16):
//   sums[c] = sum over r of src[r, c] * s[r]; maxes[c] = max over r of the same
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 149 >= 0, d1 >= 0, -d1 + 11 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 149 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 11 >= 0)>
module {
  func.func @col_reduce_dense_column(%src: index, %s: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [150, 12], strides: [12, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<150x12xf16>
    %s_mem = ktdp.construct_memory_view %s, sizes: [150], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<150xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<150x12xf16> -> !ktdp.access_tile<150x12xindex>
    %s_at = ktdp.construct_access_tile %s_mem[%c0] {
        access_tile_set = #col, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<150xf16> -> !ktdp.access_tile<150xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<150x12xindex> -> tensor<150x12xf16>
    %sv = ktdp.load %s_at : !ktdp.access_tile<150xindex> -> tensor<150xf16>
    %init = tensor.empty() : tensor<150x12xf16>
    %sw = linalg.broadcast ins(%sv : tensor<150xf16>) outs(%init : tensor<150x12xf16>) dimensions = [1]
    %y = arith.mulf %x, %sw : tensor<150x12xf16>
    %zeros = arith.constant dense<0.0> : tensor<12xf16>
    %sum = linalg.reduce { arith.addf } ins(%y : tensor<150x12xf16>) outs(%zeros : tensor<12xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<12xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<12xf16>) -> tensor<12xf16>
    %max = linalg.reduce { arith.maximumf } ins(%y : tensor<150x12xf16>) outs(%m0 : tensor<12xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [12], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [12], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<12xf16> -> !ktdp.access_tile<12xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<12xf16> -> !ktdp.access_tile<12xindex>
    ktdp.store %sum, %sums_at : tensor<12xf16>, !ktdp.access_tile<12xindex>
    ktdp.store %max, %maxes_at : tensor<12xf16>, !ktdp.access_tile<12xindex>
    return
  }
}
