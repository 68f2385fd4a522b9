// A tensor stored to the tile's own scratchpad and read back, once
// through the same access tile and once through a wider view whose row 1
// is the second store's bytes, is the stored tensor: the loads, the
// scratchpad stores and their views go.
// RUN: ktflow-opt %s -ktsched-forward-local-stores | FileCheck %s

#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#g = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @stage
// CHECK-NOT: ct_local
// CHECK: %[[V:.*]] = ktdp.load
// CHECK: %[[SQ:.*]] = arith.mulf %[[V]], %[[V]]
// CHECK: arith.addf %[[V]], %[[SQ]]
// CHECK-NOT: ct_local
func.func @stage(%src: index, %dst: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l0 = arith.constant 1024 : index
  %l1 = arith.constant 1088 : index
  %t = ktdp.get_compute_tile_id : index
  %src_mem = ktdp.construct_memory_view %src, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %src_at = ktdp.construct_access_tile %src_mem[%t, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v = ktdp.load %src_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %sq = arith.mulf %v, %v : tensor<1x64xf16>
  %a_mem = ktdp.construct_memory_view %l0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %b_mem = ktdp.construct_memory_view %l1, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %a_at = ktdp.construct_access_tile %a_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %b_at = ktdp.construct_access_tile %b_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %v, %a_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  ktdp.store %sq, %b_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  %both = ktdp.construct_memory_view %l0, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local>} : memref<2x64xf16>
  %r1_at = ktdp.construct_access_tile %both[%c1, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %v_again = ktdp.load %a_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %sq_again = ktdp.load %r1_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %res = arith.addf %v_again, %sq_again : tensor<1x64xf16>
  %dst_mem = ktdp.construct_memory_view %dst, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #g, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %dst_at = ktdp.construct_access_tile %dst_mem[%t, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %res, %dst_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}

// A later store over the same bytes is what a load sees.
// CHECK-LABEL: func.func @latest
// CHECK: %[[A:.*]] = ktdp.load
// CHECK: %[[B:.*]] = arith.addf %[[A]], %[[A]]
// CHECK: ktdp.store %[[B]]
func.func @latest(%src: index, %dst: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %l0 = arith.constant 0 : index
  %src_mem = ktdp.construct_memory_view %src, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %a = ktdp.load %src_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %b = arith.addf %a, %a : tensor<1x64xf16>
  %l_mem = ktdp.construct_memory_view %l0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %l_at = ktdp.construct_access_tile %l_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %a, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  ktdp.store %b, %l_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  %back = ktdp.load %l_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %dst_mem = ktdp.construct_memory_view %dst, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %dst_at = ktdp.construct_access_tile %dst_mem[%c0, %c0] {
      access_tile_set = #row, access_tile_order = #lex} : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  ktdp.store %back, %dst_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
