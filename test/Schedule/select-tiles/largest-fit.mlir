// The largest tile whose buffers, at depth 2, fit the per-sub-core budget
// of every memory (usable capacity / sub-cores sharing it): outer
// dimensions shrink first; the innermost one only in whole vectors that
// are whole granules. A share that fits is taken whole.
// big_rows (2 buffers of f16 rows of 2048 bytes): the largest fits
// (sample 15 rows, spyre 99, deep 16) are then cut to the rows that cover
// the routes' latency (covers-latency.mlir): 2, 8 and 6 rows.
// wide_row (one row of 65536 f16 = 128 KiB per buffer):
//   sample: 15872 elements (31744 bytes, a multiple of 32 lanes and 64 B)
//   spyre:  the whole row fits (2 corelets share 1622016 bytes)
//   deep:   24576 elements (48 KiB: 4 copies fill the 192 KiB of L1)
// RUN: ktflow-opt %S/../Inputs/big_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_tiles | FileCheck %s --check-prefix=BIG-SAMPLE
// RUN: ktflow-opt %S/../Inputs/big_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=BIG-SPYRE
// RUN: ktflow-opt %S/../Inputs/big_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_tiles | FileCheck %s --check-prefix=BIG-DEEP
// RUN: ktflow-opt %S/../Inputs/wide_row.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_tiles | FileCheck %s --check-prefix=WIDE-SAMPLE
// RUN: ktflow-opt %S/../Inputs/wide_row.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=WIDE-SPYRE
// RUN: ktflow-opt %S/../Inputs/wide_row.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_tiles | FileCheck %s --check-prefix=WIDE-DEEP
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=WHOLE
// BIG-SAMPLE: loop_order = #ktsched.decision<array<i64: 0, 1>, "heuristic">
// BIG-SAMPLE-SAME: tile = #ktsched.decision<array<i64: 2, 1024>, "heuristic">, tile_counts = array<i64: 512, 1>
// BIG-SPYRE: tile = #ktsched.decision<array<i64: 8, 1024>, "heuristic">, tile_counts = array<i64: 128, 1>
// BIG-DEEP: tile = #ktsched.decision<array<i64: 6, 1024>, "heuristic">, tile_counts = array<i64: 342, 1>
// WIDE-SAMPLE: tile = #ktsched.decision<array<i64: 1, 15872>, "heuristic">, tile_counts = array<i64: 1, 5>
// WIDE-SPYRE: tile = #ktsched.decision<array<i64: 1, 65536>, "heuristic">, tile_counts = array<i64: 1, 1>
// WIDE-DEEP: tile = #ktsched.decision<array<i64: 1, 24576>, "heuristic">, tile_counts = array<i64: 2, 3>
// WHOLE: tile = #ktsched.decision<array<i64: 8, 256>, "heuristic">, tile_counts = array<i64: 1, 1>
