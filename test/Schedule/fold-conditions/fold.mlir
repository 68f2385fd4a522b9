// An scf.if whose condition holds on every grid tile (tile ids 0..3 < 8)
// is replaced by its then-branch; one that holds on none by its
// else-branch, its yielded value the if's result. Negative twin:
// fold-kept.mlir.
// RUN: ktflow-opt %s -allow-unregistered-dialect -ktsched-fold-conditions | FileCheck %s

// CHECK-LABEL: func.func @guarded
// CHECK-NOT: scf.if
// CHECK: %[[T:.*]] = arith.muli %{{.*}}, %c16
// CHECK: "test.use"(%[[T]])
// CHECK: "test.then"
// CHECK-NOT: "test.else"
func.func @guarded() attributes {grid = [4]} {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %pid = ktdp.get_compute_tile_id : index
  %low = arith.cmpi sge, %pid, %c8 : index
  %first = scf.if %low -> (index) {
    "test.else"() : () -> ()
    scf.yield %c8 : index
  } else {
    %t = arith.muli %pid, %c16 : index
    scf.yield %t : index
  }
  "test.use"(%first) : (index) -> ()
  %in = arith.cmpi slt, %pid, %c8 : index
  scf.if %in {
    "test.then"() : () -> ()
  }
  return
}
