// Emission is mechanical: IR that still has channels (no ktunit-insert-sync)
// or virtual registers (no ktunit-allocate-registers) is refused, naming
// the missing pass.
// RUN: not ktflow-opt %S/../Inputs/add_pipeline.mlir -ktunit-emit 2>&1 | FileCheck %s --check-prefix=CHANNEL
// RUN: not ktflow-opt %S/../Inputs/add_pipeline.mlir -ktunit-insert-sync=arch=sample -ktunit-emit 2>&1 | FileCheck %s --check-prefix=VREG
// CHANNEL: error: still uses a channel: run ktunit-insert-sync first
// VREG: error: uses a virtual register: run ktunit-allocate-registers first
