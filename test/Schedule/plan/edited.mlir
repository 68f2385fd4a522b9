// An edited plan: one row per tile, columns before rows, depth 3, the
// remainder row given to the second sub-core. Allocation places the
// replayed buffers (192 f16 = 384 bytes, 3 copies each).
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %S/../Inputs/odd_rows_plan.json | FileCheck %s
// RUN: ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch sample --plan %S/../Inputs/odd_rows_plan.json | FileCheck %s
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch deep --plan %S/../Inputs/odd_rows_plan.json 2>&1 | FileCheck %s --check-prefix=DEEP
// CHECK: loop_order = #ktsched.decision<array<i64: 1, 0>, "plan">
// CHECK-SAME: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 2, 3>}, "plan">, tile = #ktsched.decision<array<i64: 1, 192>, "plan">, tile_counts = array<i64: 3, 1>
// CHECK: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 384 : i64, depth = #ktsched.decision<3 : i64, "plan">
// deep has one sub-core per tile: a split over two does not match it.
// DEEP: error: plan {{.*}}odd_rows_plan.json, group 'g0': split over 2 instances, but the architecture has 1
