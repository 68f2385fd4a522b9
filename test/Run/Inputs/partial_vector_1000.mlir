// A 1-D f16 kernel of 1000 elements on one compute tile: 1000 is not a
// whole number of vectors on any shipped description (sample and deep: 32
// lanes, spyre: 64), so the last sub-core share ends in a partial vector.
// It ends where the tensors end: the whole last vector is computed, and
// its store is widened to whole DMA granules that land in the symbols'
// alignment padding, which no view covers.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of 1000-element f16
// vectors %x, %y (inputs) and %s, %p (outputs).
// Expected result (each operation rounded to f16):
//   s[i] = x[i] + y[i]
//   p[i] = x[i] * 0.5 - y[i]

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @partial_vector(%x: index, %y: index, %s: index, %p: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%c0] {
        access_tile_set = #whole, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%c0] {
        access_tile_set = #whole, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    %a = ktdp.load %x_at : !ktdp.access_tile<1000xindex> -> tensor<1000xf16>
    %b = ktdp.load %y_at : !ktdp.access_tile<1000xindex> -> tensor<1000xf16>

    %half = arith.constant dense<0.5> : tensor<1000xf16>
    %r_s = arith.addf %a, %b : tensor<1000xf16>
    %h = arith.mulf %a, %half : tensor<1000xf16>
    %r_p = arith.subf %h, %b : tensor<1000xf16>

    %s_mem = ktdp.construct_memory_view %s, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %p_mem = ktdp.construct_memory_view %p, sizes: [1000], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<1000xf16>
    %s_at = ktdp.construct_access_tile %s_mem[%c0] {
        access_tile_set = #whole, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    %p_at = ktdp.construct_access_tile %p_mem[%c0] {
        access_tile_set = #whole, access_tile_order = #in_order
    } : memref<1000xf16> -> !ktdp.access_tile<1000xindex>
    ktdp.store %r_s, %s_at : tensor<1000xf16>, !ktdp.access_tile<1000xindex>
    ktdp.store %r_p, %p_at : tensor<1000xf16>, !ktdp.access_tile<1000xindex>
    return
  }
}
