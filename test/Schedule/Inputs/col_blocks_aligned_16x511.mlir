// Column maxima of 16x511 f16 in 4 column blocks of 128 (rows 1022 bytes
// apart, no DMA strides them; every block starts on a 128-byte unit).
#box_full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 510 >= 0)>
#box_c = affine_set<(d0) : (d0 >= 0, -d0 + 510 >= 0)>
#box_t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#box_w = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
module {
  func.func @k(%in0: index, %red: index) attributes {grid = [4, 1]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c0 = arith.constant 0 : index
    %cw = arith.constant 128 : index
    %col_first = arith.muli %gx, %cw : index
    %in0_view = ktdp.construct_memory_view %in0, sizes: [16, 511], strides: [511, 1] {
        coordinate_set = #box_full, memory_space = #ktdp.memory_space<global>
    } : memref<16x511xf16>
    %red_view = ktdp.construct_memory_view %red, sizes: [511], strides: [1] {
        coordinate_set = #box_c, memory_space = #ktdp.memory_space<global>
    } : memref<511xf16>
    %tile0 = ktdp.construct_access_tile %in0_view[%c0, %col_first] {
        access_tile_set = #box_t, access_tile_order = #id2
    } : memref<16x511xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %tile0 : !ktdp.access_tile<16x128xindex> -> tensor<16x128xf16>
    %inf = arith.constant 0xFC00 : f16
    %e = tensor.empty() : tensor<128xf16>
    %acc = linalg.fill ins(%inf : f16) outs(%e : tensor<128xf16>) -> tensor<128xf16>
    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<16x128xf16>) outs(%acc : tensor<128xf16>) dimensions = [0]
    %rt = ktdp.construct_access_tile %red_view[%col_first] {
        access_tile_set = #box_w, access_tile_order = #id1
    } : memref<511xf16> -> !ktdp.access_tile<128xindex>
    ktdp.store %r, %rt : tensor<128xf16>, !ktdp.access_tile<128xindex>
    return
  }
}
