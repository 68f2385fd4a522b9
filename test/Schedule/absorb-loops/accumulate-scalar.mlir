// A scalar iter_arg that takes the one element of each block's reduction
// (Triton's running sum) is absorbed like the tensor form: one reduction
// over the span of the adjacent column blocks, initialised with the
// carried scalar's init splat to the one-element result; the scalar uses
// after the loop move onto that tensor. Negative twin:
// accumulate-scalar-kept.mlir.
// RUN: ktflow-opt %s -allow-unregistered-dialect -split-input-file -ktsched-absorb-loops | FileCheck %s

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @scalar_sum
// CHECK-NOT: scf.for
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: ktdp.construct_access_tile {{.*}}ktsched.absorbed_loop = {carried = "accumulator", dim = 1 : i64, trips = 4 : i64}{{.*}} -> !ktdp.access_tile<1x256xindex>
// CHECK: %[[INIT:.*]] = tensor.splat %[[ONE]] : tensor<1xf32>
// CHECK: %[[SUM:.*]] = linalg.reduce { arith.addf } ins(%{{.*}} : tensor<1x256xf32>) outs(%[[INIT]] : tensor<1xf32>) dimensions = [1]
// CHECK: %[[NARROW:.*]] = arith.truncf %[[SUM]] : tensor<1xf32> to tensor<1xf16>
// CHECK-NOT: tensor.extract
// CHECK: "test.use"(%[[NARROW]])
func.func @scalar_sum(%x: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %one) -> (f32) {
    %at = ktdp.construct_access_tile %x_mem[%r, %k] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
    %b16 = ktdp.load %at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %b = arith.extf %b16 : tensor<1x64xf16> to tensor<1x64xf32>
    %z = tensor.splat %zero : tensor<1xf32>
    %part = linalg.reduce { arith.addf } ins(%b : tensor<1x64xf32>)
              outs(%z : tensor<1xf32>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<1xf32>
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  %s16 = arith.truncf %sum : f32 to f16
  %t = tensor.from_elements %s16 : tensor<1xf16>
  "test.use"(%t) : (tensor<1xf16>) -> ()
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// The carried value on the left of the combine, a maximum from -inf.
// CHECK-LABEL: func.func @scalar_max
// CHECK-NOT: scf.for
// CHECK: ktsched.absorbed_loop = {carried = "accumulator", dim = 1 : i64, trips = 4 : i64}
// CHECK: %[[MAX:.*]] = linalg.reduce { arith.maximumf } ins(%{{.*}} : tensor<1x256xf16>) outs(%{{.*}} : tensor<1xf16>) dimensions = [1]
// CHECK-NOT: tensor.extract
// CHECK: "test.use"(%[[MAX]])
func.func @scalar_max(%x: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %ninf = arith.constant 0xFC00 : f16
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %mx = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %ninf) -> (f16) {
    %at = ktdp.construct_access_tile %x_mem[%r, %k] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
    %b = ktdp.load %at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1xf16>
    %i = linalg.fill ins(%ninf : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
    %part = linalg.reduce { arith.maximumf } ins(%b : tensor<1x64xf16>)
              outs(%i : tensor<1xf16>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<1xf16>
    %next = arith.maximumf %acc, %p : f16
    scf.yield %next : f16
  }
  %t = tensor.splat %mx : tensor<1xf16>
  "test.use"(%t) : (tensor<1xf16>) -> ()
  return
}
