// Row sums of one f32 row of 262144 elements: a reduction whose row alone
// (1 MiB) exceeds every scratchpad budget of sample, spyre and deep.
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 262143 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @wide_reduce(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [1, 262144], strides: [262144, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x262144xf32>
  %ym = ktdp.construct_memory_view %y, sizes: [1], strides: [1] {coordinate_set = #one, memory_space = #ktdp.memory_space<global>} : memref<1xf32>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x262144xf32> -> !ktdp.access_tile<1x262144xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf32> -> !ktdp.access_tile<1xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<1x262144xindex> -> tensor<1x262144xf32>
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %s = linalg.reduce { arith.addf } ins(%xv : tensor<1x262144xf32>) outs(%z : tensor<1xf32>) dimensions = [1]
  ktdp.store %s, %yt : tensor<1xf32>, !ktdp.access_tile<1xindex>
  return
}
