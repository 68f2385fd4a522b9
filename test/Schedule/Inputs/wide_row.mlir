// Shared by the tile-selection tests: two rows of 65536 f16; y = |x|.
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 65535 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @wide_row(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [2, 65536], strides: [65536, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x65536xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [2, 65536], strides: [65536, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<2x65536xf16>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<2x65536xf16> -> !ktdp.access_tile<2x65536xindex>
  %yt = ktdp.construct_access_tile %ym[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<2x65536xf16> -> !ktdp.access_tile<2x65536xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<2x65536xindex> -> tensor<2x65536xf16>
  %a = math.absf %xv : tensor<2x65536xf16>
  ktdp.store %a, %yt : tensor<2x65536xf16>, !ktdp.access_tile<2x65536xindex>
  return
}
