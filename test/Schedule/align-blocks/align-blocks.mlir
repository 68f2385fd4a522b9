// Grid tiles whose stores are not whole DMA granules of global memory share
// a granule with their neighbour; rows being independent, each grid tile
// gets one contiguous block of rows whose stores are whole granules (the
// last block ends where the data ends).
//
// Cyclic row sums (200 rows on two tiles, one 2-byte sum per iteration):
// the loop is dropped and tile t takes rows [B t, B t + B), B the even
// share (100) rounded up to whole granules of f16 sums: 32 on sample
// (64 bytes) and 64 on spyre (128) give 128, 16 on deep (32) gives 112.
// RUN: ktflow-opt %S/../../Run/Inputs/cyclic_row_sums_200x64.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_align | FileCheck %s --check-prefix=CYCLIC128
// RUN: ktflow-opt %S/../../Run/Inputs/cyclic_row_sums_200x64.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=CYCLIC128
// RUN: ktflow-opt %S/../../Run/Inputs/cyclic_row_sums_200x64.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_align | FileCheck %s --check-prefix=CYCLIC112
// CYCLIC128: #[[LOAD:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 128, 0)>
// CYCLIC128: #[[STORE:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 128)>
// CYCLIC128: ktsched.group @g0 attributes {element_type = f16, granule_blocks = #ktsched.decision<{block = 128 : i64, dim = 0 : i64, loop_iterations = 200 : i64}, "heuristic">, reduce_dims = array<i64: 1>, space = array<i64: 128, 64>}
// CYCLIC128: "load" attributes {transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #[[LOAD]], shape = array<i64: 128, 64>, tensor = @arg0}]}
// CYCLIC128: "store"({{.*}}) attributes {transfers = [{dims = array<i64: 0>, element_type = f16, origin = #[[STORE]], shape = array<i64: 128>, tensor = @arg1}]}
// CYCLIC112: affine_map<(d0, d1, d2, d3) -> (d0 * 112)>
// CYCLIC112: granule_blocks = #ktsched.decision<{block = 112 : i64, dim = 0 : i64, loop_iterations = 200 : i64}, "heuristic">, reduce_dims = array<i64: 1>, space = array<i64: 112, 64>
// CYCLIC128-NOT: loop =
// CYCLIC112-NOT: loop =
//
// Chunked row sums (tile t of 3 takes rows [96 t, min(96 t + 96, 200))):
// the loop is dropped the same way, the block index being t.
// RUN: ktflow-opt %S/../../Run/Inputs/chunked_row_sums_200x64.mlir -ktsched-specialize=args=arg2=200 %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=CHUNKED
// CHUNKED: affine_map<(d0, d1, d2, d3) -> (d0 * 128)>
// CHUNKED: granule_blocks = #ktsched.decision<{block = 128 : i64, dim = 0 : i64, loop_iterations = 200 : i64}, "heuristic">
// CHUNKED-NOT: loop =
//
// A row loop on one tile whose rows are whole granules already: its
// contiguous iterations still become one block of rows (`loop_blocks`),
// the tile's own 200, for tile selection to size.
// RUN: ktflow-opt %S/../../Run/Inputs/row_loop_one_tile.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=ONETILE
// ONETILE: loop_blocks = #ktsched.decision<{block = 200 : i64, dim = 0 : i64, loop_iterations = 200 : i64}, "heuristic">
// ONETILE-SAME: space = array<i64: 200, 64>
// ONETILE-NOT: loop =
//
// Grid row blocks of an element-wise group: two tiles of 50 rows of 11 f16
// (1100 bytes) become blocks of 64 rows (1408 bytes: whole granules of 64,
// 128 and 32 bytes), which flattening then turns into runs of 704.
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_50x11_grid2.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=GRID
// GRID: affine_map<(d0, d1, d2, d3) -> (d0 * 64, 0)>
// GRID: granule_blocks = #ktsched.decision<{block = 64 : i64, dim = 0 : i64}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 64, 11>
//
// Negative twins, left alone: rows that are whole granules already on a
// loop dealt out over several tiles (example 06: cyclic rows of 128 f16 on
// four tiles, each tile's rows 4 apart); two stores that cover different
// rows of their views (re-dividing would move them apart); chunks of rows
// with gaps between them (blocks would store rows the kernel leaves); a reduction
// over grid row blocks (ktsched-merge-tiles coarsens those: example 04).
// RUN: ktflow-opt %examples/ktir/06_row_loop_cyclic.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=KEEP
// RUN: ktflow-opt %S/../../Run/Inputs/blocks_shifted_store.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=KEEP
// RUN: ktflow-opt %examples/ktir/04_row_sum_and_max.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=KEEP
// RUN: ktflow-opt %S/../../Run/Inputs/chunked_row_sums_gaps.mlir -ktsched-specialize=args=arg2=200 %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=KEEP
// KEEP-NOT: {{granule_blocks|loop_blocks}}
// KEEP: ktsched.group @g0
// KEEP-NOT: {{granule_blocks|loop_blocks}}
//
// Grid column blocks of an element-wise group whose rows are not whole
// granules (96 rows of 11 f32, 44 bytes apart, two tiles of 6 columns):
// each tile takes a block of whole rows instead, all 11 columns from the
// views' lower corner (`from_dim = 1`), B the even share (48) rounded up
// to rows of whole granules: 16 rows (704 bytes) on sample, 32 (1408) on
// spyre, 8 (352) on deep.
// RUN: ktflow-opt %S/../../Run/Inputs/column_blocks_96x11.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_align | FileCheck %s --check-prefix=COLUMNS48
// RUN: ktflow-opt %S/../../Run/Inputs/column_blocks_96x11.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_align | FileCheck %s --check-prefix=COLUMNS48
// RUN: ktflow-opt %S/../../Run/Inputs/column_blocks_96x11.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=COLUMNS64
// COLUMNS48: #[[ROWS:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 48, 0)>
// COLUMNS48: granule_blocks = #ktsched.decision<{block = 48 : i64, dim = 0 : i64, from_dim = 1 : i64}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 48, 11>
// COLUMNS48: "store"({{.*}}) attributes {transfers = [{dims = array<i64: 0, 1>, element_type = f32, origin = #[[ROWS]], shape = array<i64: 48, 11>, tensor = @arg3}]}
// COLUMNS64: affine_map<(d0, d1, d2, d3) -> (d0 * 64, 0)>
// COLUMNS64: granule_blocks = #ktsched.decision<{block = 64 : i64, dim = 0 : i64, from_dim = 1 : i64}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 64, 11>
//
// Negative twin: column blocks that leave columns 8..10 untouched (tiles of
// 4 columns on a grid of 2) keep the kernel's division, as whole rows
// would store what the kernel does not.
// RUN: ktflow-opt %S/../../Run/Inputs/column_blocks_partial_96x11.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_align | FileCheck %s --check-prefix=KEEP
