// Scalars read from one-element tensors (an absorbed scalar accumulation's
// result, here a reduction's) move onto the tensor: element-wise scalar ops
// with constants and scalar kernel arguments become the same ops on the
// one-element tensor, from_elements and a splat of its type become the
// tensor, and a splat to a row becomes a broadcast. Negative twin:
// scalar-uses-kept.mlir.
// RUN: ktflow-opt %s -allow-unregistered-dialect -ktsched-absorb-loops | FileCheck %s

// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: %[[EPS:[^:]*]]: f32
// CHECK: %[[SUM:.*]] = linalg.reduce
// CHECK: %[[SCALE:.*]] = arith.constant dense<2.500000e-01> : tensor<1xf32>
// CHECK: %[[MEAN:.*]] = arith.mulf %[[SUM]], %[[SCALE]] : tensor<1xf32>
// CHECK: %[[EPSV:.*]] = tensor.splat %[[EPS]] : tensor<1xf32>
// CHECK: %[[SHIFT:.*]] = arith.addf %[[MEAN]], %[[EPSV]] : tensor<1xf32>
// CHECK: %[[INV:.*]] = math.rsqrt %[[SHIFT]] : tensor<1xf32>
// CHECK: %[[NARROW:.*]] = arith.truncf %[[INV]] : tensor<1xf32> to tensor<1xf16>
// CHECK-NOT: tensor.extract
// CHECK: "test.use"(%[[NARROW]])
// CHECK: %[[ROW:.*]] = linalg.broadcast ins(%[[INV]] : tensor<1xf32>) outs(%{{.*}} : tensor<1x64xf32>) dimensions = [1]
// CHECK: "test.use"(%[[ROW]])
func.func @epilogue(%v: tensor<1x4xf32>, %eps: f32) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %z = tensor.splat %zero : tensor<1xf32>
  %sum = linalg.reduce { arith.addf } ins(%v : tensor<1x4xf32>)
           outs(%z : tensor<1xf32>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf32>
  %mean = arith.mulf %s, %quarter : f32
  %shifted = arith.addf %mean, %eps : f32
  %inv = math.rsqrt %shifted : f32
  %inv16 = arith.truncf %inv : f32 to f16
  %t = tensor.from_elements %inv16 : tensor<1xf16>
  "test.use"(%t) : (tensor<1xf16>) -> ()
  %row = tensor.splat %inv : tensor<1x64xf32>
  "test.use"(%row) : (tensor<1x64xf32>) -> ()
  return
}
