// A buffer that does not grow with the rows (bcast-row's broadcast row) is
// loaded again for every tile, so the latency cover is raised to the rows
// that balance that reload against fill and drain:
// sqrt(share * invariant bytes / (2 * bytes per row)).
// spyre, f32 256x1024, grid 1: 128 rows per corelet, rows of 4096 bytes.
// The latency cover (214 cycles * 64 B/cycle = 13696 bytes) is 4 rows;
// bcast-row's 4096-byte row raises it to sqrt(128 * 4096 / 8192) = 8 rows.
// Negative twin: add has no such buffer and keeps the cover, 4 rows.
// RUN: ktflow gen --kernel bcast-row --shape 256x1024 --dtype f32 --grid 1 -o %t.bcast.mlir
// RUN: ktflow-opt %t.bcast.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=BCAST
// RUN: ktflow gen --kernel add --shape 256x1024 --dtype f32 --grid 1 -o %t.add.mlir
// RUN: ktflow-opt %t.add.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_tiles | FileCheck %s --check-prefix=ADD
// BCAST: tile = #ktsched.decision<array<i64: [[ROWS:8]], 1024>, "heuristic">, tile_counts = array<i64: 16, 1>
// ADD: tile = #ktsched.decision<array<i64: [[ROWS:4]], 1024>, "heuristic">, tile_counts = array<i64: 32, 1>
