// load -> compute -> store over logical FIFOs; the compute stage is bound
// to a vector unit and moves one vector of its lanes for the group's
// element type per step: f16 on sample 32, spyre 64, deep 32; f32 on
// sample 16, spyre 32, deep 16.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample | FileCheck %s --check-prefixes=CHECK,SAMPLE16
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre | FileCheck %s --check-prefixes=CHECK,SPYRE16
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep | FileCheck %s --check-prefixes=CHECK,DEEP16
// RUN: ktflow-opt %S/../compute-groups/cast.mlir %to_groups -ktsched-initial-pipeline=arch=sample | FileCheck %s --check-prefixes=CHECK,SAMPLE32
// RUN: ktflow-opt %S/../compute-groups/cast.mlir %to_groups -ktsched-initial-pipeline=arch=spyre | FileCheck %s --check-prefixes=CHECK,SPYRE32
// RUN: ktflow-opt %S/../compute-groups/cast.mlir %to_groups -ktsched-initial-pipeline=arch=%arch_dir/deep.mlir | FileCheck %s --check-prefixes=CHECK,DEEP32
// CHECK: ktsched.pipeline attributes {level = 0 : i64, moves = "vector"}
// CHECK: %[[LOADED:[0-9]+]]{{(:[0-9]+)?}} = ktsched.stage "load" attributes {transfers = [{dims
// CHECK: %[[FIFO:.*]] = ktsched.fifo %[[LOADED]]
// CHECK: %[[RESULT:.*]] = ktsched.stage "compute"(%[[FIFO]]
// SAMPLE16-SAME: unit = #ktsched.decision<"vec", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">
// SPYRE16-SAME: unit = #ktsched.decision<"sfp", "heuristic">, vector = #ktsched.decision<64 : i64, "heuristic">
// DEEP16-SAME: unit = #ktsched.decision<"vpu", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">
// SAMPLE32-SAME: unit = #ktsched.decision<"vec", "heuristic">, vector = #ktsched.decision<16 : i64, "heuristic">
// SPYRE32-SAME: unit = #ktsched.decision<"sfp", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">
// DEEP32-SAME: unit = #ktsched.decision<"vpu", "heuristic">, vector = #ktsched.decision<16 : i64, "heuristic">
// CHECK: %[[OUT:.*]] = ktsched.fifo %[[RESULT]]
// CHECK: ktsched.stage "store"(%[[OUT]]) attributes {transfers
