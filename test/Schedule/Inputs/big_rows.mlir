// y = exp(x) - x on an f16[2048, 1024] block per grid tile:
// 4 MiB in, 4 MiB out per tile, far more than any scratchpad, so tile
// selection must shrink the tile. Grid [2]; the 2048 rows split evenly
// over two sub-cores.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2047 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @big_rows(%x: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2048 = arith.constant 2048 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c2048 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [4096, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096x1024xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [4096, 1024], strides: [1024, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4096x1024xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<4096x1024xf16> -> !ktdp.access_tile<2048x1024xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<4096x1024xf16> -> !ktdp.access_tile<2048x1024xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<2048x1024xindex> -> tensor<2048x1024xf16>
    %e = math.exp %xv : tensor<2048x1024xf16>
    %d = arith.subf %e, %xv : tensor<2048x1024xf16>
    ktdp.store %d, %y_at : tensor<2048x1024xf16>, !ktdp.access_tile<2048x1024xindex>
    return
  }
}
