// Row max of (x + colv[r]) and row sum of x * colv[r] over a 40x100 f16
// matrix, grid 1: rows of 100 f16 are not whole vectors and lie 200 bytes
// apart (a stride neither sample's nor spyre's DMA allows), so the slot
// holds them dense; the column operand colv (one value per row) is held a
// vector of rows at a time beside them (test/Run/dense-rows-column.test).
// 40 rows: one whole block of 32 rows (f16 vectors on sample) and a
// partial one of 8, each a whole number of the realignment's periods.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 39 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 39 >= 0)>
module {
  func.func @row_reduce_dense_column(%src: index, %colv: index, %sums: index, %maxes: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [40, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<40x100xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<40x100xf16> -> !ktdp.access_tile<40x100xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<40x100xindex> -> tensor<40x100xf16>
    %colv_mem = ktdp.construct_memory_view %colv, sizes: [40], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<40xf16>
    %colv_at = ktdp.construct_access_tile %colv_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<40xf16> -> !ktdp.access_tile<40xindex>
    %cv = ktdp.load %colv_at : !ktdp.access_tile<40xindex> -> tensor<40xf16>
    %e = tensor.empty() : tensor<40x100xf16>
    %cw = linalg.broadcast ins(%cv : tensor<40xf16>) outs(%e : tensor<40x100xf16>) dimensions = [1]
    %xs = arith.mulf %x, %cw : tensor<40x100xf16>
    %xm = arith.addf %x, %cw : tensor<40x100xf16>
    %zeros = arith.constant dense<0.0> : tensor<40xf16>
    %sum = linalg.reduce { arith.addf } ins(%xs : tensor<40x100xf16>) outs(%zeros : tensor<40xf16>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<40xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<40xf16>) -> tensor<40xf16>
    %max = linalg.reduce { arith.maximumf } ins(%xm : tensor<40x100xf16>) outs(%m0 : tensor<40xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [40], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<40xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [40], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<40xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<40xf16> -> !ktdp.access_tile<40xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<40xf16> -> !ktdp.access_tile<40xindex>
    ktdp.store %sum, %sums_at : tensor<40xf16>, !ktdp.access_tile<40xindex>
    ktdp.store %max, %maxes_at : tensor<40xf16>, !ktdp.access_tile<40xindex>
    return
  }
}
