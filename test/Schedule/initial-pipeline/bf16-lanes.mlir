// The compute stage is bound to the first vector unit with lanes for the
// group's element type. Of the shipped descriptions only deep's @vpu has
// bf16 lanes: deep binds it at 32 lanes. Negative twins: sample's @vec and
// spyre's @sfp have none (spyre's matrix unit @pt is never a candidate for
// a vector body), so both reject the group (located at its store), naming
// the unit and the type. deep has no description-made rejection to twin: its @vpu
// has lanes for every element type the input check admits (f16, bf16, f32)
// and every op class; its other decision, 16 f32 lanes against 32 for f16
// and bf16, is in vector-width.mlir.
// RUN: ktflow-opt %s %to_groups -ktsched-initial-pipeline=arch=deep | FileCheck %s --check-prefix=DEEP
// RUN: not ktflow-opt %s %to_groups -ktsched-initial-pipeline=arch=sample 2>&1 | FileCheck %s --check-prefix=NONE -DDEVICE=sample -DUNIT=vec
// RUN: not ktflow-opt %s %to_groups -ktsched-initial-pipeline=arch=spyre 2>&1 | FileCheck %s --check-prefix=NONE -DDEVICE=spyre -DUNIT=sfp
// DEEP: ktsched.group @g0 attributes {element_type = bf16
// DEEP: ktsched.stage "compute"{{.*}}unit = #ktsched.decision<"vpu", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">
// NONE: bf16-lanes.mlir:[[@LINE+11]]:3: error: no compute unit of @[[DEVICE]] can run this group (@[[UNIT]] has no lanes for bf16)
#set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @neg_bf16(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x128xbf16>
  %ym = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<8x128xbf16>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<8x128xbf16> -> !ktdp.access_tile<8x128xindex>
  %yt = ktdp.construct_access_tile %ym[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<8x128xbf16> -> !ktdp.access_tile<8x128xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xbf16>
  %n = arith.negf %xv : tensor<8x128xbf16>
  ktdp.store %n, %yt : tensor<8x128xbf16>, !ktdp.access_tile<8x128xindex>
  return
}
