// Negative twin of fold.mlir: a condition that differs between grid tiles
// (tile ids 0..3 < 2) or that is not an affine comparison stays.
// RUN: ktflow-opt %s -allow-unregistered-dialect -ktsched-fold-conditions | FileCheck %s

// CHECK-LABEL: func.func @differs
// CHECK: scf.if
// CHECK: scf.if
func.func @differs(%flag: i1) attributes {grid = [4]} {
  %c2 = arith.constant 2 : index
  %pid = ktdp.get_compute_tile_id : index
  %lt = arith.cmpi slt, %pid, %c2 : index
  scf.if %lt {
    "test.then"() : () -> ()
  }
  scf.if %flag {
    "test.flag"() : () -> ()
  }
  return
}
