// Argument binding errors name the argument and point at the kernel.
// RUN: not ktflow interp %s --arg nope=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ktflow interp %s --arg n=abc 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not ktflow interp %s --arg x=3 2>&1 | FileCheck %s --check-prefix=BUFVALUE
// RUN: not ktflow interp %s --arg n=%s.npy 2>&1 | FileCheck %s --check-prefix=SCALARFILE
// RUN: not ktflow interp %s --arg n=1 --arg arg1=2 2>&1 | FileCheck %s --check-prefix=TWICE
// The positive twin: arg0/arg1 name the arguments too.
// RUN: ktflow interp %s --arg arg1=5 | FileCheck %s --check-prefix=OK

// UNKNOWN: bad-arguments.mlir:[[@LINE+8]]:1: error: unknown argument name 'nope' in --arg nope=1 (kernel @k has: x, n)
// NOTINT: error: value 'abc' for argument 'n' is not an integer
// BUFVALUE: error: argument 'x' is a buffer (the base of a global memory view); bind it to a .npy file, not to '3'
// SCALARFILE: error: argument 'n' is not a buffer
// TWICE: error: argument 'arg1' is bound twice
// OK: scalar n = 5

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
func.func @k(%x: index, %n: index) {
  %v = ktdp.construct_memory_view %x, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xf16>
  return
}
