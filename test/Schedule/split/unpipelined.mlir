// Negative twin: splitting needs a pipeline whose compute stage is bound
// to a unit (the instance count comes from that unit). Without the initial
// pipeline there is none, whatever the description (one RUN line suffices;
// other-description.mlir has a twin per description).
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-split=arch=spyre 2>&1 | FileCheck %s
// CHECK: relu_rows.mlir:27:5: error: expected a pipeline bound to a compute unit
