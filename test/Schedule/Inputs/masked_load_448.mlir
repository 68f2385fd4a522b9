// masked_vector_448.mlir with %b's view ending at 400 elements: grid tile
// 1 loads 144 valid elements of %b (KTIR loads zeros past them) but stores
// 192 of %c, which the sums of %a and those zeros fill.
#whole = affine_set<(d0) : (d0 >= 0, -d0 + 447 >= 0)>
#short = affine_set<(d0) : (d0 >= 0, -d0 + 399 >= 0)>
#slice = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#in_order = affine_map<(d0) -> (d0)>
module {
  func.func @masked_add(%a: index, %b: index, %c: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %first = arith.muli %t, %c256 : index
    %am = ktdp.construct_memory_view %a, sizes: [448], strides: [1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<448xf16>
    %bm = ktdp.construct_memory_view %b, sizes: [400], strides: [1] {coordinate_set = #short, memory_space = #ktdp.memory_space<global>} : memref<400xf16>
    %cm = ktdp.construct_memory_view %c, sizes: [448], strides: [1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<448xf16>
    %at = ktdp.construct_access_tile %am[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<448xf16> -> !ktdp.access_tile<256xindex>
    %bt = ktdp.construct_access_tile %bm[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<400xf16> -> !ktdp.access_tile<256xindex>
    %ct = ktdp.construct_access_tile %cm[%first] {access_tile_set = #slice, access_tile_order = #in_order} : memref<448xf16> -> !ktdp.access_tile<256xindex>
    %av = ktdp.load %at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %bv = ktdp.load %bt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %s = arith.addf %av, %bv : tensor<256xf16>
    ktdp.store %s, %ct : tensor<256xf16>, !ktdp.access_tile<256xindex>
    return
  }
}
