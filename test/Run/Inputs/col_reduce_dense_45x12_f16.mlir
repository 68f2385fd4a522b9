// Column sums and maxima (dimension 0) of a 45x12 f16 matrix over grid
// column blocks: grid tile t owns columns [4t, 4t + 4). Each tile's 8-byte
// results are below every shipped DMA's access, so the grid tiles merge
// (ktsched-merge-tiles) into one tile of whole rows: 45 rows of 24 bytes
// back to back, whose 24-byte stride no DMA can pad to whole vectors.
// The slot keeps them dense (row_layout) and the compute unit realigns
// each row (one partial vector) before folding it.
//
// Grid: [3]. Arguments: base addresses (f16 elements) of %src (45x12),
// %sums and %maxes (12 each).
// Expected result (each operation rounded to f16):
//   sums[c] = sum over r of src[r, c]; maxes[c] = max over r of src[r, c]
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 11 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 11 >= 0)>
#vblk = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
module {
  func.func @col_reduce_dense(%src: index, %sums: index, %maxes: index) attributes {grid = [3]} {
    %c0 = arith.constant 0 : index
    %cw = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %c0t = arith.muli %t, %cw : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [45, 12], strides: [12, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<45x12xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0t] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<45x12xf16> -> !ktdp.access_tile<45x4xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<45x4xindex> -> tensor<45x4xf16>
    %zeros = arith.constant dense<0.0> : tensor<4xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<45x4xf16>) outs(%zeros : tensor<4xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<4xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<4xf16>) -> tensor<4xf16>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<45x4xf16>) outs(%m0 : tensor<4xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [12], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [12], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<12xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<12xf16> -> !ktdp.access_tile<4xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<12xf16> -> !ktdp.access_tile<4xindex>
    ktdp.store %sum, %sums_at : tensor<4xf16>, !ktdp.access_tile<4xindex>
    ktdp.store %max, %maxes_at : tensor<4xf16>, !ktdp.access_tile<4xindex>
    return
  }
}
