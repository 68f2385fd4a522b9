// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// Negative twin: values the table accepts but a group cannot express — a
// reduction whose init is loaded rather than constant, a view at a
// constant address instead of a kernel argument.
// RUN: not ktflow-opt %s -split-input-file %to_groups 2>&1 | FileCheck %s
#set2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @loaded_init(%x: index, %i: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [4, 64], strides: [64, 1] {coordinate_set = #set2, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %im = ktdp.construct_memory_view %i, sizes: [4], strides: [1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [4], strides: [1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set2, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %it = ktdp.construct_access_tile %im[%c0] {access_tile_set = #set1, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set1, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %iv = ktdp.load %it : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  // CHECK: [[@LINE+1]]:8: error: reduction init must be a constant (fill, splat or dense)
  %s = linalg.reduce { arith.addf } ins(%xv : tensor<4x64xf16>) outs(%iv : tensor<4xf16>) dimensions = [1]
  ktdp.store %s, %yt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

#set1 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @constant_address() {
  %c0 = arith.constant 0 : index
  %base = arith.constant 4096 : index
  // CHECK: [[@LINE+1]]:9: error: view base must be a kernel argument (a base address): constant addresses are not supported
  %ym = ktdp.construct_memory_view %base, sizes: [4], strides: [1] {coordinate_set = #set1, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set1, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %z = arith.constant dense<0.0> : tensor<4xf16>
  ktdp.store %z, %yt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// -----

#set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @shifted_in_place(%x: index) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %xm = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %lo = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<32xindex>
  %hi = ktdp.construct_access_tile %xm[%c32] {access_tile_set = #set, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<32xindex>
  %v = ktdp.load %lo : !ktdp.access_tile<32xindex> -> tensor<32xf16>
  %n = arith.negf %v : tensor<32xf16>
  // CHECK: [[@LINE+1]]:3: error: group writes kernel argument 0 at other coordinates than it reads it: overlapping in-place updates are not supported
  ktdp.store %n, %hi : tensor<32xf16>, !ktdp.access_tile<32xindex>
  return
}
