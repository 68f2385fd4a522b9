// A column reduction whose rows are dense (45 rows of 80 f16 after the
// merge of two column blocks, 160 bytes apart: a stride neither sample's
// nor spyre's DMA can pad) keeps its rows whole: a share of its columns
// would be a strided copy the DMA forbids, so one sub-core takes the tile.
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wide_rows_45x80_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=WHOLE
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wide_rows_45x80_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=WHOLE
// WHOLE: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 45, 0>}, "heuristic">
//
// Negative twin: padded rows (50 rows of 384 f16 in column blocks of 192,
// a 768-byte stride) are split along the columns in whole granules of
// results.
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=COLUMNS
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=COLUMNS
// COLUMNS: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: {{[1-9][0-9]*}}, {{[1-9][0-9]*}}>}
