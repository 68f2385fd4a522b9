// RUN: not ktflow check %s 2>&1 | FileCheck %s
// CHECK: check-error.mlir:[[@LINE+2]]:{{[0-9]+}}: error:
func.func @k() {
  %t = ktdp.no_such_op : index
  return
}
