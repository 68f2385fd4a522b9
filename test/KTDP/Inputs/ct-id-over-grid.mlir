// Tile 8 does not exist on a [4, 2] grid (8 tiles, ids 0..7).
#row = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
func.func @k(%a: index) attributes {grid = [4, 2]} {
  %ok = ktdp.construct_memory_view %a, sizes: [256], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 7>
  } : memref<256xf16>
  %bad = ktdp.construct_memory_view %a, sizes: [256], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 8>
  } : memref<256xf16>
  return
}
