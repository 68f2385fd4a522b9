// A row loop over 8 dense rows of 310 f16 (not whole vectors anywhere) on
// one compute tile: iteration r + 1 moves the row right after iteration
// r's, so the loop is absorbed and the group is one flat run of 2480
// elements, ending in a partial vector where the data ends.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of %a, %b (8x310
// inputs) and %o (8x310 output).
// Expected result (each operation rounded to f16):
//   o = abs(a) - b

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 309 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 309 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @row_loop(%a: index, %b: index, %o: index) attributes {grid = [1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %a_view = ktdp.construct_memory_view %a, sizes: [8, 310], strides: [310, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<8x310xf16>
    %b_view = ktdp.construct_memory_view %b, sizes: [8, 310], strides: [310, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<8x310xf16>
    %o_view = ktdp.construct_memory_view %o, sizes: [8, 310], strides: [310, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<8x310xf16>
    scf.for %r = %t to %c8 step %c1 {
      %a_tile = ktdp.construct_access_tile %a_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<8x310xf16> -> !ktdp.access_tile<1x310xindex>
      %b_tile = ktdp.construct_access_tile %b_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<8x310xf16> -> !ktdp.access_tile<1x310xindex>
      %av = ktdp.load %a_tile : !ktdp.access_tile<1x310xindex> -> tensor<1x310xf16>
      %bv = ktdp.load %b_tile : !ktdp.access_tile<1x310xindex> -> tensor<1x310xf16>
      %abs = math.absf %av : tensor<1x310xf16>
      %ov = arith.subf %abs, %bv : tensor<1x310xf16>
      %o_tile = ktdp.construct_access_tile %o_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<8x310xf16> -> !ktdp.access_tile<1x310xindex>
      ktdp.store %ov, %o_tile : tensor<1x310xf16>, !ktdp.access_tile<1x310xindex>
    }
    return
  }
}
