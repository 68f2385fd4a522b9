// Negative twin of contiguous_100x11.mlir: the same matrices on two compute
// tiles of 50 rows. Each grid tile is still one contiguous run (550 f16)
// and is flattened, but grid tile 0's run ends in a partial vector that
// grid tile 1's rows follow in memory, and 1100 bytes are not whole DMA
// granules on any shipped description: the vector can be neither stored
// whole nor masked, so it is not lowered.
//
// Grid: [2]; tile t owns rows [50t, 50t + 50). Arguments: base addresses (f16 elements) of %x (100x11), %s
// (1 element) and %y, %z (100x11 outputs).
// Expected result (each operation rounded to f16):
//   y = x * s[0]
//   z = max(x - 1, -x)

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @contiguous_halves(%x: index, %s: index, %y: index, %z: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c50 = arith.constant 50 : index
    %r0 = arith.muli %t, %c50 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %s_view = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {
        coordinate_set = #one, memory_space = #ktdp.memory_space<global>
    } : memref<1xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [100, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<100x11xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%r0, %c0] {
        access_tile_set = #half, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<50x11xindex>
    %s_tile = ktdp.construct_access_tile %s_view[%c0] {
        access_tile_set = #one, access_tile_order = #id1
    } : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<50x11xindex> -> tensor<50x11xf16>
    %sv = ktdp.load %s_tile : !ktdp.access_tile<1xindex> -> tensor<1xf16>
    %ss = tensor.collapse_shape %sv [] : tensor<1xf16> into tensor<f16>
    %init = tensor.empty() : tensor<50x11xf16>
    %sw = linalg.broadcast ins(%ss : tensor<f16>) outs(%init : tensor<50x11xf16>) dimensions = [0, 1]
    %yv = arith.mulf %xv, %sw : tensor<50x11xf16>
    %ones = arith.constant dense<1.0> : tensor<50x11xf16>
    %xm1 = arith.subf %xv, %ones : tensor<50x11xf16>
    %nx = arith.negf %xv : tensor<50x11xf16>
    %zv = arith.maximumf %xm1, %nx : tensor<50x11xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%r0, %c0] {
        access_tile_set = #half, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<50x11xindex>
    %z_tile = ktdp.construct_access_tile %z_view[%r0, %c0] {
        access_tile_set = #half, access_tile_order = #id2
    } : memref<100x11xf16> -> !ktdp.access_tile<50x11xindex>
    ktdp.store %yv, %y_tile : tensor<50x11xf16>, !ktdp.access_tile<50x11xindex>
    ktdp.store %zv, %z_tile : tensor<50x11xf16>, !ktdp.access_tile<50x11xindex>
    return
  }
}
