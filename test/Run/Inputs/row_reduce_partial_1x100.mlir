// Row sum and max of one 1x100 f16 row on one core: 100 elements are not
// whole vectors on any description (32 f16 lanes on sample and deep, 64 on
// spyre), so the fold's last vector has its padding lanes replaced by the
// combiner's identity (`ext` of a -0 / -inf vector) before it is folded.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
module {
  func.func @row_reduce_partial(%src: index, %sums: index, %maxes: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [1, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1x100xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x100xf16> -> !ktdp.access_tile<1x100xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<1x100xindex> -> tensor<1x100xf16>
    // Padding lanes computed from a zero would be 1 (sum) and -0 (max, above
    // every real value -x*x): a fold that saw them would be off.
    %one = arith.constant dense<1.0> : tensor<1x100xf16>
    %xs = arith.addf %x, %one : tensor<1x100xf16>
    %sq = arith.mulf %x, %x : tensor<1x100xf16>
    %xm = arith.negf %sq : tensor<1x100xf16>
    %zeros = arith.constant dense<0.0> : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%xs : tensor<1x100xf16>) outs(%zeros : tensor<1xf16>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<1xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<1xf16>) -> tensor<1xf16>
    %max = linalg.reduce { arith.maximumf } ins(%xm : tensor<1x100xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [1], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [1], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %sum, %sums_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
    ktdp.store %max, %maxes_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
