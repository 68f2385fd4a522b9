// inter_tile_produce + inter_tile_reduce as an all-reduce over pairs of
// tiles: tile t offers t + 1; group g = {2g, 2g+1} sums its partials, and
// every consumer stores its group's sum at out[t]. Tile 4 is in no producer
// or consumer set: it contributes nothing and does not wait.
// RUN: ktflow interp %s --func pairs --print out | FileCheck %s
// RUN: not ktflow interp %s --func never_produced 2>&1 | FileCheck %s --check-prefix=DEADLOCK

// CHECK-LABEL: out f16[5]:
// CHECK-NEXT:    3 3 7 7 0

// DEADLOCK: inter-tile-reduce.mlir:{{[0-9]+}}:10: error: deadlock: every unfinished tile waits: tile 0 in 'ktdp.inter_tile_reduce' for group 0 producers

#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
#group0 = affine_set<(g) : (g == 0)>
#five = affine_set<(d0) : (d0 >= 0, -d0 + 4 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#id = affine_map<(d0) -> (d0)>

func.func @pairs(%out: index) attributes {grid = [5]} {
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  %t1 = arith.addi %t, %c1 : index
  %ti = arith.index_cast %t1 : index to i32
  %tf = arith.sitofp %ti : i32 to f16
  %mine = tensor.splat %tf : tensor<1xf16>
  %zero = arith.constant dense<0.0> : tensor<1xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
         -> !ktdp.tile_future<(tensor<1xf16>), groups = #groups> {
    ^bb0(%gid: index):
      ktdp.yield_partial %mine : tensor<1xf16>
  }
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>,
         identity(%zero : tensor<1xf16>)
         : <(tensor<1xf16>), groups = #groups> -> tensor<1xf16> {
    ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
      %e = tensor.empty() : tensor<1xf16>
      %sum = linalg.add ins(%l, %r : tensor<1xf16>, tensor<1xf16>) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      ktdp.yield_reduced %sum : tensor<1xf16>
  }
  %v = ktdp.construct_memory_view %out, sizes: [5], strides: [1] {
      coordinate_set = #five, memory_space = #ktdp.memory_space<global>
  } : memref<5xf16>
  %at = ktdp.construct_access_tile %v[%t] {
      access_tile_set = #one, access_tile_order = #id
  } : memref<5xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %s, %at : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}

func.func @never_produced() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %p = arith.constant dense<1.0> : tensor<1xf16>
  %is0 = arith.cmpi eq, %t, %c0 : index
  // Only tile 0 produces, but group 0 has producers {0, 1}: tile 0 waits
  // for tile 1 forever.
  scf.if %is0 {
    %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 1 >= 0)>
           -> !ktdp.tile_future<(tensor<1xf16>), groups = #group0> {
      ^bb0(%gid: index):
        ktdp.yield_partial %p : tensor<1xf16>
    }
    %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i == 0)>,
           identity(%p : tensor<1xf16>)
           : <(tensor<1xf16>), groups = #group0> -> tensor<1xf16> {
      ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
        ktdp.yield_reduced %l : tensor<1xf16>
    }
  }
  return
}

// inter_tile_consume delivers tile 0's partial unchanged to every tile.
// RUN: ktflow interp %s --func broadcast --print out | FileCheck %s --check-prefix=BCAST
// BCAST-LABEL: out f16[3]:
// BCAST-NEXT:    5 5 5
#three = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
func.func @broadcast(%out: index) attributes {grid = [3]} {
  %t = ktdp.get_compute_tile_id : index
  %p = arith.constant dense<5.0> : tensor<1xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i == 0)>
         -> !ktdp.tile_future<(tensor<1xf16>), groups = #group0> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1xf16>
  }
  %v = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 2 >= 0)>
         : <(tensor<1xf16>), groups = #group0> -> tensor<1xf16>
  %ov = ktdp.construct_memory_view %out, sizes: [3], strides: [1] {
      coordinate_set = #three, memory_space = #ktdp.memory_space<global>
  } : memref<3xf16>
  %at = ktdp.construct_access_tile %ov[%t] {
      access_tile_set = #one, access_tile_order = #id
  } : memref<3xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %v, %at : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}
