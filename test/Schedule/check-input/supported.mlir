// The input check accepts kernels inside the coverage: a fused chain, a
// loop without iter_args with row/column broadcasts, f32 reductions over
// either dimension. It changes nothing.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir -ktsched-check-input | FileCheck %s --check-prefix=RELU
// RUN: ktflow-opt %S/../Inputs/odd_rows_loop.mlir -ktsched-check-input | FileCheck %s --check-prefix=LOOP
// RUN: ktflow-opt %S/../Inputs/reduce_f32.mlir -ktsched-check-input | FileCheck %s --check-prefix=REDUCE
// RELU: func.func @relu_rows
// RELU: arith.maximumf
// LOOP: func.func @odd_rows_loop
// LOOP: scf.for
// REDUCE: func.func @reduce_f32
// REDUCE: linalg.reduce
