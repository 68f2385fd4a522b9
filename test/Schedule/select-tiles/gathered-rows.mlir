// An element-wise group of gathered rows takes tiles of more rows than
// cover the routes' latency: each tile's DMA gather first waits for its
// indices from global memory, once per tile, so the rows balance that wait
// against fill and drain (sqrt(2048 rows * 107 cycles / (2 * 32 cycles a
// row)) = 59 on spyre's 64-byte DMA path, then spread evenly: 61).
// RUN: ktflow-opt %S/../Inputs/gather_rows_mul_4096x1024_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=GATHERED
// GATHERED: tile = #ktsched.decision<array<i64: 61, 1024>, "heuristic">
//
// Negative twin: the same rows loaded directly take the rows that cover
// the latency.
// RUN: ktflow-opt %S/../Inputs/direct_rows_mul_4096x1024_f16.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=DIRECT
// DIRECT: tile = #ktsched.decision<array<i64: 8, 1024>, "heuristic">
