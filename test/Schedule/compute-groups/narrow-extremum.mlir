// A max (or min) folded over values widened exactly from a narrower float
// type is folded in the narrow type, at its lanes, and the one result per
// row widened: softmax's max over f16 data computed in f32 reduces the f16
// rows with an f16 -inf and casts the row's max to f32. Its sum of exp(x -
// max) stays an f32 fold (an add does not commute with rounding).
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x1024.mlir %to_groups | FileCheck %s
// CHECK: %[[INIT:.*]] = ktsched.vop "const" {value = 0xFC00 : f16} : () -> f16
// CHECK: %[[MAX:.*]] = ktsched.vop "reduce"(%arg0, %[[INIT]]) {combiner = "max", dim = 1 : i64, phase = 1 : i64} : (f16, f16) -> f16
// CHECK: ktsched.vop "cast"(%[[MAX]]) : (f16) -> f32
// CHECK: ktsched.vop "reduce"({{.*}}) {combiner = "add", dim = 1 : i64, phase = 2 : i64} : (f32, f32) -> f32
// RUN: ktflow run %S/../../Run/Inputs/softmax_rows_8x1024.mlir --arch spyre | FileCheck %s --check-prefix=MATCH
// MATCH: result: match
//
// Negative twin: an init no f16 value equals (-1.0e30) keeps the fold in f32.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x1024_wide_init.mlir %to_groups | FileCheck %s --check-prefix=WIDE
// WIDE: ktsched.vop "reduce"({{.*}}) {combiner = "max", dim = 1 : i64, phase = 1 : i64} : (f32, f32) -> f32
