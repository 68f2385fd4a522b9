func.func @k(%a: index) {
  %t = ktdp.get_compute_tile_id : index
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {
