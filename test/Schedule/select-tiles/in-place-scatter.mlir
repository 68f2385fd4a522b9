// A table updated in place through its indices (a scatter-add) takes its
// whole grid tile as the one tile (every row read before any is written),
// not the fewer rows that would cover the routes' latency.
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_add_rows_32x256_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=WHOLE
// WHOLE: tile = #ktsched.decision<array<i64: 16, 256>, "heuristic">
//
// Negative twin: computed rows scattered into a table that is not read
// are cut to the rows that cover the latency, per instance.
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_rows_scaled_32x256_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=CUT
// CUT: tile = #ktsched.decision<array<i64: 8, 256>, "heuristic">
