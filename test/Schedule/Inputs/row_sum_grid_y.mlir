// row_sum_rows24 with its row blocks along grid dimension 1: grid [1, 4],
// tile (0, t) owns rows [24t, 24t + 24), 48 bytes of sums.
#src_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 23 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec_all = affine_set<(d0) : (d0 >= 0, -d0 + 95 >= 0)>
#vec_blk = affine_set<(d0) : (d0 >= 0, -d0 + 23 >= 0)>

module {
  func.func @row_sum_grid_y(%src: index, %sums: index) attributes {grid = [1, 4]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 24 : index
    %x, %t = ktdp.get_compute_tile_id : index, index
    %r0 = arith.muli %t, %step : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [96, 256], strides: [256, 1] {
        coordinate_set = #src_all, memory_space = #ktdp.memory_space<global>
    } : memref<96x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%r0, %c0] {
        access_tile_set = #src_blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<96x256xf16> -> !ktdp.access_tile<24x256xindex>
    %rows = ktdp.load %src_at : !ktdp.access_tile<24x256xindex> -> tensor<24x256xf16>
    %zeros = arith.constant dense<0.0> : tensor<24xf16>
    %row_sum = linalg.reduce { arith.addf }
                 ins(%rows : tensor<24x256xf16>)
                 outs(%zeros : tensor<24xf16>)
                 dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [96], strides: [1] {
        coordinate_set = #vec_all, memory_space = #ktdp.memory_space<global>
    } : memref<96xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%r0] {
        access_tile_set = #vec_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<96xf16> -> !ktdp.access_tile<24xindex>
    ktdp.store %row_sum, %sums_at : tensor<24xf16>, !ktdp.access_tile<24xindex>
    return
  }
}
