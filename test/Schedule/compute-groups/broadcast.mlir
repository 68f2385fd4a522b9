// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// Broadcasts disappear into the operands' dims: a column vector runs
// along dimension 0, a row vector along dimension 1, a one-element tile
// collapsed to a scalar along none (-1), a scalar argument is a
// scalar_arg. Tile origins are maps of (g0, g1, g2, iv), and the scf.for
// is recorded on the group.
// RUN: ktflow-opt %S/../Inputs/odd_rows_loop.mlir %to_groups | FileCheck %s --check-prefix=LOOP
// RUN: ktflow-opt %examples/ktir/03_broadcast_row_and_scalar.mlir %to_groups | FileCheck %s --check-prefix=SCALAR
// LOOP-DAG: #[[ROW_ORIGIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3 * 5, 0)>
// LOOP-DAG: #[[COL_ORIGIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3 * 5)>
// LOOP-DAG: #[[LB:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0)>
// LOOP: ktsched.group @g0 attributes {element_type = f16, loop = {lb = #[[LB]], step = 2 : i64, ub = #{{.*}}}, reduce_dims = array<i64>, space = array<i64: 5, 192>}
// LOOP-DAG: ktsched.load @arg0 {dims = array<i64: 0, 1>, origin = #[[ROW_ORIGIN]], shape = array<i64: 5, 192>}
// LOOP-DAG: ktsched.load @arg1 {dims = array<i64: 0>, origin = #[[COL_ORIGIN]], shape = array<i64: 5>}
// LOOP-DAG: ktsched.load @arg2 {dims = array<i64: 1>, origin = #{{.*}}, shape = array<i64: 192>}
// SCALAR-DAG: ktsched.load @arg2 {dims = array<i64: -1>, origin = #{{.*}}, shape = array<i64: 1>}
// SCALAR-DAG: ktsched.load @arg1 {dims = array<i64: 1>, origin = #{{.*}}, shape = array<i64: 128>}
// SCALAR-DAG: ktsched.scalar_arg {arg = 4 : i64, value_type = f16}
