// Known upstream bug (Debian's MLIR 22), found by fuzz/ktir-fuzzer: the
// linalg.reduce parser dereferences a null attribute when `dimensions =` is
// followed by something that is not an integer list, so `ktflow check`
// crashes instead of reporting the syntax error. The fix belongs in
// mlir::linalg::ReduceOp::parse; XFAIL until the packaged MLIR has it (then
// this test XPASSes and the XFAIL line goes).
// UNSUPPORTED: sanitizers
// XFAIL: *
// RUN: not ktflow check %s 2>&1 | FileCheck %s
// CHECK: error:

func.func @k(%x: tensor<4x8xf32>, %init: tensor<4xf32>) {
  %r = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = %0]
  return
}
