// A 256x512 f16 matrix transposed by access order, grid [4, 8]: tile
// (a, b) loads the 64x64 block X[64*a : 64*a + 64, 64*b : 64*b + 64]
// through an access tile ordered (d1, d0) and stores it, the 64x64
// transpose, as Y[64*b : 64*b + 64, 64*a : 64*a + 64]. Expected: Y = transpose(X),
// exactly.
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#src = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#dst = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#keep = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @transpose(%X: index, %Y: index) attributes {grid = [4, 8]} {
    %cr = arith.constant 64 : index
    %cc = arith.constant 64 : index
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
    } : memref<256x512xf16> -> !ktdp.access_tile<64x64xindex>
    %blk = ktdp.load %x_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %r0] {
        access_tile_set = #dst, access_tile_order = #keep
    } : memref<512x256xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %blk, %y_at : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    return
  }
}
