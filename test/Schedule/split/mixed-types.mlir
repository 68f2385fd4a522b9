// A group whose buffers hold f16 and f32 is lowered in steps of as many
// elements as fill one compute vector's bytes with the narrower type (on
// sample: 16 f32 lanes = 64 bytes = 32 elements), so the innermost
// dimension is split in whole steps: one row of 160 is 5 steps, 3 + 2.
// RUN: ktflow-opt %s --split-input-file %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s
// CHECK-LABEL: ktsched.kernel @mixed_row
// CHECK: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 96, 64>}, "heuristic">
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 159 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mixed_row(%x: index, %y: index, %z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf32>
  %zm = ktdp.construct_memory_view %z, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf32>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf16> -> !ktdp.access_tile<1x160xindex>
  %yt = ktdp.construct_access_tile %ym[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf32> -> !ktdp.access_tile<1x160xindex>
  %zt = ktdp.construct_access_tile %zm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf32> -> !ktdp.access_tile<1x160xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<1x160xindex> -> tensor<1x160xf16>
  %yv = ktdp.load %yt : !ktdp.access_tile<1x160xindex> -> tensor<1x160xf32>
  %xw = arith.extf %xv : tensor<1x160xf16> to tensor<1x160xf32>
  %s = arith.addf %xw, %yv : tensor<1x160xf32>
  ktdp.store %s, %zt : tensor<1x160xf32>, !ktdp.access_tile<1x160xindex>
  return
}

// -----

// Negative twin: the same row with only f32 buffers moves 16-element
// steps: 10 of them, 5 + 5.
// CHECK-LABEL: ktsched.kernel @f32_row
// CHECK: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 80, 80>}, "heuristic">
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 159 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f32_row(%x: index, %y: index, %z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf32>
  %ym = ktdp.construct_memory_view %y, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf32>
  %zm = ktdp.construct_memory_view %z, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf32>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf32> -> !ktdp.access_tile<1x160xindex>
  %yt = ktdp.construct_access_tile %ym[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf32> -> !ktdp.access_tile<1x160xindex>
  %zt = ktdp.construct_access_tile %zm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf32> -> !ktdp.access_tile<1x160xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<1x160xindex> -> tensor<1x160xf32>
  %yv = ktdp.load %yt : !ktdp.access_tile<1x160xindex> -> tensor<1x160xf32>
  %s = arith.addf %xv, %yv : tensor<1x160xf32>
  ktdp.store %s, %zt : tensor<1x160xf32>, !ktdp.access_tile<1x160xindex>
  return
}
