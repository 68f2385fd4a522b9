// A group whose rows are not whole vectors, over tensors that are dense
// across the rows of a grid tile, becomes one flat run before the split and
// tile selection: a one-dimensional space of rows x columns, transfers of
// one-dimensional views (@argN_flat: same argument, stride 1), the old
// space in the `flatten` decision. A scalar operand stays as it is.
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_100x11.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_flatten | FileCheck %s --check-prefix=FLAT
// FLAT: ktsched.tensor @arg0_flat {arg = 0 : i64, element_type = f16, lower_corner = array<i64: 0>, offset = 0 : i64, shape = array<i64: 1100>, strides = array<i64: 1>}
// FLAT: ktsched.group @g0 attributes {element_type = f16, flatten = #ktsched.decision<{space = array<i64: 100, 11>}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 1100>}
// FLAT: ktsched.stage "load" attributes {transfers = [{dims = array<i64: 0>, element_type = f16, origin = #map, shape = array<i64: 1100>, tensor = @arg0_flat}, {dims = array<i64: -1>, element_type = f16, origin = #map, shape = array<i64: 1>, tensor = @arg1}]}
// FLAT: ktsched.stage "store"({{.*}}) attributes {transfers = [{dims = array<i64: 0>, {{.*}}tensor = @arg2_flat}, {dims = array<i64: 0>, {{.*}}tensor = @arg3_flat}]}
//
// Each grid tile of a split into row blocks is its own run (origin 550 t;
// flattening alone: the pipeline first re-divides these tiles into blocks
// of whole granules, test/Schedule/align-blocks).
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_50x11_grid2.mlir %to_groups -ktsched-initial-pipeline=arch=sample -ktsched-flatten | FileCheck %s --check-prefix=BLOCKS
// BLOCKS: #map = affine_map<(d0, d1, d2, d3) -> (d0 * 550)>
// BLOCKS: flatten = #ktsched.decision<{space = array<i64: 50, 11>}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 550>
//
// A column block on a grid of one tile: its origin names the tile id
// (`t * 9`), whose only value is 0, so the block spans whole rows.
// RUN: ktflow-opt %S/../../Run/Inputs/column_block_grid1_4x9.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_flatten | FileCheck %s --check-prefix=GRID1
// GRID1: flatten = #ktsched.decision<{space = array<i64: 4, 9>}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 36>
//
// A row loop whose iterations move adjacent rows, equally often on every
// grid tile, is absorbed: no loop is left, the run covers its 8 rows
// (flattening alone: in the pipeline ktsched-align-blocks takes the loop's
// rows into one block first, as its 620-byte rows are not whole granules).
// RUN: ktflow-opt %S/../../Run/Inputs/row_loop_8x310.mlir %to_groups -ktsched-initial-pipeline=arch=deep -ktsched-flatten | FileCheck %s --check-prefix=LOOP
// LOOP: ktsched.group @g0 attributes {element_type = f16, flatten = #ktsched.decision<{loop_trips = 8 : i64, space = array<i64: 1, 310>}, "heuristic">, reduce_dims = array<i64>, space = array<i64: 2480>}
// LOOP-NOT: loop =
//
// Negative twins, left alone: a row operand (its vector depends on the
// column); a cyclic loop over two grid tiles (iterations two rows apart,
// and one row per iteration is one run already); rows that are whole
// vectors (relu_rows: 64 columns of f16 on sample).
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_row_operand.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_flatten | FileCheck %s --check-prefix=KEEP
// RUN: ktflow-opt %S/../../Run/Inputs/row_loop_8x310_cyclic.mlir %to_groups -ktsched-initial-pipeline=arch=sample -ktsched-flatten | FileCheck %s --check-prefix=KEEP
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_flatten | FileCheck %s --check-prefix=KEEP
// KEEP-NOT: _flat
// KEEP: ktsched.group @g0
// KEEP-NOT: flatten
// KEEP: space = array<i64: {{[0-9]+}}, {{[0-9]+}}>
//
// Only the initial pipeline's form is rewritten: after path expansion the
// same group is left alone (no crash on other forms, nothing to diagnose).
// RUN: ktflow-opt %S/../../Run/Inputs/contiguous_100x11.mlir %to_groups -ktsched-initial-pipeline=arch=sample -ktsched-expand-paths -ktsched-flatten | FileCheck %s --check-prefix=KEEP
