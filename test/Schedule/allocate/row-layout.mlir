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
// Negative twins, padded rows: rows whose stride is whole DMA units (4
// rows of 1000 f32 1024 elements apart on sample), and the same 200-byte
// rows on deep's two scratchpad levels (the realignment is lowered on one).
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_padded_4x1000_f32.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=PAD
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_dense_6x100_f16.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=PAD
// PAD: row_pitch = #ktsched.decision
// PAD-NOT: row_layout
