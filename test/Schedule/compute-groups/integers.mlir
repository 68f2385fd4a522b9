// Integer lane-wise ops become the vops of their float twins' op classes
// (muli -> "mul", maxsi -> "max", cmpi -> "cmp" with its signed predicate,
// a mask in i32), their values i32; a conversion to f32 is a "cast". The
// negative twin (an unsigned compare, rejected by the input check) is
// @unsigned_compare in ../check-input/unsupported.mlir.
// RUN: ktflow-opt %s %to_groups | FileCheck %s
// CHECK: %[[P:.*]] = ktsched.vop "mul"(%[[X:.*]], %[[Y:.*]]) : (i32, i32) -> i32
// CHECK: %[[M:.*]] = ktsched.vop "cmp"(%[[P]], %[[Y]]) {predicate = "ge"} : (i32, i32) -> i32
// CHECK: %[[S:.*]] = ktsched.vop "select"(%[[M]], %[[P]], %[[X]]) : (i32, i32, i32) -> i32
// CHECK: %[[N:.*]] = ktsched.vop "max"(%[[S]], %[[X]]) : (i32, i32) -> i32
// CHECK: ktsched.vop "cast"(%[[N]]) : (i32) -> f32
#set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @int_chain(%x: index, %y: index, %z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xi32>
  %ym = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xi32>
  %zm = ktdp.construct_memory_view %z, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
  %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xi32> -> !ktdp.access_tile<128xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xi32> -> !ktdp.access_tile<128xindex>
  %zt = ktdp.construct_access_tile %zm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf32> -> !ktdp.access_tile<128xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<128xindex> -> tensor<128xi32>
  %yv = ktdp.load %yt : !ktdp.access_tile<128xindex> -> tensor<128xi32>
  %p = arith.muli %xv, %yv : tensor<128xi32>
  %m = arith.cmpi sge, %p, %yv : tensor<128xi32>
  %s = arith.select %m, %p, %xv : tensor<128xi1>, tensor<128xi32>
  %n = arith.maxsi %s, %xv : tensor<128xi32>
  %f = arith.sitofp %n : tensor<128xi32> to tensor<128xf32>
  ktdp.store %f, %zt : tensor<128xf32>, !ktdp.access_tile<128xindex>
  return
}
