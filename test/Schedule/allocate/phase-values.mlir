// A group of phases whose row's per-phase results fit the compute unit's
// registers keeps them there (`phase_values = registers`): on spyre a row
// of 1024 f16 is 16 vectors, and softmax's carried exp(x - max) of each
// with the temporaries and per-row values needs fewer than @sfp's 32.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x1024.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=FITS
// FITS: ktsched.group {{.*}}phase_values = #ktsched.decision<"registers", "heuristic">
// Negative twin: a row of 2048 (32 vectors) does not fit, each phase
// recomputes from the resident row.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x2048.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=LONG
// LONG: ktsched.group {{.*}}phase_values = #ktsched.decision<"recompute", "heuristic">
