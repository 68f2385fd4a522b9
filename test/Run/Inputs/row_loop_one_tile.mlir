// A row loop on one compute tile, `for r = tile_id to 200 step 1` (the
// cyclic form with one tile), storing one 64-element f16 row per
// iteration: 128 bytes, whole granules on every shipped description. The
// iterations are contiguous rows, so they become one block of 200 rows
// (`loop_blocks`) that tile selection sizes, rather than one tile (and one
// DMA descriptor per direction) per row.
//
// Grid: [1]. Arguments: base addresses (f16 elements) of %x and %y
// (200x64). Expected result (each operation rounded to f16): y = |x|.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @row_loop_one_tile(%x: index, %y: index) attributes {grid = [1]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c200 = arith.constant 200 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [200, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<200x64xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [200, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<200x64xf16>
    scf.for %r = %t to %c200 step %c1 {
      %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<200x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xv = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %a = math.absf %xv : tensor<1x64xf16>
      %y_tile = ktdp.construct_access_tile %y_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<200x64xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %a, %y_tile : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    return
  }
}
