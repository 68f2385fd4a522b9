// Example 15 at a size where tiles roll into loops: one logical 2048x128
// f16 matrix in two buffers (rows 0..1023 in %top, 1024..2047 in
// %bottom); grid [2], tile t reads rows [768t, 768t + 768) and stores
// twice them to %win: tile 1's rows 768..1023 are in %top, 1024..1535 in
// %bottom, so its tiles before the boundary and after it each roll.

#top_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bottom_rows = affine_set<(d0, d1) : (d0 - 1024 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#win_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1535 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#strip = affine_set<(d0, d1) : (d0 >= 0, -d0 + 767 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @rows_double(%top: index, %bottom: index, %win: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c768 = arith.constant 768 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c768 : index
    %top_mem = ktdp.construct_memory_view %top, sizes: [1024, 128], strides: [128, 1] {
        coordinate_set = #top_rows, memory_space = #ktdp.memory_space<global>
    } : memref<1024x128xf16>
    %bottom_mem = ktdp.construct_memory_view %bottom, sizes: [1024, 128], strides: [128, 1] {
        coordinate_set = #bottom_rows, memory_space = #ktdp.memory_space<global>
    } : memref<1024x128xf16>
    %whole = ktdp.construct_distributed_memory_view
        (%top_mem, %bottom_mem : memref<1024x128xf16>, memref<1024x128xf16>)
        : memref<2048x128xf16>
    %x_at = ktdp.construct_access_tile %whole[%r0, %c0] {
        access_tile_set = #strip, access_tile_order = #lex
    } : memref<2048x128xf16> -> !ktdp.access_tile<768x128xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<768x128xindex> -> tensor<768x128xf16>
    %twice = arith.addf %xv, %xv : tensor<768x128xf16>
    %win_mem = ktdp.construct_memory_view %win, sizes: [1536, 128], strides: [128, 1] {
        coordinate_set = #win_all, memory_space = #ktdp.memory_space<global>
    } : memref<1536x128xf16>
    %w_at = ktdp.construct_access_tile %win_mem[%r0, %c0] {
        access_tile_set = #strip, access_tile_order = #lex
    } : memref<1536x128xf16> -> !ktdp.access_tile<768x128xindex>
    ktdp.store %twice, %w_at : tensor<768x128xf16>, !ktdp.access_tile<768x128xindex>
    return
  }
}
