// Negative twin of bind.test's deep case: on deep's vector unit every A row
// must be whole 64-byte accesses (each access of A holds elements of one
// row, broadcast one by one); K = 16 f16 is 32 bytes: diagnosed at the store.
// RUN: not ktflow-opt %s -ktsched-absorb-contraction -ktsched-check-input -ktsched-form-groups \
// RUN:   -ktsched-schedule-contraction=arch=deep -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: the contraction's A rows (K = 16 elements of 'f16') are not whole 64-byte accesses of @vpu
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %a_mem = ktdp.construct_memory_view %A, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>
  } : memref<16x16xf16>
  %b_mem = ktdp.construct_memory_view %B, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>
  } : memref<16x32xf16>
  %c_mem = ktdp.construct_memory_view %C, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>
  } : memref<16x32xf16>
  %a_at = ktdp.construct_access_tile %a_mem[%c0, %c0] {access_tile_set = #a_all, access_tile_order = #lex}
      : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %b_at = ktdp.construct_access_tile %b_mem[%c0, %c0] {access_tile_set = #b_all, access_tile_order = #lex}
      : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %a_t = ktdp.load %a_at : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %b_t = ktdp.load %b_at : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %p = linalg.matmul ins(%a_t, %b_t : tensor<16x16xf16>, tensor<16x32xf16>)
                     outs(%zero : tensor<16x32xf32>) -> tensor<16x32xf32>
  %h = arith.truncf %p : tensor<16x32xf32> to tensor<16x32xf16>
  %c_at = ktdp.construct_access_tile %c_mem[%c0, %c0] {access_tile_set = #c_all, access_tile_order = #lex}
      : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  ktdp.store %h, %c_at : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
  return
}
