// Row sums of f16[24, 256] over grid [3] into a sums view of 32 elements:
// tile t owns rows [8t, 8t + 8), 16 bytes of sums. 3 has no factor but
// itself, and the 48 bytes of all three tiles neither fill a DMA access
// nor end where the sums tensor ends (its last 8 elements are not stored).
#src_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec_all = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#vec_blk = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>

module {
  func.func @row_sum_grid3(%src: index, %sums: index) attributes {grid = [3]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 8 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %step : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [24, 256], strides: [256, 1] {
        coordinate_set = #src_all, memory_space = #ktdp.memory_space<global>
    } : memref<24x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%r0, %c0] {
        access_tile_set = #src_blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<24x256xf16> -> !ktdp.access_tile<8x256xindex>
    %rows = ktdp.load %src_at : !ktdp.access_tile<8x256xindex> -> tensor<8x256xf16>
    %zeros = arith.constant dense<0.0> : tensor<8xf16>
    %row_sum = linalg.reduce { arith.addf }
                 ins(%rows : tensor<8x256xf16>)
                 outs(%zeros : tensor<8xf16>)
                 dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [32], strides: [1] {
        coordinate_set = #vec_all, memory_space = #ktdp.memory_space<global>
    } : memref<32xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%r0] {
        access_tile_set = #vec_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<32xf16> -> !ktdp.access_tile<8xindex>
    ktdp.store %row_sum, %sums_at : tensor<8xf16>, !ktdp.access_tile<8xindex>
    return
  }
}
