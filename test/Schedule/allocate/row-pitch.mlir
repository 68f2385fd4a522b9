// A buffer of several tile rows that are not whole vectors gets a
// `row_pitch`: each row padded to whole vectors in whole granules of its
// memory, so every row starts on a vector boundary; its bytes count the
// padding. 4 rows of 1000 f32: 63 vectors of 16 f32 (4032 bytes) on sample
// and in both of deep's levels, 32 vectors of 32 f32 (4096) on spyre.
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=PAD -DPITCH=4032 -DBYTES=16128
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=PAD -DPITCH=4096 -DBYTES=16384
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=PAD -DPITCH=4032 -DBYTES=16128
// PAD: ktsched.buffer {{.*}}bytes = [[BYTES]] : i64{{.*}}row_pitch = #ktsched.decision<[[PITCH]] : i64, "heuristic">, tensor = @arg0}
//
// Negative twins, dense slots without a pitch: rows that are whole vectors
// (relu_rows: 256 f16), and a tile of one row (1x100 f16).
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=DENSE
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_partial_1x100.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=DENSE
// DENSE: ktsched.buffer
// DENSE-NOT: row_pitch
