// `ktflow check` checks the grid of every kernel (spec §1.3): 1 to 3
// positive integers, as a list or array<i64: ...>.
// RUN: ktflow check %s --print | FileCheck %s
// RUN: not ktflow check %S/Inputs/bad-grid.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @list
// CHECK-SAME: grid = [2, 3]
func.func @list() attributes {grid = [2, 3]} {
  %x, %y = ktdp.get_compute_tile_id : index, index
  return
}
// CHECK-LABEL: func.func @dense
// CHECK-SAME: grid = array<i64: 4, 1, 2>
func.func @dense() attributes {grid = array<i64: 4, 1, 2>} {
  %t = ktdp.get_compute_tile_id : index
  return
}

// BAD: bad-grid.mlir:2:1: error: grid entries must be positive, got 0 (spec §1.3)
// BAD: bad-grid.mlir:5:1: error: grid must have 1 to 3 entries, got 4 (spec §1.3)

// ct_id is checked against the grid of the enclosing kernel by `ktflow check`.
// RUN: not ktflow check %S/Inputs/ct-id-over-grid.mlir 2>&1 | FileCheck %s --check-prefix=CTID
// CTID-NOT: ct-id-over-grid.mlir:4:
// CTID: ct-id-over-grid.mlir:7:{{[0-9]+}}: error: 'ktdp.construct_memory_view' op memory space ct_id = 8 is not less than the number of tiles (8) of the enclosing grid (spec §4.1)
// CTID-NOT: see current operation
