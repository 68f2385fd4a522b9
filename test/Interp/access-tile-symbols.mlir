// An access tile whose set has a symbol bound with symbols(...): the tile
// covers [0, n) of an 8-element view, and a dynamic tile type follows it.
// The view's coordinate_set [0, 5) masks the points beyond 5.
// RUN: ktflow interp %s --func dynamic_shape --arg n=6 --print out --print masked | FileCheck %s
// RUN: not ktflow interp %s --func static_shape --arg n=6 2>&1 | FileCheck %s --check-prefix=SHAPE

// CHECK-LABEL: out f32[8]:
// CHECK-NEXT:    1 1 1 1 1 -1 -1 -1
// CHECK-LABEL: masked f32[8]:
// CHECK-NEXT:    1 1 1 1 1 0 0 0

// SHAPE: access-tile-symbols.mlir:{{[0-9]+}}:{{[0-9]+}}: error: access tile shape [6] {{.*}} does not match the declared type's shape [4] [tile 0

#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#eight = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#five = affine_set<(d0) : (d0 >= 0, -d0 + 4 >= 0)>
#id = affine_map<(d0) -> (d0)>

func.func @dynamic_shape(%out: index, %masked: index, %n: index) {
  %c0 = arith.constant 0 : index
  %all = ktdp.construct_memory_view %out, sizes: [8], strides: [1] {
      coordinate_set = #eight, memory_space = #ktdp.memory_space<global>
  } : memref<8xf32>
  %all_at = ktdp.construct_access_tile %all[%c0] {
      access_tile_set = #eight, access_tile_order = #id
  } : memref<8xf32> -> !ktdp.access_tile<8xindex>
  %m1 = arith.constant dense<-1.0> : tensor<8xf32>
  ktdp.store %m1, %all_at : tensor<8xf32>, !ktdp.access_tile<8xindex>
  %part = ktdp.construct_memory_view %out, sizes: [8], strides: [1] {
      coordinate_set = #five, memory_space = #ktdp.memory_space<global>
  } : memref<8xf32>
  %at = ktdp.construct_access_tile %part[%c0] symbols(%n) {
      access_tile_set = #first_n, access_tile_order = #id
  } : memref<8xf32> -> !ktdp.access_tile<?xindex>
  %one = arith.constant 1.0 : f32
  %v = tensor.splat %one[%n] : tensor<?xf32>
  ktdp.store %v, %at : tensor<?xf32>, !ktdp.access_tile<?xindex>
  // Loading 8 points through the [0, 5) view reads zeros beyond 5.
  %part_at = ktdp.construct_access_tile %part[%c0] {
      access_tile_set = #eight, access_tile_order = #id
  } : memref<8xf32> -> !ktdp.access_tile<8xindex>
  %back = ktdp.load %part_at : !ktdp.access_tile<8xindex> -> tensor<8xf32>
  %mv = ktdp.construct_memory_view %masked, sizes: [8], strides: [1] {
      coordinate_set = #eight, memory_space = #ktdp.memory_space<global>
  } : memref<8xf32>
  %mv_at = ktdp.construct_access_tile %mv[%c0] {
      access_tile_set = #eight, access_tile_order = #id
  } : memref<8xf32> -> !ktdp.access_tile<8xindex>
  ktdp.store %back, %mv_at : tensor<8xf32>, !ktdp.access_tile<8xindex>
  return
}

func.func @static_shape(%out: index, %n: index) {
  %c0 = arith.constant 0 : index
  %all = ktdp.construct_memory_view %out, sizes: [8], strides: [1] {
      coordinate_set = #eight, memory_space = #ktdp.memory_space<global>
  } : memref<8xf32>
  %at = ktdp.construct_access_tile %all[%c0] symbols(%n) {
      access_tile_set = #first_n, access_tile_order = #id
  } : memref<8xf32> -> !ktdp.access_tile<4xindex>
  return
}
