// A description file without a device is an error.
// RUN: not ktflow arch check %s 2>&1 | FileCheck %s

// CHECK: no-device.mlir:[[@LINE+1]]:1: error: no ktarch.device in
module {
}
