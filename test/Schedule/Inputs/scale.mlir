// The kernel of docs/schedule.md's pass-by-pass examples: y = |x * s| on
// f16[8, 64], grid [2], tile t owns rows [4t, 4t + 4); s is a scalar
// argument (a splat).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: index, %y: index, %s: f16) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %r0 = arith.muli %t, %c4 : index
  %xm = ktdp.construct_memory_view %x, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %xt = ktdp.construct_access_tile %xm[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %ym[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %sv = tensor.splat %s : tensor<4x64xf16>
  %p = arith.mulf %xv, %sv : tensor<4x64xf16>
  %a = math.absf %p : tensor<4x64xf16>
  ktdp.store %a, %yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
