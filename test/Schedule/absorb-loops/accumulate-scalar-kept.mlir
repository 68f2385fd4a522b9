// Negative twin of accumulate-scalar.mlir: scalar iter_args that are not
// the accumulation of a block's one-element reduction stay loops, for the
// input check to diagnose.
// RUN: ktflow-opt %s -allow-unregistered-dialect -split-input-file -ktsched-absorb-loops | FileCheck %s

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// A sum carried by a maximum: not an accumulation of the reduction.
// CHECK-LABEL: func.func @combined_by_max
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @combined_by_max(%x: index, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c320 = arith.constant 320 : index
  %zero = arith.constant 0.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (f32) {
    %at = ktdp.construct_access_tile %x_mem[%r, %k] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
    %b16 = ktdp.load %at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %b = arith.extf %b16 : tensor<1x64xf16> to tensor<1x64xf32>
    %z = tensor.splat %zero : tensor<1xf32>
    %part = linalg.reduce { arith.addf } ins(%b : tensor<1x64xf32>)
              outs(%z : tensor<1xf32>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<1xf32>
    %next = arith.maximumf %acc, %p : f32
    scf.yield %next : f32
  }
  "test.use"(%sum) : (f32) -> ()
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// An init that is a kernel argument, not a constant.
// CHECK-LABEL: func.func @init_from_argument
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @init_from_argument(%x: index, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c320 = arith.constant 320 : index
  %zero = arith.constant 0.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %s) -> (f32) {
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
  "test.use"(%sum) : (f32) -> ()
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// The carried scalar used inside the loop by more than its combine.
// CHECK-LABEL: func.func @carried_used_inside
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @carried_used_inside(%x: index, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c320 = arith.constant 320 : index
  %zero = arith.constant 0.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (f32) {
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
    "test.use"(%acc) : (f32) -> ()
    scf.yield %next : f32
  }
  "test.use"(%sum) : (f32) -> ()
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// Blocks past the view's end (columns 256 to 319): KTIR loads the masked
// points as zeros and sums exp(0) = 1 for each, the lowering folds valid
// elements only.
// CHECK-LABEL: func.func @past_the_view
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @past_the_view(%x: index, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c320 = arith.constant 320 : index
  %zero = arith.constant 0.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c320 step %c64 iter_args(%acc = %zero) -> (f32) {
    %at = ktdp.construct_access_tile %x_mem[%r, %k] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
    %b16 = ktdp.load %at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %b = arith.extf %b16 : tensor<1x64xf16> to tensor<1x64xf32>
    %e = math.exp %b : tensor<1x64xf32>
    %z = tensor.splat %zero : tensor<1xf32>
    %part = linalg.reduce { arith.addf } ins(%e : tensor<1x64xf32>)
              outs(%z : tensor<1xf32>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<1xf32>
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  "test.use"(%sum) : (f32) -> ()
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#blk2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// A reduction of two rows: its result is not one element a scalar carries.
// CHECK-LABEL: func.func @two_rows
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @two_rows(%x: index, %s: f32) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c320 = arith.constant 320 : index
  %zero = arith.constant 0.0 : f32
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf16>
  %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (f32) {
    %at = ktdp.construct_access_tile %x_mem[%r, %k] {
        access_tile_set = #blk2, access_tile_order = #lex
    } : memref<8x256xf16> -> !ktdp.access_tile<2x64xindex>
    %b16 = ktdp.load %at : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %b = arith.extf %b16 : tensor<2x64xf16> to tensor<2x64xf32>
    %z = tensor.splat %zero : tensor<2xf32>
    %part = linalg.reduce { arith.addf } ins(%b : tensor<2x64xf32>)
              outs(%z : tensor<2xf32>) dimensions = [1]
    %p = tensor.extract %part[%c0] : tensor<2xf32>
    %next = arith.addf %acc, %p : f32
    scf.yield %next : f32
  }
  "test.use"(%sum) : (f32) -> ()
  return
}
