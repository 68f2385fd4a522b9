// The work of each grid tile is dealt out over the sub-cores sharing a
// core's scratchpad (sample 2, spyre 2, deep 1): along the outermost
// splittable dimension, balanced, the first instances taking the
// remainder; along the innermost dimension in whole vectors; reduced
// dimensions are never split, and a reduction's results are split only in
// whole granules of global memory's DMA transfers.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=EVEN
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=EVEN
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_split | FileCheck %s --check-prefix=ONE
// RUN: ktflow-opt %S/../Inputs/odd_rows_loop.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_split | FileCheck %s --check-prefix=REMAINDER
// RUN: ktflow-opt %S/../Inputs/reduce_f32.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=REDUCED
// RUN: ktflow-opt %s %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=VECTORS
// RUN: ktflow-opt %S/../../Run/Inputs/row_reduce_f16.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_split | FileCheck %s --check-prefix=GRANULES
// EVEN: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 8, 8>}, "heuristic">
// ONE: split = #ktsched.decision<{dim = 0 : i64, instances = 1 : i64, shares = array<i64: 16>}, "heuristic">
// odd_rows_loop's 5 rows carry a column operand (one f16 per row): its
// slice moves in whole 128-byte granules, 64 rows, so the rows are one unit
// and the 3 vectors of 64 columns are split instead, 2 + 1 (the negative
// twin is relu_rows above, whose rows split).
// REMAINDER: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 128, 64>}, "heuristic">
// The column sums reduce dimension 0, so they split 64 columns as 2 + 2
// vectors of 16 f32; the 8 row maxima (32 bytes) are less than one 64-byte
// DMA granule of @ddr, so one sub-core computes them all.
// REDUCED: ktsched.group @g0
// REDUCED: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 32, 32>}, "heuristic">
// REDUCED: ktsched.group @g1
// REDUCED: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 8, 0>}, "heuristic">
// 80 row results of f16 are 2.5 granules of 64 bytes: shares of 2 granules
// and the remaining half (the negative twin is the 8 f32 maxima above).
// GRANULES: split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 64, 16>}, "heuristic">
// One row of 160 f16 is 5 vectors of 32: 3 and 2 vectors.
// VECTORS: split = #ktsched.decision<{dim = 1 : i64, instances = 2 : i64, shares = array<i64: 96, 64>}, "heuristic">
#set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 159 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @one_row(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [1, 160], strides: [160, 1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<1x160xf16>
  %xt = ktdp.construct_access_tile %xm[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf16> -> !ktdp.access_tile<1x160xindex>
  %yt = ktdp.construct_access_tile %ym[%c0, %c0] {access_tile_set = #set, access_tile_order = #id} : memref<1x160xf16> -> !ktdp.access_tile<1x160xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<1x160xindex> -> tensor<1x160xf16>
  %a = math.absf %xv : tensor<1x160xf16>
  ktdp.store %a, %yt : tensor<1x160xf16>, !ktdp.access_tile<1x160xindex>
  return
}
