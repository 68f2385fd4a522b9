// out = x * x + 1 over 8x100 f16 in row blocks of 4 rows, grid 2. The rows
// are whole and dense, so FlattenRows makes each grid tile one run of 400
// f16 on deep: 800 bytes, 25 of its 32-byte DMA units, a legal run as it
// is (the negative twin of merge-tiles/flattened.test).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 99 >= 0)>
module {
  func.func @eltwise_flat(%x: index, %out: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %t, %c4 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [8, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x100xf16>
    %out_mem = ktdp.construct_memory_view %out, sizes: [8, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x100xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%row, %c0] {
        access_tile_set = #rows, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<8x100xf16> -> !ktdp.access_tile<4x100xindex>
    %out_at = ktdp.construct_access_tile %out_mem[%row, %c0] {
        access_tile_set = #rows, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<8x100xf16> -> !ktdp.access_tile<4x100xindex>
    %v = ktdp.load %x_at : !ktdp.access_tile<4x100xindex> -> tensor<4x100xf16>
    %sq = arith.mulf %v, %v : tensor<4x100xf16>
    %one = arith.constant dense<1.0> : tensor<4x100xf16>
    %r = arith.addf %sq, %one : tensor<4x100xf16>
    ktdp.store %r, %out_at : tensor<4x100xf16>, !ktdp.access_tile<4x100xindex>
    return
  }
}
