// Verifier rules of the experimental inter-tile ops (spec §3.3, §5.9).
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>

func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{producer_tiles_per_group must be a set (i)[g], got 1 dimension(s) and 0 symbol(s) (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i) : (i >= 0, -i + 3 >= 0)> -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{result must have exactly one use (its delivery op), has 0 (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{result must have exactly one use (its delivery op), has 2 (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  %d = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

// Groups 0 and 1 both claim tile 1.
#overlap = affine_set<(i)[g] : (i - g >= 0, -i + g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{tile 1 is a producer of both group 0 and group 1; producer sets must be disjoint (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #overlap -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #overlap, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)> : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{region must have exactly one index argument (the group index) (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index, %extra: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<2xf16>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    // expected-error @+1 {{yields 1 value(s) that must match the future's partial types 'tensor<1xf16>' exactly (spec §5.9)}}
    ktdp.yield_partial %p : tensor<2xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{partial type 'tensor<2xf16>' does not match the tile_future's partial types (spec §5.9)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs : tensor<2xf16> -> !ktdp.tile_future<tensor<1xf16>, groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  return
}

// -----

func.func @f(%p: tensor<1xf16>) {
  // expected-error @+1 {{expects parent op 'ktdp.inter_tile_produce'}}
  ktdp.yield_partial %p : tensor<1xf16>
  return
}

// -----

func.func @f(%p: tensor<1xf16>) {
  // expected-error @+1 {{expects parent op 'ktdp.inter_tile_reduce'}}
  ktdp.yield_reduced %p : tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>) {
  // expected-error @+1 {{result types 'tensor<2xf16>' must equal the future's partial types 'tensor<1xf16>' (spec §5.9)}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<2xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf32>) {
  // expected-error @+1 {{identity types 'tensor<1xf32>' must equal the result types 'tensor<1xf16>' (spec §5.9)}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf32>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>) {
  // expected-error @+1 {{combiner must take 2 arguments (the left then the right partials) of types 'tensor<1xf16>', 'tensor<1xf16>' (spec §5.9)}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>):
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>) {
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    // expected-error @+1 {{must yield values of the partial types 'tensor<1xf16>' (spec §5.9)}}
    ktdp.yield_reduced
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>, %t: !ktdp.access_tile<1xindex>) {
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    // expected-error @+1 {{has side effects, but the combiner of ktdp.inter_tile_reduce must be side-effect free (spec §5.9)}}
    ktdp.store %l, %t : tensor<1xf16>, <1xindex>
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>) {
  // expected-error @+1 {{consumer_tiles_per_group must be a set (i)[g], got 2 dimension(s) and 1 symbol(s) (spec §5.9)}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i, j)[g] : (i == 0, j == 0)>, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>, %z: tensor<1xf16>) {
  // expected-error @+1 {{producer_dependency_per_consumer must be a set (p)[c] or (p)[c, g], got 1 dimension(s) and 3 symbol(s) (spec §5.9)}}
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #pairs, producer_dependency_per_consumer = affine_set<(p)[a, b, c] : (p == 0)>, identity(%z : tensor<1xf16>) : <(tensor<1xf16>), groups = #two> -> tensor<1xf16> {
  ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
    ktdp.yield_reduced %l : tensor<1xf16>
  }
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%f: !ktdp.tile_future<(tensor<1xf16>), groups = #two>) {
  // expected-error @+1 {{result types 'tensor<1xf32>' must equal the future's partial types 'tensor<1xf16>' (spec §5.9)}}
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf32>
  return
}

// -----

// Each group has two producers, so the consumer needs a dependency set.
#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  // expected-error @+1 {{group 0 has 2 producers, so producer_dependency_per_consumer is required (spec §5.9)}}
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

// Consumer c receives from every producer p >= c: tile 0 gets two senders.
#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#two = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #two> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  // expected-error @+1 {{consumer tile 0 of group 0 receives from 2 producers; it must receive from exactly one (spec §5.9)}}
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c >= 0)> : <(tensor<1xf16>), groups = #two> -> tensor<1xf16>
  return
}

// -----

#pairs = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
#all = affine_set<(g) : (g >= 0)>
func.func @f(%p: tensor<1xf16>) attributes {grid = [4]} {
  // expected-error @+1 {{the tile_future's groups set is unbounded (spec §4.2)}}
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #pairs -> <(tensor<1xf16>), groups = #all> {
  ^bb0(%gid: index):
    ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #pairs, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)> : <(tensor<1xf16>), groups = #all> -> tensor<1xf16>
  return
}
