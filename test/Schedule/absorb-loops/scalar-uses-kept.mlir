// Negative twin of scalar-uses.mlir: scalar uses without a tensor
// counterpart stay scalar, read by the extract, for the input check to
// diagnose: a compare, an operand computed from an index (neither a
// constant nor a kernel argument), and an extract from two elements.
// RUN: ktflow-opt %s -allow-unregistered-dialect -ktsched-absorb-loops | FileCheck %s

// CHECK-LABEL: func.func @kept
// CHECK: %[[S:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xf32>
// CHECK: arith.cmpf olt, %[[S]]
// CHECK: arith.mulf %[[S]], %{{.*}} : f32
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xf32>
// CHECK-NEXT: arith.truncf %{{.*}} : f32 to f16
func.func @kept(%v: tensor<1x4xf32>, %w: tensor<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %z = tensor.splat %zero : tensor<1xf32>
  %sum = linalg.reduce { arith.addf } ins(%v : tensor<1x4xf32>)
           outs(%z : tensor<1xf32>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf32>
  %small = arith.cmpf olt, %s, %zero : f32
  "test.use"(%small) : (i1) -> ()
  %n64 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %n64 : i64 to f32
  %scaled = arith.mulf %s, %nf : f32
  "test.use"(%scaled) : (f32) -> ()
  %w0 = tensor.extract %w[%c0] : tensor<2xf32>
  %w16 = arith.truncf %w0 : f32 to f16
  "test.use"(%w16) : (f16) -> ()
  return
}
