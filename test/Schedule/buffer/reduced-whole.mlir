// A row reduction keeps its reduced dimension whole in every tile, so a
// row whose smallest tile overflows a memory's budget is diagnosed with
// a note naming that dimension and the missing capability (an accumulator
// kept across a row's tiles): on sample, a 131072-element f16 row (256 KiB,
// twice at depth 2) against 126976 bytes per sub-core. Twin: a row of
// 16384 elements fits and is buffered.
// RUN: not ktflow-opt %s -split-input-file %to_groups -ktsched-initial-pipeline=arch=sample %to_buffer 2>&1 | FileCheck %s

// CHECK: error: buffers of group @g0 at depth 2 need at least {{[0-9]+}} bytes of @spad per sub-core, but only 126976 bytes are available
// CHECK: note: the reduced dimension 1 (131072 elements) is whole in every tile: an accumulator kept across the tiles of a reduction is not built
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 131071 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 131071 >= 0)>
#y_all = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @long_rows(%x: index, %y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [32, 131072], strides: [131072, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<32x131072xf16>
  %y_mem = ktdp.construct_memory_view %y, sizes: [32], strides: [1] {
      coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
  } : memref<32xf16>
  %x_at = ktdp.construct_access_tile %x_mem[%r, %c0] {
      access_tile_set = #row, access_tile_order = #lex
  } : memref<32x131072xf16> -> !ktdp.access_tile<1x131072xindex>
  %xv = ktdp.load %x_at : !ktdp.access_tile<1x131072xindex> -> tensor<1x131072xf16>
  %z = arith.constant dense<0.0> : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%xv : tensor<1x131072xf16>)
         outs(%z : tensor<1xf16>) dimensions = [1]
  %y_at = ktdp.construct_access_tile %y_mem[%r] {
      access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>
  } : memref<32xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %y_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}

// -----

// CHECK-LABEL: ktsched.kernel @short_rows
// CHECK: ktsched.group @g0 {{.*}}reduce_dims = array<i64: 1>
// CHECK: ktsched.buffer {{.*}}depth = #ktsched.decision<2 : i64, "heuristic">
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 16383 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 16383 >= 0)>
#y_all = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%x: index, %y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %r = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [32, 16384], strides: [16384, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<32x16384xf16>
  %y_mem = ktdp.construct_memory_view %y, sizes: [32], strides: [1] {
      coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
  } : memref<32xf16>
  %x_at = ktdp.construct_access_tile %x_mem[%r, %c0] {
      access_tile_set = #row, access_tile_order = #lex
  } : memref<32x16384xf16> -> !ktdp.access_tile<1x16384xindex>
  %xv = ktdp.load %x_at : !ktdp.access_tile<1x16384xindex> -> tensor<1x16384xf16>
  %z = arith.constant dense<0.0> : tensor<1xf16>
  %s = linalg.reduce { arith.addf } ins(%xv : tensor<1x16384xf16>)
         outs(%z : tensor<1xf16>) dimensions = [1]
  %y_at = ktdp.construct_access_tile %y_mem[%r] {
      access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>
  } : memref<32xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %y_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}
