// Round trip of every ktdp type: full forms in function signatures print
// canonically, and print -> parse -> print is stable.
// RUN: ktflow-opt %s > %t.1
// RUN: ktflow-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1

#groups = affine_set<(g) : (g >= 0, -g + 3 >= 0)>
// CHECK: #[[GROUPS:.+]] = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>

// CHECK-LABEL: func.func @access_tiles
// CHECK-SAME: !ktdp.access_tile<8x128xindex>
// CHECK-SAME: !ktdp.access_tile<?x64xindex>
// CHECK-SAME: !ktdp.access_tile<index>
// CHECK-SAME: !ktdp.access_tile<0x4xindex>
func.func @access_tiles(%a: !ktdp.access_tile<8x128xindex>,
                        %b: !ktdp.access_tile<?x64xindex>,
                        %c: !ktdp.access_tile<index>,
                        %d: !ktdp.access_tile< 0 x 4 x index >) {
  return
}

// The clauses may come in either order; granularity is printed first.
// CHECK-LABEL: func.func @runtime_args
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=32, upperbound=256>
// CHECK-SAME: !ktdp.runtime_arg<index, granularity=4, upperbound=64>
// CHECK-SAME: !ktdp.runtime_arg<i32>
// CHECK-SAME: !ktdp.runtime_arg<f16, upperbound=8>
// CHECK-SAME: !ktdp.runtime_arg<i64, granularity=2>
func.func @runtime_args(%a: !ktdp.runtime_arg<index, granularity=32, upperbound=256>,
                        %b: !ktdp.runtime_arg<index, upperbound = 64, granularity = 4>,
                        %c: !ktdp.runtime_arg<i32>,
                        %d: !ktdp.runtime_arg<f16, upperbound=8>,
                        %e: !ktdp.runtime_arg<i64, granularity=2>) {
  return
}

// Both tile_future forms give the same type; the older one (no
// parentheses) prints in the current form. In the full `!ktdp.` form the
// set is given through an alias (see docs/ktdp.md on `>=`).
// CHECK-LABEL: func.func @futures
// CHECK-SAME: !ktdp.tile_future<(tensor<1x64xf16>), groups = #[[GROUPS]]>
// CHECK-SAME: !ktdp.tile_future<(tensor<1x64xf16>), groups = #[[GROUPS]]>
// CHECK-SAME: !ktdp.tile_future<(tensor<1xf16>, tensor<f32>), groups = #[[GROUPS]]>
func.func @futures(%a: !ktdp.tile_future<(tensor<1x64xf16>), groups = #groups>,
                   %b: !ktdp.tile_future<tensor<1x64xf16>, groups = #groups>,
                   %c: !ktdp.tile_future<(tensor<1xf16>, tensor<f32>), groups = #groups>) {
  return
}
