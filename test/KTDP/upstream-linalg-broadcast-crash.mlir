// Known upstream bug (Debian's MLIR 22), found by fuzz/ktir-fuzzer: like
// linalg.reduce (upstream-linalg-reduce-crash.mlir), the linalg.broadcast
// parser dereferences a null attribute when `dimensions =` is followed by
// something that is not an integer list (here `[1-]`), so `ktflow check`
// crashes instead of reporting the syntax error. The fix belongs in
// mlir::linalg::BroadcastOp::parse; XFAIL until the packaged MLIR has it
// (then this test XPASSes and the XFAIL line goes).
// UNSUPPORTED: sanitizers
// XFAIL: *
// RUN: not ktflow check %s 2>&1 | FileCheck %s
// CHECK: error:

func.func @k(%x: tensor<2xf16>, %init: tensor<2x1xf16>) {
  %b = linalg.broadcast ins(%x : tensor<2xf16>) outs(%init : tensor<2x1xf16>) dimensions = [1-]
  return
}
