// Column sums and maxima of 45x300 f16 over two grid column blocks of 150.
// Merged, each 600-byte row is 10 vectors on sample and deep, 5 on spyre:
// a column fold over dense rows holds an accumulator per vector and
// reduction (20 or 10), which the compute unit's 32 registers hold; padded
// rows would need a 600-byte DMA stride, which no shipped description's
// DMA allows.
//
// Grid: [2]. Arguments: base addresses (f16 elements) of %src (45x300),
// %sums and %maxes (300 each).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 299 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 44 >= 0, d1 >= 0, -d1 + 149 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 299 >= 0)>
#vblk = affine_set<(d0) : (d0 >= 0, -d0 + 149 >= 0)>
module {
  func.func @col_reduce_wider_rows(%src: index, %sums: index, %maxes: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %cw = arith.constant 150 : index
    %t = ktdp.get_compute_tile_id : index
    %c0t = arith.muli %t, %cw : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [45, 300], strides: [300, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<45x300xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0t] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<45x300xf16> -> !ktdp.access_tile<45x150xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<45x150xindex> -> tensor<45x150xf16>
    %zeros = arith.constant dense<0.0> : tensor<150xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<45x150xf16>) outs(%zeros : tensor<150xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<150xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<150xf16>) -> tensor<150xf16>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<45x150xf16>) outs(%m0 : tensor<150xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [300], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<300xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [300], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<300xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<300xf16> -> !ktdp.access_tile<150xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<300xf16> -> !ktdp.access_tile<150xindex>
    ktdp.store %sum, %sums_at : tensor<150xf16>, !ktdp.access_tile<150xindex>
    ktdp.store %max, %maxes_at : tensor<150xf16>, !ktdp.access_tile<150xindex>
    return
  }
}
