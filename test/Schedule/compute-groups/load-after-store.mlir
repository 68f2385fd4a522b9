// Forming groups takes no description (no arch option): fusion, operand
// dims and tile origins come from the KTIR alone; units and lanes are
// chosen later by -ktsched-initial-pipeline (../initial-pipeline).
// A group loads all its inputs before it stores, so a load that follows a
// store to the same kernel argument in program order is rejected (it would
// read the old contents); independent stores of two shapes form two groups.
// RUN: ktflow-opt %S/../../Run/Inputs/two_groups_grid2.mlir %to_groups | FileCheck %s --check-prefix=TWO
// RUN: not ktflow-opt %S/../Inputs/load_after_store.mlir %to_groups 2>&1 | FileCheck %s --check-prefix=BACK
// TWO: ktsched.group @g0 attributes {{{.*}}space = array<i64: 32, 64>}
// TWO: ktsched.group @g1 attributes {{{.*}}space = array<i64: 32, 128>}
// BACK: load_after_store.mlir:67:13: error: load of kernel argument 3 after a store to it
// BACK: load_after_store.mlir:64:5: note: the store
