// The same 1000 elements as partial_vector_1000.mlir on two compute tiles
// of 500. As written, grid tile 0's last vector is partial and grid tile
// 1's data follows it in memory, so it must not be written whole; 500 f16
// are not whole DMA granules on any shipped description either (1000 bytes
// against 64, 128 and 32), and the device cannot mask a store. The
// scheduler gives the grid tiles blocks of whole granules instead
// (ktsched-align-blocks; negative twin: blocks_shifted_store.mlir).
//
// Grid: [2]. Tile t owns elements [500*t, 500*t + 500) of %x, %y, %s.
// Expected result: s[i] = x[i] + y[i].

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#half = affine_set<(d0) : (d0 >= 0, -d0 + 499 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @partial_vector_inside(%x: index, %y: index, %s: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c500 = arith.constant 500 : index
    %first = arith.muli %t, %c500 : index
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
    return
  }
}
