// An element-wise group whose stores pack their rows (dense stores,
// RowLayout.h) splits whole rows in units whose bytes are whole granules
// of the storing DMA, so each share's packed run starts on a granule:
// 100 rows of 11 f16 (22 bytes) split 64 + 36 on sample (32 rows are
// 704 bytes, 11 of its 64-byte granules) and on spyre (64 rows are 1408
// bytes, 11 of its 128-byte granules).
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_row_operand.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=PACKED
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_row_operand.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=PACKED
// PACKED: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 64, 36>}, "heuristic">
//
// Negative twin: rows that are whole vectors store padded rows (none to
// pack) and split evenly (relu_rows: 16 rows of 64 f16, 8 + 8).
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=EVEN
// EVEN: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 8, 8>}, "heuristic">
