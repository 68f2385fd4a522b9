// Negative twin of absorb.mlir: K loops whose union is not one contraction
// stay for the input check to diagnose — a B block every iteration reads
// again (it does not advance along K), and blocks whose union passes the
// view's end (masked points KTIR loads as zeros).
// RUN: ktflow-opt %s -split-input-file -ktsched-absorb-contraction | FileCheck %s

#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @b_reread
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @b_reread(%A: index, %B: index) -> tensor<16x32xf32> attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a_mem = ktdp.construct_memory_view %A, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  %b_mem = ktdp.construct_memory_view %B, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x32xf16>
  %acc0 = arith.constant dense<0.0> : tensor<16x32xf32>
  %acc = scf.for %k0 = %c0 to %c64 step %c16 iter_args(%part = %acc0) -> (tensor<16x32xf32>) {
    %a_at = ktdp.construct_access_tile %a_mem[%c0, %k0] {
        access_tile_set = #a_blk, access_tile_order = #lex
    } : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%c0, %c0] {
        access_tile_set = #b_blk, access_tile_order = #lex
    } : memref<64x32xf16> -> !ktdp.access_tile<16x32xindex>
    %a_t = ktdp.load %a_at : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    %b_t = ktdp.load %b_at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %upd = linalg.matmul ins(%a_t, %b_t : tensor<16x16xf16>, tensor<16x32xf16>)
                         outs(%part : tensor<16x32xf32>) -> tensor<16x32xf32>
    scf.yield %upd : tensor<16x32xf32>
  }
  return %acc : tensor<16x32xf32>
}

// -----

#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @past_the_end
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: ktsched.absorbed_loop
func.func @past_the_end(%A: index, %B: index) -> tensor<16x32xf32> attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c80 = arith.constant 80 : index
  %a_mem = ktdp.construct_memory_view %A, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>
  } : memref<16x64xf16>
  %b_mem = ktdp.construct_memory_view %B, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>
  } : memref<64x32xf16>
  %acc0 = arith.constant dense<0.0> : tensor<16x32xf32>
  %acc = scf.for %k0 = %c0 to %c80 step %c16 iter_args(%part = %acc0) -> (tensor<16x32xf32>) {
    %a_at = ktdp.construct_access_tile %a_mem[%c0, %k0] {
        access_tile_set = #a_blk, access_tile_order = #lex
    } : memref<16x64xf16> -> !ktdp.access_tile<16x16xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%k0, %c0] {
        access_tile_set = #b_blk, access_tile_order = #lex
    } : memref<64x32xf16> -> !ktdp.access_tile<16x32xindex>
    %a_t = ktdp.load %a_at : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
    %b_t = ktdp.load %b_at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
    %upd = linalg.matmul ins(%a_t, %b_t : tensor<16x16xf16>, tensor<16x32xf16>)
                         outs(%part : tensor<16x32xf32>) -> tensor<16x32xf32>
    scf.yield %upd : tensor<16x32xf32>
  }
  return %acc : tensor<16x32xf32>
}
