// A view's tensor takes the valid shape: its sizes cut to its
// coordinate_set's box (ktir.md §5.2 masks the points outside the set),
// and keeps the sizes as `view_sizes`, how far its data reaches in memory.
// RUN: ktflow-opt %S/../../Run/Inputs/colsum_set_masks_tile.mlir %to_groups | FileCheck %s --check-prefix=NARROW
// NARROW: ktsched.tensor @arg0 {{.*}}shape = array<i64: 16, 128>, strides = array<i64: 192, 1>, view_sizes = array<i64: 16, 192>}
// Negative twin: a set as wide as the sizes leaves the shape whole and
// records no view_sizes.
// RUN: ktflow-opt %s %to_groups | FileCheck %s --check-prefix=WHOLE
// WHOLE: ktsched.tensor @arg0 {{.*}}shape = array<i64: 64>, strides = array<i64: 1>}
// WHOLE-NOT: view_sizes
#set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @whole(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xm = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %ym = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = #set, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %xt = ktdp.construct_access_tile %xm[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = #set, access_tile_order = #id} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %xv = ktdp.load %xt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  ktdp.store %xv, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
