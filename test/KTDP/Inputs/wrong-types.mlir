// A load whose operand is a memref, not an access tile.
func.func @k(%a: index) {
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16xf16>
  %x = ktdp.load %v : memref<16xf16> -> tensor<16xf16>
  return
}
