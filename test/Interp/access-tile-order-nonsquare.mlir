// A transposing order on a non-square set: a 2x3 set with order
// (d0, d1) -> (d1, d0) gives a 3x2 tile holding the transposed block; a
// tensor base is gathered the same way.
// RUN: ktflow interp %s --print out --print gathered | FileCheck %s

// CHECK-LABEL: out f32[3, 2]:
// CHECK-NEXT:    0 3
// CHECK-NEXT:    1 4
// CHECK-NEXT:    2 5
// CHECK-LABEL: gathered f32[3, 2]:
// CHECK-NEXT:    0 3
// CHECK-NEXT:    1 4
// CHECK-NEXT:    2 5

#s23 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2 >= 0)>
#s32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @transpose(%src: index, %out: index, %gathered: index) {
  %c0 = arith.constant 0 : index
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %src_v = ktdp.construct_memory_view %src, sizes: [2, 3], strides: [3, 1] {
      coordinate_set = #s23, memory_space = #ktdp.memory_space<global>
  } : memref<2x3xf32>
  %src_at = ktdp.construct_access_tile %src_v[%c0, %c0] {
      access_tile_set = #s23, access_tile_order = #lex
  } : memref<2x3xf32> -> !ktdp.access_tile<2x3xindex>
  ktdp.store %data, %src_at : tensor<2x3xf32>, !ktdp.access_tile<2x3xindex>
  %t_at = ktdp.construct_access_tile %src_v[%c0, %c0] {
      access_tile_set = #s23, access_tile_order = #swap
  } : memref<2x3xf32> -> !ktdp.access_tile<3x2xindex>
  %t = ktdp.load %t_at : !ktdp.access_tile<3x2xindex> -> tensor<3x2xf32>
  %out_v = ktdp.construct_memory_view %out, sizes: [3, 2], strides: [2, 1] {
      coordinate_set = #s32, memory_space = #ktdp.memory_space<global>
  } : memref<3x2xf32>
  %out_at = ktdp.construct_access_tile %out_v[%c0, %c0] {
      access_tile_set = #s32, access_tile_order = #lex
  } : memref<3x2xf32> -> !ktdp.access_tile<3x2xindex>
  ktdp.store %t, %out_at : tensor<3x2xf32>, !ktdp.access_tile<3x2xindex>

  %g_at = ktdp.construct_access_tile %data[%c0, %c0] {
      access_tile_set = #s23, access_tile_order = #swap
  } : tensor<2x3xf32> -> !ktdp.access_tile<3x2xindex>
  %g = ktdp.load %g_at : !ktdp.access_tile<3x2xindex> -> tensor<3x2xf32>
  %gv = ktdp.construct_memory_view %gathered, sizes: [3, 2], strides: [2, 1] {
      coordinate_set = #s32, memory_space = #ktdp.memory_space<global>
  } : memref<3x2xf32>
  %gv_at = ktdp.construct_access_tile %gv[%c0, %c0] {
      access_tile_set = #s32, access_tile_order = #lex
  } : memref<3x2xf32> -> !ktdp.access_tile<3x2xindex>
  ktdp.store %g, %gv_at : tensor<3x2xf32>, !ktdp.access_tile<3x2xindex>
  return
}
