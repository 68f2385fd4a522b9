// RUN: ktflow check %s | FileCheck %s
// CHECK: check-ok.mlir: ok
func.func @k() attributes {grid = [1]} {
  %t = ktdp.get_compute_tile_id : index
  return
}
