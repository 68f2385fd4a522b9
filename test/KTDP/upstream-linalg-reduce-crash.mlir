// Known upstream bug (Debian's MLIR 22), found by fuzz/ktir-fuzzer: the
// linalg.reduce parser dereferences a null attribute when `dimensions =` is
// followed by something that is not an integer list. The fix belongs in
// mlir::linalg::ReduceOp::parse; until the packaged MLIR has it, ktflow
// survives the crash (ktflow/Support/ParseGuard.h): the parser's own error,
// then "the MLIR parser crashed" at the same place, and exit status 1.
// Instrumented builds (lit feature `sanitizers`) do not crash on this input
// and give only the parser's error, so the crash line is checked only
// without them. Once the packaged MLIR is fixed, the CRASH line fails: drop
// it then.
// RUN: sh -c 'ktflow check %s; test $? -eq 1' > /dev/null 2>&1
// RUN: not ktflow check %s 2>&1 | FileCheck %s %if !sanitizers %{--check-prefixes=CHECK,CRASH%}

func.func @k(%x: tensor<4x8xf32>, %init: tensor<4xf32>) {
  // CHECK: upstream-linalg-reduce-crash.mlir:[[@LINE+2]]:103: error: expected '['
  // CRASH: upstream-linalg-reduce-crash.mlir:[[@LINE+1]]:103: error: the MLIR parser crashed on this input (a bug in the upstream parser, not in the program's validity check); the input is rejected
  %r = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = %0]
  return
}
