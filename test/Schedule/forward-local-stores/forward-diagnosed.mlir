// Negative twin of forward.mlir: scratchpad round trips the forwarding
// cannot resolve are diagnosed, naming the rule; another tile's
// scratchpad (ct_id) is left for the input check.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect -ktsched-forward-local-stores="arch=sample" | FileCheck %s

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @unwritten() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %l_mem = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @below {{no earlier store of this tile wrote: their contents are unspecified}}
  %back = ktdp.load %l_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  "test.use"(%back) : (tensor<1x64xf16>) -> ()
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @other_shape(%a: tensor<1x64xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %l_mem = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %h_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #half, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x32xindex>
  // expected-note @below {{the store}}
  ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  // expected-error @below {{in another shape, order or type not supported}}
  %back = ktdp.load %h_at : !ktdp.access_tile<1x32xindex> -> tensor<1x32xf16>
  "test.use"(%back) : (tensor<1x32xf16>) -> ()
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @in_loop(%a: tensor<1x64xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l_mem = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @below {{inside a loop or branch not supported}}
    ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// sample's scratchpad has 253952 usable bytes: f16 element 1048576 (byte
// 2097152) is past it.
func.func @past_capacity(%a: tensor<1x64xf16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %far = arith.constant 1048576 : index
  %l_mem = ktdp.construct_memory_view %far, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @below {{is outside the scratchpad's}}
  ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @tile_dependent(%a: tensor<1x64xf16>) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %l_mem = ktdp.construct_memory_view %t, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  // expected-error @below {{with a non-constant view offset not supported}}
  ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// -----

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @other_tile
// CHECK: ktdp.store {{.*}} : tensor<1x64xf16>
func.func @other_tile(%a: tensor<1x64xf16>) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %l_mem = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
