// Round trip of every ktdp op in each of its syntactic forms: the printed
// form re-parses to the same text, and the CHECKs pin the canonical form.
// RUN: ktflow-opt %s > %t.1
// RUN: ktflow-opt %t.1 > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1

#box16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows_s = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @tile_ids
func.func @tile_ids() attributes {grid = [2, 2, 2]} {
  // CHECK: ktdp.get_compute_tile_id : index
  %t = ktdp.get_compute_tile_id : index
  // CHECK: ktdp.get_compute_tile_id : index, index
  %x, %y = ktdp.get_compute_tile_id : index, index
  // CHECK: ktdp.get_compute_tile_id : index, index, index
  %g:3 = ktdp.get_compute_tile_id : index, index, index
  return
}

// CHECK-LABEL: func.func @memory_views
func.func @memory_views(%base: index, %m: index, %s: index) attributes {grid = [4]} {
  // Mixed static and SSA entries; whitespace around ':' is free.
  // CHECK: ktdp.construct_memory_view %{{.*}}, sizes: [%{{.*}}, 128], strides: [128, 1] {coordinate_set = #{{.*}}, memory_space = #ktdp.memory_space<global>} : memref<?x128xf16>
  %v0 = ktdp.construct_memory_view %base, sizes : [%m, 128], strides : [128, 1] {
      coordinate_set = #rows_s, memory_space = #ktdp.memory_space<global>
  } : memref<?x128xf16>
  // An SSA size may stand opposite a static dimension; strides may be SSA.
  // CHECK: sizes: [64, %{{.*}}], strides: [%{{.*}}, 1]
  %v1 = ktdp.construct_memory_view %base, sizes: [64, %m], strides: [%s, 1] {
      coordinate_set = #mat, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>
  } : memref<64x128xf16>
  // Column-major is just strides.
  // CHECK: sizes: [64, 128], strides: [1, 64]
  %v2 = ktdp.construct_memory_view %base, sizes: [64, 128], strides: [1, 64] {
      coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  // Rank 0.
  // CHECK: sizes: [], strides: [] {coordinate_set = #{{.*}}, memory_space = #ktdp.memory_space<global>} : memref<f32>
  %v3 = ktdp.construct_memory_view %base, sizes: [], strides: [] {
      coordinate_set = affine_set<() : (0 == 0)>, memory_space = #ktdp.memory_space<global>
  } : memref<f32>
  return
}

// CHECK-LABEL: func.func @distributed
func.func @distributed(%a: index, %b: index) {
  %top = ktdp.construct_memory_view %a, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<32x128xf16>
  %bot = ktdp.construct_memory_view %b, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
      memory_space = #ktdp.memory_space<ct_local>
  } : memref<32x128xf16>
  // The printer writes no space before '('; both forms parse.
  // CHECK: ktdp.construct_distributed_memory_view(%{{.*}}, %{{.*}} : memref<32x128xf16>, memref<32x128xf16>) : memref<64x128xf16>
  %w0 = ktdp.construct_distributed_memory_view (%top, %bot : memref<32x128xf16>, memref<32x128xf16>) : memref<64x128xf16>
  // CHECK: ktdp.construct_distributed_memory_view(%{{.*}} : memref<32x128xf16>) : memref<64x128xf16>
  %w1 = ktdp.construct_distributed_memory_view(%top : memref<32x128xf16>) : memref<64x128xf16>
  return
}

// CHECK-LABEL: func.func @access_tiles
func.func @access_tiles(%base: index, %r0: index, %i: index, %j: index, %n: index, %t: tensor<64x128xf16>) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %base, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  // CHECK: ktdp.construct_access_tile %[[V:.*]][%{{.*}}, %{{.*}}] {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  %a0 = ktdp.construct_access_tile %v[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex}
      : memref<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  // Affine subscripts with constants, sums, scaling and floordiv.
  // CHECK: ktdp.construct_access_tile %[[V]][%{{.*}} + %{{.*}}, 0]
  %a1 = ktdp.construct_access_tile %v[%r0 + %i, 0] {access_tile_set = #blk, access_tile_order = #lex}
      : memref<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  // CHECK: ktdp.construct_access_tile %[[V]][%{{.*}} * 2, %{{.*}} floordiv 2 + 4]
  %a2 = ktdp.construct_access_tile %v[%i * 2, %j floordiv 2 + 4] {access_tile_set = #blk, access_tile_order = #lex}
      : memref<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  // symbol(%x) in the subscripts becomes a symbol of base_map.
  // CHECK: ktdp.construct_access_tile %[[V]][%{{.*}} + symbol(%{{.*}}), %{{.*}} mod 4]
  %a3 = ktdp.construct_access_tile %v[%i + symbol(%n), %j mod 4] {access_tile_set = #blk, access_tile_order = #lex}
      : memref<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  // symbols(...) bind the set's symbols; the shape is checked at run time.
  // CHECK: ktdp.construct_access_tile %[[V]][%{{.*}}, %{{.*}}] symbols(%{{.*}}) {access_tile_order = #{{.*}}, access_tile_set = #{{.*}}} : memref<64x128xf16> -> !ktdp.access_tile<?x128xindex>
  %a4 = ktdp.construct_access_tile %v[%c0, %c0] symbols(%n) {access_tile_set = #rows_s, access_tile_order = #lex}
      : memref<64x128xf16> -> !ktdp.access_tile<?x128xindex>
  // A transposing order on a non-square set permutes the tile shape.
  // CHECK: -> !ktdp.access_tile<16x8xindex>
  %a5 = ktdp.construct_access_tile %v[%r0, %c0] {access_tile_set = #blk, access_tile_order = #swap}
      : memref<64x128xf16> -> !ktdp.access_tile<16x8xindex>
  // A triangle: the tile shape is its bounding box (holes load as 0).
  // CHECK: -> !ktdp.access_tile<4x4xindex>
  %a6 = ktdp.construct_access_tile %v[%r0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0, d0 - d1 >= 0, -d0 + 3 >= 0)>,
      access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<4x4xindex>
  // A strided set: even rows 0..6 only, so 7 rows, not 8.
  // CHECK: -> !ktdp.access_tile<7x2xindex>
  %a7 = ktdp.construct_access_tile %v[%r0, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 mod 2 == 0, d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1 >= 0)>,
      access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<7x2xindex>
  // A tensor base (load-only).
  // CHECK: ktdp.construct_access_tile %{{.*}}[%{{.*}}, %{{.*}}] {{.*}} : tensor<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  %a8 = ktdp.construct_access_tile %t[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex}
      : tensor<64x128xf16> -> !ktdp.access_tile<8x16xindex>
  // Load and store accept the full and the stripped tile type and print
  // the stripped one.
  // CHECK: ktdp.load %{{.*}} : <8x16xindex> -> tensor<8x16xf16>
  %x0 = ktdp.load %a0 : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
  // CHECK: ktdp.load %{{.*}} : <8x16xindex> -> tensor<8x16xf16>
  %x1 = ktdp.load %a1 : <8x16xindex> -> tensor<8x16xf16>
  // CHECK: ktdp.load %{{.*}} : <8x16xindex> -> tensor<8x16xf16>
  %x8 = ktdp.load %a8 : <8x16xindex> -> tensor<8x16xf16>
  // CHECK: ktdp.load %{{.*}} : <?x128xindex> -> tensor<?x128xf16>
  %x4 = ktdp.load %a4 : <?x128xindex> -> tensor<?x128xf16>
  // CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<8x16xf16>, <8x16xindex>
  ktdp.store %x0, %a2 : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  // CHECK: ktdp.store %{{.*}}, %{{.*}} : tensor<8x16xf16>, <8x16xindex>
  ktdp.store %x1, %a3 : tensor<8x16xf16>, <8x16xindex>
  return
}

// CHECK-LABEL: func.func @rank0_tile
func.func @rank0_tile(%base: index) {
  %v = ktdp.construct_memory_view %base, sizes: [], strides: [] {
      coordinate_set = affine_set<() : (0 == 0)>, memory_space = #ktdp.memory_space<global>
  } : memref<f32>
  // CHECK: ktdp.construct_access_tile %{{.*}}[] {{.*}} : memref<f32> -> !ktdp.access_tile<index>
  %t = ktdp.construct_access_tile %v[] {access_tile_set = affine_set<() : (0 == 0)>, access_tile_order = affine_map<() -> ()>}
      : memref<f32> -> !ktdp.access_tile<index>
  // CHECK: ktdp.load %{{.*}} : <index> -> tensor<f32>
  %x = ktdp.load %t : <index> -> tensor<f32>
  ktdp.store %x, %t : tensor<f32>, !ktdp.access_tile<index>
  return
}

// CHECK-LABEL: func.func @indirect
func.func @indirect(%tab: index, %ids: index, %base: index, %n: index) {
  %table = ktdp.construct_memory_view %tab, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
  } : memref<64x128xf16>
  %idx = ktdp.construct_memory_view %ids, sizes: [16], strides: [1] {
      coordinate_set = #box16, memory_space = #ktdp.memory_space<global>
  } : memref<16xi32>
  %idx2 = ktdp.construct_memory_view %ids, sizes: [4, 4], strides: [4, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>
  } : memref<4x4xi64>
  // An indirect row and a direct column; %base is captured.
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[I:.*]], %[[J:.*]]) %{{.*}}[ind(%{{.*}}[%[[I]] + %[[BASE:.*]]]), (%[[J]])] {variables_space_order = #{{.*}}, variables_space_set = #{{.*}}} : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x16xindex>
  %g0 = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
      %table[ind(%idx[%base + %i]), (%j)] {
        variables_space_set = #blk, variables_space_order = #lex
      } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x16xindex>
  // A space after the keyword, a 2-D index view, two captured values used
  // several times, and a transposing order.
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[I2:.*]], %[[J2:.*]]) %{{.*}}[(%[[I2]] * 2 + %{{.*}}), ind(%{{.*}}[%[[J2]] floordiv 4, %[[J2]] mod 4 + %{{.*}}])] {{.*}} : memref<64x128xf16>, memref<4x4xi64> -> !ktdp.access_tile<16x8xindex>
  %g1 = ktdp.construct_indirect_access_tile intermediate_variables (%i, %j)
      %table[(%i * 2 + %base), ind(%idx2[%j floordiv 4, %j mod 4 + %n])] {
        variables_space_set = #blk, variables_space_order = #swap
      } : memref<64x128xf16>, memref<4x4xi64> -> !ktdp.access_tile<16x8xindex>
  // The variable names shadow outer values of the same name.
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables(%[[K:.*]]) %{{.*}}[ind(%{{.*}}[%[[K]]]), (0)]
  %g2 = ktdp.construct_indirect_access_tile intermediate_variables(%n)
      %table[ind(%idx[%n]), (0)] {
        variables_space_set = #box16, variables_space_order = affine_map<(d0) -> (d0)>
      } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<16xindex>
  // An empty variable list gives a rank-0 space; symbols(...) bind the set.
  // CHECK: ktdp.construct_indirect_access_tile intermediate_variables() %{{.*}}[ind(%{{.*}}[%{{.*}}]), (%{{.*}})] symbols(%{{.*}}) {{.*}} -> !ktdp.access_tile<index>
  %g3 = ktdp.construct_indirect_access_tile intermediate_variables()
      %table[ind(%idx[%base]), (%n)] symbols(%n) {
        variables_space_set = affine_set<()[s0] : (s0 >= 0)>, variables_space_order = affine_map<() -> ()>
      } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<index>
  %x = ktdp.load %g0 : <8x16xindex> -> tensor<8x16xf16>
  ktdp.store %x, %g0 : tensor<8x16xf16>, <8x16xindex>
  return
}

// CHECK-LABEL: func.func @runtime_args
func.func @runtime_args(%rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256>,
                        %scale: !ktdp.runtime_arg<f32>) {
  // CHECK: ktdp.runtime_arg_extract value from %{{.*}} : <index, granularity=4, upperbound=256> -> index
  %m = ktdp.runtime_arg_extract value from %rows : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  // CHECK: ktdp.runtime_arg_extract granularity from
  %g = ktdp.runtime_arg_extract granularity from %rows : <index, granularity=4, upperbound=256> -> index
  // CHECK: ktdp.runtime_arg_extract upperbound from
  %u = ktdp.runtime_arg_extract upperbound from %rows : <index, upperbound=256, granularity=4> -> index
  // CHECK: ktdp.runtime_arg_extract value from %{{.*}} : <f32> -> f32
  %s = ktdp.runtime_arg_extract value from %scale : <f32> -> f32
  return
}

// CHECK-LABEL: func.func @inter_tile
func.func @inter_tile(%partial: tensor<1xf16>, %zero: tensor<1xf16>, %p2: tensor<4xf32>, %z2: tensor<4xf32>) attributes {grid = [4]} {
  // All-reduce in two groups of two tiles: produce + reduce.
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<1xf16>), groups = #{{.*}}> {
  // CHECK-NEXT: ^bb0(%gid: index):
  // CHECK-NEXT: ktdp.yield_partial %{{.*}} : tensor<1xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
         -> <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #{{.*}}, identity(%{{.*}} : tensor<1xf16>) : <(tensor<1xf16>), groups = #{{.*}}> -> tensor<1xf16> {
  // CHECK: ktdp.yield_reduced %{{.*}} : tensor<1xf16>
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>,
         identity(%zero : tensor<1xf16>)
         : <(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16> {
    ^bb0(%l: tensor<1xf16>, %r: tensor<1xf16>):
      %e = tensor.empty() : tensor<1xf16>
      %sum = linalg.add ins(%l, %r : tensor<1xf16>, tensor<1xf16>) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      ktdp.yield_reduced %sum : tensor<1xf16>
  }
  // Older produce form: `: tensor-type` before the arrow and a future type
  // without parentheses; two partials and a dependency set on reduce.
  // CHECK: ktdp.inter_tile_produce producer_tiles_per_group = #{{.*}} -> <(tensor<1xf16>), groups = #{{.*}}> {
  %f2 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - g == 0)> : tensor<1xf16>
         -> !ktdp.tile_future<tensor<1xf16>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #{{.*}} : <(tensor<1xf16>), groups = #{{.*}}> -> tensor<1xf16>
  %c = ktdp.inter_tile_consume(%f2) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
     : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16>
  %f3 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
         -> <(tensor<1xf16>, tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial, %p2 : tensor<1xf16>, tensor<4xf32>
  }
  // CHECK: ktdp.inter_tile_reduce(%{{.*}}) consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #{{.*}}, identity(%{{.*}}, %{{.*}} : tensor<1xf16>, tensor<4xf32>) : <(tensor<1xf16>, tensor<4xf32>), groups = #{{.*}}> -> tensor<1xf16>, tensor<4xf32>
  %r:2 = ktdp.inter_tile_reduce(%f3) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c, g] : (p - c >= 0)>,
         identity(%zero, %z2 : tensor<1xf16>, tensor<4xf32>)
         : <(tensor<1xf16>, tensor<4xf32>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16>, tensor<4xf32> {
    ^bb0(%l: tensor<1xf16>, %l2: tensor<4xf32>, %r1: tensor<1xf16>, %r2: tensor<4xf32>):
      %a = arith.addf %l, %r1 : tensor<1xf16>
      %b = arith.maximumf %l2, %r2 : tensor<4xf32>
      ktdp.yield_reduced %a, %b : tensor<1xf16>, tensor<4xf32>
  }
  // Consume routed by a dependency set: consumer c receives from p == c.
  %f4 = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>
         -> <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %partial : tensor<1xf16>
  }
  // CHECK: ktdp.inter_tile_consume(%{{.*}}) consumer_tiles_per_group = #{{.*}}, producer_dependency_per_consumer = #{{.*}} : <(tensor<1xf16>), groups = #{{.*}}> -> tensor<1xf16>
  %c4 = ktdp.inter_tile_consume(%f4) consumer_tiles_per_group = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>,
        producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)>
     : <(tensor<1xf16>), groups = affine_set<(g) : (g == 0)>> -> tensor<1xf16>
  return
}
