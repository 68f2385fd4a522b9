// The synchronisation skeletons of the test pipelines complete, both as
// channels and as the semaphores ktunit-insert-sync makes of them (which
// then all end at zero).
// RUN: ktflow-opt %S/../Inputs/add_pipeline.mlir -ktunit-check-deadlock=arch=sample | FileCheck %s
// RUN: ktflow-opt %S/../Inputs/add_pipeline.mlir -ktunit-insert-sync=arch=sample -ktunit-check-deadlock=arch=sample | FileCheck %s
// RUN: ktflow-opt %S/../Inputs/ring_spyre.mlir -ktunit-insert-sync=arch=spyre -ktunit-check-deadlock=arch=spyre | FileCheck %s
// RUN: ktflow-opt %S/../Inputs/ring_deep.mlir -ktunit-insert-sync=arch=deep -ktunit-check-deadlock=arch=deep | FileCheck %s
// CHECK: ktunit.bundle
