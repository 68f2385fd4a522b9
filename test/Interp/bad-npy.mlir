// A .npy file whose dtype or shape does not match the views on its buffer is
// rejected at the first view; a matching one is accepted.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import sys; sys.path.insert(0, '%S'); import check_example as c; c.write_npy('%t/f4.npy', 'f4', (4, 8), [0]*32); c.write_npy('%t/f2_3x3.npy', 'f2', (3, 3), [0]*9); c.write_npy('%t/f2_4x8.npy', 'f2', (4, 8), [0]*32); c.write_npy('%t/f2_32.npy', 'f2', (32,), [0]*32)"
// RUN: not ktflow interp %s --arg x=%t/f4.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not ktflow interp %s --arg x=%t/f2_3x3.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not ktflow interp %s --arg x=%t/missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: ktflow interp %s --arg x=%t/f2_4x8.npy | FileCheck %s --check-prefix=OK
// RUN: not ktflow interp %s --arg x=%t/f2_32.npy 2>&1 | FileCheck %s --check-prefix=SHAPE32

// DTYPE: bad-npy.mlir:[[@LINE+8]]:8: error: buffer 'x': '{{.*}}f4.npy' has dtype 'f4' but the views on it have element type f16 (expects dtype 'f2')
// SHAPE: bad-npy.mlir:[[@LINE+7]]:8: error: buffer 'x': '{{.*}}f2_3x3.npy' has shape [3, 3] but the views on it need [4, 8]
// MISSING: error: {{.*}}missing.npy: cannot read
// OK: buffer x: f16[4, 8] at byte {{.*}} from {{.*}}f2_4x8.npy
// SHAPE32: error: buffer 'x': '{{.*}}f2_32.npy' has shape [32] but the views on it need [4, 8]

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
func.func @k(%x: index) {
  %v = ktdp.construct_memory_view %x, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4x8xf16>
  return
}
