// A 48x512 f16 matrix transposed by access order, grid [1, 8]: tile (0, b)
// loads the 48x64 block X[:, 64*b : 64*b + 64] through an access tile ordered
// (d1, d0) and stores its 64x48 transpose as Y[64*b : 64*b + 64, :].
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#y_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#src = affine_set<(d0, d1) : (d0 >= 0, -d0 + 47 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#dst = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#keep = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @transpose(%X: index, %Y: index) attributes {grid = [1, 8]} {
    %cr = arith.constant 48 : index
    %cc = arith.constant 64 : index
    %a, %b = ktdp.get_compute_tile_id : index, index
    %r0 = arith.muli %a, %cr : index
    %c0 = arith.muli %b, %cc : index
    %x_mem = ktdp.construct_memory_view %X, sizes: [48, 512], strides: [512, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<48x512xf16>
    %y_mem = ktdp.construct_memory_view %Y, sizes: [512, 48], strides: [48, 1] {
        coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
    } : memref<512x48xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #src, access_tile_order = #swap
    } : memref<48x512xf16> -> !ktdp.access_tile<64x48xindex>
    %blk = ktdp.load %x_at : !ktdp.access_tile<64x48xindex> -> tensor<64x48xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %r0] {
        access_tile_set = #dst, access_tile_order = #keep
    } : memref<512x48xf16> -> !ktdp.access_tile<64x48xindex>
    ktdp.store %blk, %y_at : tensor<64x48xf16>, !ktdp.access_tile<64x48xindex>
    return
  }
}

