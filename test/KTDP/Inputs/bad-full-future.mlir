func.func @f(%p: tensor<1xf16>) {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - g == 0)>
         -> !ktdp.tile_future<(f16), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1xf16>
  }
  return
}
// -----
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>>) {
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
     : !ktdp.tile_futurx<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0)>> -> tensor<1xf16>
  return
}
