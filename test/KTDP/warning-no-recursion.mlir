// A verifier warning must not recurse: with ops printed on diagnostics (the
// default of ktflow-opt without -verify-diagnostics), an op-attached warning
// printed the op, printing verified it and verification warned again, until
// the stack overflowed. Found by fuzz/ktir-fuzzer.
// RUN: ktflow-opt %s 2>&1 | FileCheck %s

// CHECK: warning: 'ktdp.construct_memory_view' op coordinate_set spans 32 coordinates in dimension 0, more than the size 16
// CHECK: warning: 'ktdp.construct_memory_view' op has no coordinate_set
// CHECK: func.func @wide_set
func.func @wide_set(%base: index) {
  %wide = ktdp.construct_memory_view %base, sizes: [16, 4], strides: [4, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<16x4xf16>
  %bare = ktdp.construct_memory_view %base, sizes: [16, 4], strides: [4, 1] {
      memory_space = #ktdp.memory_space<global>
  } : memref<16x4xf16>
  return
}
