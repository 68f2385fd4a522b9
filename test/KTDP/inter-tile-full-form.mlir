// The examples of spec §5.9 as written there: the full
// `!ktdp.tile_future<...>` form with an inline groups set containing `>=`
// parses in the op positions of §3.4 (produce's result, reduce's and
// consume's operand type), not only the stripped form; the printed form
// re-parses to the same text.
// RUN: ktflow-opt %s > %t.1
// RUN: ktflow-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1
// RUN: not ktflow-opt %S/Inputs/bad-full-future.mlir -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: #[[PAIRS:.+]] = affine_set<(d0)[s0] : (d0 - s0 * 2 >= 0, -d0 + s0 * 2 + 1 >= 0)>
// CHECK: #[[GROUPS:.+]] = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
// CHECK-LABEL: func.func @allreduce
func.func @allreduce(%partial: tensor<1xf16>, %zero1: tensor<1xf16>) attributes {grid = [4]} {
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[PAIRS]] -> <(tensor<1xf16>), groups = #[[GROUPS]]>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
         -> !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #[[PAIRS]], identity(%{{.*}} : tensor<1xf16>) : <(tensor<1xf16>), groups = #[[GROUPS]]> -> tensor<1xf16>
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>,
         identity(%zero1 : tensor<1xf16>)
         : !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
    ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
      %e = tensor.empty() : tensor<1xf16>
      %sum = linalg.add ins(%l, %r : tensor<1xf16>, tensor<1xf16>) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      ktdp.yield_reduced %sum : tensor<1xf16>
  }
  // The older produce form, in full.
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #[[PAIRS]] -> <(tensor<1xf16>), groups = #[[GROUPS]]>
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)> : tensor<1xf16>
         -> !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #[[PAIRS]], producer_dependency_per_consumer = #{{.*}} : <(tensor<1xf16>), groups = #[[GROUPS]]> -> tensor<1xf16>
  %c = ktdp.inter_tile_consume(%f2) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)>
     : !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16>
  return
}

// Errors inside a full-form body are still reported at their place.
// BAD: bad-full-future.mlir:3:{{[0-9]+}}: error: custom op 'ktdp.inter_tile_produce' tile_future partial types must be ranked tensors, got 'f16'
// BAD: bad-full-future.mlir:12:{{[0-9]+}}: error: unbalanced '(' character in pretty dialect name
