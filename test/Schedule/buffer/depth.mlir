// Every buffer written by one stage and read by another gets a depth
// decision: 2 by default, the pass option otherwise; FIFOs keep their
// link's depth.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_buffer | FileCheck %s --check-prefix=TWO
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_buffer | FileCheck %s --check-prefix=TWO
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_nest -ktsched-buffer=depth=3 | FileCheck %s --check-prefix=THREE
// TWO-COUNT-4: ktsched.buffer {{.*}}depth = #ktsched.decision<2 : i64, "heuristic">
// TWO-NOT: ktsched.buffer
// THREE-COUNT-8: ktsched.buffer {{.*}}depth = #ktsched.decision<3 : i64, "heuristic">
// THREE-NOT: ktsched.buffer
