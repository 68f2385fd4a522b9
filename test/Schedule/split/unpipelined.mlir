// Negative twin: splitting needs a pipeline whose compute stage is bound
// to a unit (the instance count comes from that unit).
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-split=arch=spyre 2>&1 | FileCheck %s
// CHECK: error: expected a pipeline bound to a compute unit
