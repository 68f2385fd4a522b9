// Row sums of f16[15, 256] over grid [1] with a 16-row access tile: the
// one grid tile is partly masked (its last row lies past the tensors).
#src_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 14 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec_all = affine_set<(d0) : (d0 >= 0, -d0 + 14 >= 0)>
#vec_blk = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>

module {
  func.func @row_sum_masked_grid1(%src: index, %sums: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %step = arith.constant 16 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %step : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [15, 256], strides: [256, 1] {
        coordinate_set = #src_all, memory_space = #ktdp.memory_space<global>
    } : memref<15x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%r0, %c0] {
        access_tile_set = #src_blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<15x256xf16> -> !ktdp.access_tile<16x256xindex>
    %rows = ktdp.load %src_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %zeros = arith.constant dense<0.0> : tensor<16xf16>
    %row_sum = linalg.reduce { arith.addf }
                 ins(%rows : tensor<16x256xf16>)
                 outs(%zeros : tensor<16xf16>)
                 dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [15], strides: [1] {
        coordinate_set = #vec_all, memory_space = #ktdp.memory_space<global>
    } : memref<15xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%r0] {
        access_tile_set = #vec_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<15xf16> -> !ktdp.access_tile<16xindex>
    ktdp.store %row_sum, %sums_at : tensor<16xf16>, !ktdp.access_tile<16xindex>
    return
  }
}
