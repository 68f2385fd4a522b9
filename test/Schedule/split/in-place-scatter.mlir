// A table updated in place through its indices (a scatter-add: rows
// gathered, added to, scattered back through one indirect tile) is not
// split over the sub-core instances: one instance reads every row of its
// grid tile before it writes any (with an index repeated within the grid
// tile, the other instance's gather could read a row already scattered).
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_add_rows_32x256_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=WHOLE
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_add_rows_32x256_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=WHOLE
// WHOLE: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 16, 0>}, "heuristic">
//
// Negative twin: computed rows scattered into a table that is not read
// are split as any element-wise group.
// RUN: ktflow-opt %S/../../Run/Inputs/scatter_rows_scaled_32x256_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=SPLIT
// SPLIT: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 8, 8>}, "heuristic">
