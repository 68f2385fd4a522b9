// Negative twin of fold.mlir: a launch value that names no argument, binds
// a buffer, is bound twice, is not a value of the argument's type, or breaks
// a runtime_arg's guarantee is a diagnostic at the kernel naming the
// argument; nothing is substituted.
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=m=3' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=x=64' 2>&1 | FileCheck %s --check-prefix=BUFFER
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=n=3,arg1=4' 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=n=many' 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=n=5000000000' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=eps=small' 2>&1 | FileCheck %s --check-prefix=NOTFLOAT
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=rows=6' 2>&1 | FileCheck %s --check-prefix=GRANULARITY
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=rows=512' 2>&1 | FileCheck %s --check-prefix=UPPER
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false '-ktsched-specialize=args=n' 2>&1 | FileCheck %s --check-prefix=FORM

// UNKNOWN: error: unknown argument name 'm' in --arg m=3 (kernel @k has: x, n, eps, rows)
// BUFFER: error: argument 'x' is a buffer (a memory view is based on it), not a launch value: --arg x=64 binds only scalar arguments here
// TWICE: error: argument 'n' is bound twice
// NOTINT: error: value 'many' for argument 'n' is not an integer
// RANGE: error: value 5000000000 for argument 'n' does not fit i32
// NOTFLOAT: error: value 'small' for argument 'eps' is not a f32 number
// GRANULARITY: error: runtime argument 'rows' = 6 is not a multiple of its granularity 4
// UPPER: error: runtime argument 'rows' = 512 exceeds its upperbound 256
// FORM: error: launch value 'n' must have the form NAME=VALUE

#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
func.func @k(%x: index loc("x"), %n: i32 loc("n"), %eps: f32 loc("eps"),
             %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256> loc("rows")) {
  %v = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
