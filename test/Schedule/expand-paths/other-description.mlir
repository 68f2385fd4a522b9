// Negative twin of routes.mlir: a pipeline built for one description and
// expanded for another names a compute unit the second one lacks (sample's
// @vec, spyre's @sfp, deep's @vpu), so it is reported at the compute stage
// rather than routed through units that are not there.
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre -ktsched-expand-paths=arch=sample 2>&1 | FileCheck %s -DDEVICE=sample -DUNIT=sfp
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep -ktsched-expand-paths=arch=spyre 2>&1 | FileCheck %s -DDEVICE=spyre -DUNIT=vpu
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample -ktsched-expand-paths=arch=deep 2>&1 | FileCheck %s -DDEVICE=deep -DUNIT=vec
// CHECK: relu_rows.mlir:27:5: error: compute stage is not bound to a compute unit of @[[DEVICE]] (bound to @[[UNIT]])
