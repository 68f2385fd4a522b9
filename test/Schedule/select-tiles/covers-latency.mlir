// A tile that fits is cut, outermost dimension only, to the fewest rows
// whose bytes take at least the load and store routes' latencies on their
// slowest link, spread evenly over the tiles: a larger tile only lengthens
// the pipeline's fill and drain.
// spyre, big_rows (f16 rows of 2048 bytes, 1024 rows per corelet): the
// routes' latencies are 100+4+2+1 and 1+2+4+100 = 214 cycles, the slowest
// link 64 B/cycle: 13696 bytes = 7 rows; 1024 / 7 gives 146 tiles, evenly
// ceil(1024 / 146) = 8 rows, so 128 tiles
// (the largest fit would be 99 rows).
// Negative twin: sample, wide_row, whose fit already shrank the innermost
// dimension: the rows are left alone (one row, 15872 elements).
// RUN: ktflow-opt %S/../Inputs/big_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=CUT
// RUN: ktflow-opt %S/../Inputs/wide_row.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_tiles | FileCheck %s --check-prefix=KEPT
// CUT: tile = #ktsched.decision<array<i64: [[ROWS:8]], 1024>, "heuristic">, tile_counts = array<i64: 128, 1>
// KEPT: tile = #ktsched.decision<array<i64: 1, [[COLUMNS:15872]]>, "heuristic">
