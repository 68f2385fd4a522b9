// 744 f32 on two compute tiles of 496: grid tile 1 is partly masked (248
// valid elements, not whole vectors). It is lowered over its valid extent,
// its partial last vector stored into the symbol's padding; moving the
// whole masked tile instead would write 992 bytes past the 2976 of data.
//
// Grid: [2]. Tile t owns elements [496*t, 496*t + 496) of %x, %y, %s.
// Expected result: s[i] = x[i] + y[i].

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 743 >= 0)>
#half = affine_set<(d0) : (d0 >= 0, -d0 + 495 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @masked_tail(%x: index, %y: index, %s: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c496 = arith.constant 496 : index
    %first = arith.muli %t, %c496 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [744], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<744xf32>
    %y_mem = ktdp.construct_memory_view %y, sizes: [744], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<744xf32>
    %x_at = ktdp.construct_access_tile %x_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<744xf32> -> !ktdp.access_tile<496xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<744xf32> -> !ktdp.access_tile<496xindex>
    %a = ktdp.load %x_at : !ktdp.access_tile<496xindex> -> tensor<496xf32>
    %b = ktdp.load %y_at : !ktdp.access_tile<496xindex> -> tensor<496xf32>
    %r = arith.addf %a, %b : tensor<496xf32>
    %s_mem = ktdp.construct_memory_view %s, sizes: [744], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<744xf32>
    %s_at = ktdp.construct_access_tile %s_mem[%first] {
        access_tile_set = #half, access_tile_order = #in_order
    } : memref<744xf32> -> !ktdp.access_tile<496xindex>
    ktdp.store %r, %s_at : tensor<496xf32>, !ktdp.access_tile<496xindex>
    return
  }
}
