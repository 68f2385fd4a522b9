// Example 04 (row_sum_and_max) with its grid cut to sample's 2 cores: 32 rows per tile.
//
// Row reductions: the sum and the maximum of every row of an f16 matrix.
// The sum uses the short form of linalg.reduce; the maximum uses the form
// with an explicit combiner region. Both results are stored.
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32).
// Arguments (base addresses in f16 elements, global memory):
//   %src     f16[64, 256], row-major
//   %sums    f16[64]
//   %maxes   f16[64]
// Expected result:
//   sums[r]  = sum over c of src[r, c]   (f16 accumulation; compare with a
//                                         tolerance, see the numeric notes)
//   maxes[r] = max over c of src[r, c]   (exact)

#src_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec_all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vec_blk = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>

module {
  func.func @row_sum_max(%src: index, %sums: index, %maxes: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c16 : index

    %src_mem = ktdp.construct_memory_view %src, sizes: [64, 256], strides: [256, 1] {
        coordinate_set = #src_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%r0, %c0] {
        access_tile_set = #src_blk,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<64x256xf16> -> !ktdp.access_tile<32x256xindex>
    %rows = ktdp.load %src_at : !ktdp.access_tile<32x256xindex> -> tensor<32x256xf16>

    // Sum: the outs operand is the initial accumulator (zeros).
    %zeros = arith.constant dense<0.0> : tensor<32xf16>
    %row_sum = linalg.reduce { arith.addf }
                 ins(%rows : tensor<32x256xf16>)
                 outs(%zeros : tensor<32xf16>)
                 dimensions = [1]

    // Max: initial accumulator is -inf (f16 bit pattern 0xFC00).
    %ninf = arith.constant 0xFC00 : f16
    %m_empty = tensor.empty() : tensor<32xf16>
    %m_init = linalg.fill ins(%ninf : f16) outs(%m_empty : tensor<32xf16>) -> tensor<32xf16>
    %row_max = linalg.reduce ins(%rows : tensor<32x256xf16>)
                 outs(%m_init : tensor<32xf16>) dimensions = [1]
      (%elem: f16, %best: f16) {
        %bigger = arith.maximumf %elem, %best : f16
        linalg.yield %bigger : f16
      }

    %sums_mem = ktdp.construct_memory_view %sums, sizes: [64], strides: [1] {
        coordinate_set = #vec_all, memory_space = #ktdp.memory_space<global>
    } : memref<64xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [64], strides: [1] {
        coordinate_set = #vec_all, memory_space = #ktdp.memory_space<global>
    } : memref<64xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%r0] {
        access_tile_set = #vec_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<64xf16> -> !ktdp.access_tile<32xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%r0] {
        access_tile_set = #vec_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<64xf16> -> !ktdp.access_tile<32xindex>
    ktdp.store %row_sum, %sums_at : tensor<32xf16>, !ktdp.access_tile<32xindex>
    ktdp.store %row_max, %maxes_at : tensor<32xf16>, !ktdp.access_tile<32xindex>
    return
  }
}
