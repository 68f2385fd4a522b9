// Column sums and maxima of 45x80 f16 over two grid column blocks of 40.
// Merged into one tile, each 160-byte row is more than one vector on
// sample (64-byte vectors) and spyre (128), at a stride neither DMA can
// pad: the rows stay dense, and the column fold reads them in memory
// order, each row's vectors into their own accumulators (3 on sample, 2
// on spyre).
//
// Grid: [2]. Arguments: base addresses (f16 elements) of %src (45x80),
// %sums and %maxes (80 each).
// Expected result (each operation rounded to f16):
//   sums[c] = sum over r of src[r, c]; maxes[c] = max over r of src[r, c]
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 79 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 79 >= 0)>
#vblk = affine_set<(d0) : (d0 >= 0, -d0 + 39 >= 0)>
module {
  func.func @col_reduce_wide_rows(%src: index, %sums: index, %maxes: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %cw = arith.constant 40 : index
    %t = ktdp.get_compute_tile_id : index
    %c0t = arith.muli %t, %cw : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [45, 80], strides: [80, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<45x80xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0t] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<45x80xf16> -> !ktdp.access_tile<45x40xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<45x40xindex> -> tensor<45x40xf16>
    %zeros = arith.constant dense<0.0> : tensor<40xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<45x40xf16>) outs(%zeros : tensor<40xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<40xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<40xf16>) -> tensor<40xf16>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<45x40xf16>) outs(%m0 : tensor<40xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<40xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<40xindex>
    ktdp.store %sum, %sums_at : tensor<40xf16>, !ktdp.access_tile<40xindex>
    ktdp.store %max, %maxes_at : tensor<40xf16>, !ktdp.access_tile<40xindex>
    return
  }
}
