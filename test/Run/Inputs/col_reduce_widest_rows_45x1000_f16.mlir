// Negative twin of col_reduce_wider_rows_45x300_f16.mlir: column sums and
// maxima of 45x1000 f16 over two grid column blocks of 500. Merged, each
// 2000-byte row is more vectors (32 on sample and deep, 16 on spyre) than
// the compute unit's 32 registers hold accumulators for, two reductions
// each, over dense rows, and padded rows need a 2000-byte DMA stride, which
// no shipped description's DMA allows.
//
// Grid: [2]. Arguments: base addresses (f16 elements) of %src (45x1000),
// %sums and %maxes (1000 each).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 999 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 499 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#vblk = affine_set<(d0) : (d0 >= 0, -d0 + 499 >= 0)>
module {
  func.func @col_reduce_widest_rows(%src: index, %sums: index, %maxes: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %cw = arith.constant 500 : index
    %t = ktdp.get_compute_tile_id : index
    %c0t = arith.muli %t, %cw : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [45, 1000], strides: [1000, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<45x1000xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0t] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<45x1000xf16> -> !ktdp.access_tile<45x500xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<45x500xindex> -> tensor<45x500xf16>
    %zeros = arith.constant dense<0.0> : tensor<500xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<45x500xf16>) outs(%zeros : tensor<500xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<500xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<500xf16>) -> tensor<500xf16>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<45x500xf16>) outs(%m0 : tensor<500xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [1000], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1000xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [1000], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1000xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1000xf16> -> !ktdp.access_tile<500xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1000xf16> -> !ktdp.access_tile<500xindex>
    ktdp.store %sum, %sums_at : tensor<500xf16>, !ktdp.access_tile<500xindex>
    ktdp.store %max, %maxes_at : tensor<500xf16>, !ktdp.access_tile<500xindex>
    return
  }
}
