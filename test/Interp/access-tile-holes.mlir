// A triangular access_tile_set leaves holes in its 4x4 tile: loading through
// it gives 0 at the holes, and storing through it writes only the points.
// RUN: ktflow interp %s --print loaded --print stored | FileCheck %s

// CHECK-LABEL: loaded f32[4, 4]:
// CHECK-NEXT:    0 0 0 0
// CHECK-NEXT:    4 5 0 0
// CHECK-NEXT:    8 9 10 0
// CHECK-NEXT:    12 13 14 15
// CHECK-LABEL: stored f32[4, 4]:
// CHECK-NEXT:    7 -1 -1 -1
// CHECK-NEXT:    7 7 -1 -1
// CHECK-NEXT:    7 7 7 -1
// CHECK-NEXT:    7 7 7 7

#full = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#tri = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @holes(%src: index, %loaded: index, %stored: index) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4x4xf32>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %r = arith.muli %i, %c4 : index
    %l = arith.addi %r, %j : index
    %li = arith.index_cast %l : index to i32
    %f = arith.sitofp %li : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x4xf32>
  %src_v = ktdp.construct_memory_view %src, sizes: [4, 4], strides: [4, 1] {
      coordinate_set = #full, memory_space = #ktdp.memory_space<global>
  } : memref<4x4xf32>
  %src_full = ktdp.construct_access_tile %src_v[%c0, %c0] {
      access_tile_set = #full, access_tile_order = #lex
  } : memref<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  ktdp.store %iota, %src_full : tensor<4x4xf32>, !ktdp.access_tile<4x4xindex>
  %src_tri = ktdp.construct_access_tile %src_v[%c0, %c0] {
      access_tile_set = #tri, access_tile_order = #lex
  } : memref<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  %t = ktdp.load %src_tri : !ktdp.access_tile<4x4xindex> -> tensor<4x4xf32>

  %l_v = ktdp.construct_memory_view %loaded, sizes: [4, 4], strides: [4, 1] {
      coordinate_set = #full, memory_space = #ktdp.memory_space<global>
  } : memref<4x4xf32>
  %l_full = ktdp.construct_access_tile %l_v[%c0, %c0] {
      access_tile_set = #full, access_tile_order = #lex
  } : memref<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  ktdp.store %t, %l_full : tensor<4x4xf32>, !ktdp.access_tile<4x4xindex>

  %s_v = ktdp.construct_memory_view %stored, sizes: [4, 4], strides: [4, 1] {
      coordinate_set = #full, memory_space = #ktdp.memory_space<global>
  } : memref<4x4xf32>
  %s_full = ktdp.construct_access_tile %s_v[%c0, %c0] {
      access_tile_set = #full, access_tile_order = #lex
  } : memref<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  %m1 = arith.constant dense<-1.0> : tensor<4x4xf32>
  ktdp.store %m1, %s_full : tensor<4x4xf32>, !ktdp.access_tile<4x4xindex>
  %s_tri = ktdp.construct_access_tile %s_v[%c0, %c0] {
      access_tile_set = #tri, access_tile_order = #lex
  } : memref<4x4xf32> -> !ktdp.access_tile<4x4xindex>
  %seven = arith.constant dense<7.0> : tensor<4x4xf32>
  ktdp.store %seven, %s_tri : tensor<4x4xf32>, !ktdp.access_tile<4x4xindex>
  return
}
