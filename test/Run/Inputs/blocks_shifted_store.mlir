// Negative twin of partial_vector_2x500.mlir as re-divided by
// ktsched-align-blocks: the same sums over two compute tiles of 500, also
// stored one element further on into a view of 1001 (tile t writes q at
// [500t + 1, 500t + 501)). The two stores cover different rows of their
// views, so giving a grid tile a block of other elements would move s and
// q differently: the work is not re-divided, and grid tile 0's 1000-byte
// run of s ends inside a DMA granule that grid tile 1 writes too (1000
// bytes are no whole number of 64, 128 or 32): not lowered.
//
// Grid: [2]. Tile t owns elements [500*t, 500*t + 500) of %x, %y, %s.
// Expected result: s[i] = x[i] + y[i], q[i + 1] = x[i] + y[i].

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#shifted = affine_set<(d0) : (d0 >= 0, -d0 + 1000 >= 0)>
#half = affine_set<(d0) : (d0 >= 0, -d0 + 499 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @blocks_shifted_store(%x: index, %y: index, %s: index, %q: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c1 = arith.constant 1 : index
    %c500 = arith.constant 500 : index
    %first = arith.muli %t, %c500 : index
    %next = arith.addi %first, %c1 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<500xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<500xindex>
    %a = ktdp.load %x_at : !ktdp.access_tile<500xindex> -> tensor<500xf16>
    %b = ktdp.load %y_at : !ktdp.access_tile<500xindex> -> tensor<500xf16>
    %r = arith.addf %a, %b : tensor<500xf16>
    %s_mem = ktdp.construct_memory_view %s, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %s_at = ktdp.construct_access_tile %s_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<500xindex>
    ktdp.store %r, %s_at : tensor<500xf16>, !ktdp.access_tile<500xindex>
    %q_mem = ktdp.construct_memory_view %q, sizes: [1001], strides: [1] {
        coordinate_set = #shifted, memory_space = #ktdp.memory_space<global>
    } : memref<1001xf16>
    %q_at = ktdp.construct_access_tile %q_mem[%next] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<1001xf16> -> !ktdp.access_tile<500xindex>
    ktdp.store %r, %q_at : tensor<500xf16>, !ktdp.access_tile<500xindex>
    return
  }
}
