// Column maxima of 16x680 f16 in 4 column blocks of 170 (340 bytes: the
// blocks start 0, 84, 40 and 124 bytes into spyre's 128-byte DMA units).
#box_full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 679 >= 0)>
#box_c = affine_set<(d0) : (d0 >= 0, -d0 + 679 >= 0)>
#box_t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 169 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#box_w = affine_set<(d0) : (d0 >= 0, -d0 + 169 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @k(%in0: index, %red: index) attributes {grid = [4, 1]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %cw = arith.constant 170 : index
    %col_first = arith.muli %gx, %cw : index
    %in0_view = ktdp.construct_memory_view %in0, sizes: [16, 680], strides: [680, 1] {
        coordinate_set = #box_full, memory_space = #ktdp.memory_space<global>
    } : memref<16x680xf16>
    %red_view = ktdp.construct_memory_view %red, sizes: [680], strides: [1] {
        coordinate_set = #box_c, memory_space = #ktdp.memory_space<global>
    } : memref<680xf16>
    %tile0 = ktdp.construct_access_tile %in0_view[%c0, %col_first] {
        access_tile_set = #box_t, access_tile_order = #id2
    } : memref<16x680xf16> -> !ktdp.access_tile<16x170xindex>
    %x = ktdp.load %tile0 : !ktdp.access_tile<16x170xindex> -> tensor<16x170xf16>
    %inf = arith.constant 0xFC00 : f16
    %e = tensor.empty() : tensor<170xf16>
    %acc = linalg.fill ins(%inf : f16) outs(%e : tensor<170xf16>) -> tensor<170xf16>
    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<16x170xf16>) outs(%acc : tensor<170xf16>) dimensions = [0]
    %rt = ktdp.construct_access_tile %red_view[%col_first] {
        access_tile_set = #box_w, access_tile_order = #id1
    } : memref<680xf16> -> !ktdp.access_tile<170xindex>
    ktdp.store %r, %rt : tensor<170xf16>, !ktdp.access_tile<170xindex>
    return
  }
}
