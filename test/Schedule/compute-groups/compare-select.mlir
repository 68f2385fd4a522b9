// A compare becomes a "cmp" vop with its lane-wise predicate, whose mask is
// in the compared type (f16, not i1), so it lives in a vector register;
// select reads it as its first operand; fma is one vop of three operands.
// RUN: ktflow-opt %s %to_groups | FileCheck %s
// CHECK: %[[M:.*]] = ktsched.vop "cmp"(%[[X:.*]], %[[Y:.*]]) {predicate = "gt"} : (f16, f16) -> f16
// CHECK: %[[S:.*]] = ktsched.vop "select"(%[[M]], %[[X]], %[[Y]]) : (f16, f16, f16) -> f16
// CHECK: ktsched.vop "fma"(%[[S]], %[[X]], %[[Y]]) : (f16, f16, f16) -> f16
#set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @clamp(%x: index, %y: index, %z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %zm = ktdp.construct_memory_view %z, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %zt = ktdp.construct_access_tile %zm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %yv = ktdp.load %yt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %m = arith.cmpf ogt, %xv, %yv : tensor<128xf16>
  %s = arith.select %m, %xv, %yv : tensor<128xi1>, tensor<128xf16>
  %f = math.fma %s, %xv, %yv : tensor<128xf16>
  ktdp.store %f, %zt : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
