// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// Reductions over another dimension and over the last one form separate
// groups over the same iteration space; each body ends in a `reduce` vop
// with its combiner, dimension and constant init.
// RUN: ktflow-opt %S/../Inputs/reduce_f32.mlir %to_groups | FileCheck %s
// CHECK: ktsched.group @g0 attributes {element_type = f32, reduce_dims = array<i64: 0>, space = array<i64: 8, 64>}
// CHECK: ktsched.vop "abs"
// CHECK: ktsched.vop "neg"
// CHECK: ktsched.vop "reduce"({{.*}}) {combiner = "add", dim = 0 : i64}
// CHECK: ktsched.store {{.*}} to @arg1 {dims = array<i64: 1>
// CHECK: ktsched.group @g1 attributes {element_type = f32, reduce_dims = array<i64: 1>, space = array<i64: 8, 64>}
// CHECK: ktsched.vop "const" {value = 0xFF800000 : f32}
// CHECK: ktsched.vop "reduce"({{.*}}) {combiner = "max", dim = 1 : i64}
// CHECK: ktsched.store {{.*}} to @arg2 {dims = array<i64: 0>
