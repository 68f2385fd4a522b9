// A 256x512 f16 matrix transposed by access order, grid [1, 4]: tile
// (a, b) loads the 256x128 block X[256*a : 256*a + 256, 128*b : 128*b + 128]
// through an access tile ordered (d1, d0) and stores it, the 128x256
// transpose, as Y[128*b : 128*b + 128, 256*a : 256*a + 256]. Expected: Y = transpose(X),
// exactly.
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#dst = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#keep = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @transpose(%X: index, %Y: index) attributes {grid = [1, 4]} {
    %cr = arith.constant 256 : index
    %cc = arith.constant 128 : index
    %a, %b = ktdp.get_compute_tile_id : index, index
    %r0 = arith.muli %a, %cr : index
    %c0 = arith.muli %b, %cc : index
    %x_mem = ktdp.construct_memory_view %X, sizes: [256, 512], strides: [512, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<256x512xf16>
    %y_mem = ktdp.construct_memory_view %Y, sizes: [512, 256], strides: [256, 1] {
        coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
    } : memref<512x256xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #src, access_tile_order = #swap
    } : memref<256x512xf16> -> !ktdp.access_tile<128x256xindex>
    %blk = ktdp.load %x_at : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %r0] {
        access_tile_set = #dst, access_tile_order = #keep
    } : memref<512x256xf16> -> !ktdp.access_tile<128x256xindex>
    ktdp.store %blk, %y_at : tensor<128x256xf16>, !ktdp.access_tile<128x256xindex>
    return
  }
}
