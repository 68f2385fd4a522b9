// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// Casts are vops of class "cast"; the group's element type is the widest
// one in the body (f32 here), which later fixes the vector width.
// RUN: ktflow-opt %s %to_groups | FileCheck %s
// CHECK: ktsched.group @g0 attributes {element_type = f32
// CHECK: %[[WIDE:.*]] = ktsched.vop "cast"(%{{.*}}) : (f16) -> f32
// CHECK: %[[EXP:.*]] = ktsched.vop "exp"(%[[WIDE]]) : (f32) -> f32
// CHECK: ktsched.vop "cast"(%[[EXP]]) : (f32) -> f16
#set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @widen(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [128], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %w = arith.extf %xv : tensor<128xf16> to tensor<128xf32>
  %e = math.exp %w : tensor<128xf32>
  %n = arith.truncf %e : tensor<128xf32> to tensor<128xf16>
  ktdp.store %n, %yt : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
