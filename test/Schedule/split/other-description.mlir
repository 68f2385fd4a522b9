// Negative twin of shares.mlir: the instance count comes from the compute
// unit the pipeline is bound to, so a schedule built for one description
// and split for another (sample's @vec, spyre's @sfp, deep's @vpu) is
// reported at the compute stage, naming the description and the binding,
// instead of being split over instances the unit does not have.
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_buffer -ktsched-split=arch=sample 2>&1 | FileCheck %s -DDEVICE=sample -DUNIT=sfp
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_buffer -ktsched-split=arch=spyre 2>&1 | FileCheck %s -DDEVICE=spyre -DUNIT=vpu
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_buffer -ktsched-split=arch=deep 2>&1 | FileCheck %s -DDEVICE=deep -DUNIT=vec
// CHECK: relu_rows.mlir:27:5: error: compute stage is not bound to a compute unit of @[[DEVICE]] (bound to @[[UNIT]])
