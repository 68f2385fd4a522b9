// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// Loads to the store, one fused body: max(a * b + c, 0) becomes one group
// whose compute body is mul, add and max with a constant 0 (the relu).
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups | FileCheck %s
// CHECK: ktsched.group @g0 attributes {element_type = f16, reduce_dims = array<i64>, space = array<i64: 16, 256>}
// CHECK-COUNT-3: ktsched.load @arg{{[0-2]}} {dims = array<i64: 0, 1>, origin = #[[ROWS:map[0-9]*]], shape = array<i64: 16, 256>}
// CHECK: ktsched.compute
// CHECK: %[[PROD:.*]] = ktsched.vop "mul"
// CHECK: %[[SUM:.*]] = ktsched.vop "add"(%[[PROD]],
// CHECK: %[[ZERO:.*]] = ktsched.vop "const" {value = 0.000000e+00 : f16}
// CHECK: ktsched.vop "max"(%[[SUM]], %[[ZERO]])
// CHECK: ktsched.store %{{.*}} to @arg3 {dims = array<i64: 0, 1>, origin = #[[ROWS]]
// CHECK-NOT: ktsched.group
