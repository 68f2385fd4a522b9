// A 1-D add of 448 f16 elements over a grid of 2 tiles of 256: the second
// tile has 192 valid elements (3 vectors of 64 on spyre, 6 of 32 on sample
// and deep), so its class of grid tiles shares them anew.
#whole = affine_set<(d0) : (d0 >= 0, -d0 + 447 >= 0)>
#slice = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#in_order = affine_map<(d0) -> (d0)>
module {
  func.func @masked_add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %first = arith.muli %t, %c256 : index
    %am = ktdp.construct_memory_view %a, sizes: [448], strides: [1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<448xf16>
    %bm = ktdp.construct_memory_view %b, sizes: [448], strides: [1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<448xf16>
    %cm = ktdp.construct_memory_view %c, sizes: [448], strides: [1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<448xf16>
    %at = ktdp.construct_access_tile %am[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<448xf16> -> !ktdp.access_tile<256xindex>
    %bt = ktdp.construct_access_tile %bm[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<448xf16> -> !ktdp.access_tile<256xindex>
    %ct = ktdp.construct_access_tile %cm[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<448xf16> -> !ktdp.access_tile<256xindex>
    %av = ktdp.load %at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %bv = ktdp.load %bt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %s = arith.addf %av, %bv : tensor<256xf16>
    ktdp.store %s, %ct : tensor<256xf16>, !ktdp.access_tile<256xindex>
    return
  }
}
