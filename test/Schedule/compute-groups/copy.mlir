// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// A stored input passes through the compute unit as an explicit "copy"
// vop; a group may update a buffer in place at the coordinates it reads.
// RUN: ktflow-opt %s %to_groups | FileCheck %s
// CHECK: ^bb0(%[[IN:.*]]: f16):
// CHECK: %[[COPY:.*]] = ktsched.vop "copy"(%[[IN]]) : (f16) -> f16
// CHECK: %[[ONE:.*]] = ktsched.vop "const" {value = 1.000000e+00 : f16}
// CHECK: ktsched.yield %[[COPY]], %[[ONE]]
#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @copy(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %xv, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  %z = arith.constant dense<1.0> : tensor<64xf16>
  ktdp.store %z, %xt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
