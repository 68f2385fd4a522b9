// Both memory-space spellings parse to one attribute, printed in the
// current spelling (spec §4.1); `unspecified` prints as
// #ktdp.memory_space<unspecified>. The printed form re-parses to the same
// text.
// RUN: ktflow-opt %s > %t.1
// RUN: ktflow-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1

#box = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>

// CHECK-LABEL: func.func @spellings
func.func @spellings(%a: index) attributes {grid = [4]} {
  // CHECK: memory_space = #ktdp.memory_space<global>
  %0 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local>
  %1 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local, ct_id = 3>
  %2 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<global>
  %3 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local>
  %4 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<LX>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local, ct_id = 2>
  %5 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<LX, core = 2>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local>
  %6 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<L0>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<ct_local, ct_id = 0>
  %7 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<L0, core = 0>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<unspecified>
  %8 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.memory_space<unspecified>
  %9 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<unspecified>} : memref<16xf16>
  // The memref's memory-space slot may carry the same attribute, in either
  // spelling.
  // CHECK: : memref<16xf16, #ktdp.memory_space<ct_local, ct_id = 1>>
  %10 = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #box, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16xf16, #ktdp.spyre_memory_space<LX, core = 1>>
  return
}
