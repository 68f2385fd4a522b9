// A buffer of several rows that are not whole vectors, whose padded rows
// would need a DMA stride the description forbids (6 rows of 100 f16, 200
// bytes apart: not whole 64-byte units of sample's DMA nor 128-byte of
// spyre's), takes dense rows: `row_layout = "dense"` and no `row_pitch`,
// its bytes the 1200 of the rows, a DMA unit for the lead and a vector
// held ahead, in whole granules and vectors (1200 + 64 rounded up to 1280,
// + 64 = 1344 on sample; 1200 + 128 up to 1408, + 128 = 1536 on spyre).
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_dense_6x100_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=1344
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_dense_6x100_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=1536
// DENSE: ktsched.buffer {{.*}}bytes = [[BYTES]] : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// DENSE-NOT: row_pitch
//
// On deep's two scratchpad levels the outer buffer (L2) and the inner one
// it is copied into slot for slot (L1) both take dense rows, of the same
// bytes: 1200 + 32 (a 32-byte DMA unit of lead) up to 1280 (64-byte
// vectors), + 64 = 1344.
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_dense_6x100_f16.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=TWO
// TWO: ktsched.buffer {{.*}}bytes = 1344 : i64{{.*}}level = 0 : i64, memory = "l2", row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// TWO: ktsched.buffer {{.*}}bytes = 1344 : i64{{.*}}level = 1 : i64, memory = "l1", row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// TWO-NOT: row_pitch
//
// Negative twins, padded rows: rows whose stride is whole DMA units (4
// rows of 1000 f32 1024 elements apart on sample, and on deep's two
// levels, both of which keep the pitch).
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=PAD
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=PAD
// PAD: row_pitch = #ktsched.decision
// PAD-NOT: row_layout
//
// A column reduction over dense rows reads them in memory order, so its
// rows may be dense too: 45 rows of 12 f16 (24 bytes apart,
// after the merge of three column blocks) take 1080 bytes, a DMA unit for
// the lead and a vector ahead (1080 + 64 up to 1152, + 64 = 1216 on sample;
// 1080 + 128 up to 1280, + 128 = 1408 on spyre).
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_dense_45x12_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=1216
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_dense_45x12_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=1408
//
// Rows of a few vectors too (one accumulator per vector): 45 rows of 80
// f16, 7200 bytes (+ 64 up to 7296, + 64 = 7360 on sample; + 128 up to
// 7424, + 128 = 7552 on spyre).
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wide_rows_45x80_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=7360
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wide_rows_45x80_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=7552
//
// And on deep's two levels (1080 + 32 up to 1152, + 64 = 1216), both.
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_dense_45x12_f16.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=TWOCOL
// TWOCOL: ktsched.buffer {{.*}}bytes = 1216 : i64{{.*}}level = 0 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">
// TWOCOL: ktsched.buffer {{.*}}bytes = 1216 : i64{{.*}}level = 1 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">
//
// Rows of as many vectors as the compute unit's registers hold an
// accumulator for per vector and reduction: 300 f16 (5 of spyre's 64-lane
// vectors, 10 of deep's 32-lane ones; two reductions) within 32 registers.
// 27000 bytes + 128 up to 27136, + 128 = 27264 on spyre; + 32 up to 27072,
// + 64 = 27136 on both of deep's levels.
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wider_rows_45x300_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=27264
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_wider_rows_45x300_f16.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=DENSE -DBYTES=27136
//
// Negative twins: rows of more vectors than that (1000 f16: 16 of spyre's
// vectors, 32 of deep's, two accumulators each) keep padded rows, on one
// level and on two. On spyre the split gives the two corelets column
// blocks of 512 and 488 (8 vectors), whose rows take a strided span: the
// block's rows with the gaps between them, 44 * 2000 + 1024 bytes + 128
// (lead) up to 89216, + 128 (a vector ahead) = 89344.
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_widest_rows_45x1000_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=SPAN
// SPAN: ktsched.pipeline attributes {{.*}}split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 512, 488>}
// SPAN: ktsched.buffer {{.*}}bytes = 89344 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// RUN: ktflow-opt %S/../../Run/Inputs/col_reduce_widest_rows_45x1000_f16.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=NODENSE
// NODENSE: ktsched.buffer
// NODENSE-NOT: row_layout
//
// An element-wise group over rows no DMA can pad (100 rows of 11 f16, 22
// bytes apart) beside a row operand (not flattened): its full-tile load
// and both stores take dense rows (the compute unit realigns the load and
// packs the results, lib/Lower/DenseStores.cpp). A share of 64 rows: the
// load's 1408 bytes + 64 (lead) + 64 (a vector ahead) = 1536 on sample,
// each store's 1408 + 64 = 1472.
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_row_operand.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=ELEMENTWISE
// ELEMENTWISE: ktsched.buffer {{.*}}bytes = 1536 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// ELEMENTWISE: ktsched.buffer {{.*}}bytes = 1472 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg2}
// ELEMENTWISE: ktsched.buffer {{.*}}bytes = 1472 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg3}
//
// The same rows beside a column operand (one value per row, held a vector
// of rows at a time beside the packed rows): the rows are dense alike, the
// column's slice (a 1-D buffer) keeps its layout.
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_column_operand.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=ELEMCOL
// ELEMCOL: ktsched.buffer {{.*}}bytes = 1536 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg0}
// ELEMCOL: ktsched.buffer {{.*}}dims = array<i64: 0>,
// ELEMCOL-NOT: row_layout
// ELEMCOL-SAME: tensor = @arg1}
// ELEMCOL: ktsched.buffer {{.*}}bytes = 1472 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg2}
// ELEMCOL: ktsched.buffer {{.*}}bytes = 1472 : i64{{.*}}row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg3}
//
// On deep's two levels the outer and inner buffers of each store are
// dense alike (the tile DMA copies the inner slot whole into the outer).
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_row_operand.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=TWOSTORE
// TWOSTORE-DAG: ktsched.buffer {{.*}}level = 1 : i64, memory = "l1", row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg2}
// TWOSTORE-DAG: ktsched.buffer {{.*}}level = 0 : i64, memory = "l2", row_layout = #ktsched.decision<"dense", "heuristic">, tensor = @arg2}
//
// Negative twin: rows of a tile that do not follow each other in memory (a
// grid over the columns, kept unmerged by a plan) stay padded.
// RUN: ktflow-opt %S/../../Run/Inputs/dense_stores_column_split.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_buffer -ktsched-merge-tiles=plan=%S/../../Run/Inputs/plan_unmerged_column_split.json -ktsched-split -ktsched-select-tiles -ktsched-classify-tiles -ktsched-order-transfers -ktsched-allocate | FileCheck %s --check-prefix=PAD
