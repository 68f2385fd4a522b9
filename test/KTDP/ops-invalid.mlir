// One negative test per verifier rule of spec §5 (rule numbers as in the
// spec). Each diagnostic names the rule and the disagreeing values.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

//===--- §5.1 get_compute_tile_id ---===//

func.func @f() {
  // expected-error @+1 {{must have 1 to 3 results (one per grid dimension), got 0}}
  "ktdp.get_compute_tile_id"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{must have 1 to 3 results (one per grid dimension), got 4}}
  %g:4 = ktdp.get_compute_tile_id : index, index, index, index
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{result #0 must be variadic of index, but got 'i32'}}
  %g = ktdp.get_compute_tile_id : i32
  return
}

//===--- §5.2 construct_memory_view ---===//

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{sizes has 2 entries but strides has 1 (spec §5.2 rule 1)}}
  %v = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{result memref has rank 1 but sizes/strides describe rank 2 (spec §5.2 rule 2)}}
  %v = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{size 32 of dimension 1 differs from the result's dimension 64 (spec §5.2 rule 3)}}
  %v = ktdp.construct_memory_view %a, sizes: [16, 32], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{result dimension 0 is '?' and needs an SSA size, got the integer 16 (spec §5.2 rule 3)}}
  %v = ktdp.construct_memory_view %a, sizes: [16, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{requires attribute 'memory_space'}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #s} : memref<16xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{attribute 'memory_space' failed to satisfy constraint}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #s, memory_space = 1 : i32} : memref<16xf16>
  return
}

// -----

func.func @f(%a: index) {
  // expected-warning @+1 {{has no coordinate_set; it is treated as the box [0, size_k) (spec §5.2 rule 4)}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{coordinate_set has 1 dimensions but the view has rank 2 (spec §5.2 rule 5)}}
  %v = ktdp.construct_memory_view %a, sizes: [16, 4], strides: [4, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16x4xf16>
  return
}

// -----

#s = affine_set<(d0, d1)[s0, s1] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + s1 - 1 >= 0)>
func.func @f(%a: index, %m: index) {
  // expected-error @+1 {{coordinate_set has 2 symbols but only 1 SSA size entries bind them (spec §5.2 rule 6)}}
  %v = ktdp.construct_memory_view %a, sizes: [%m, 4], strides: [4, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<?x4xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{stride -1 of dimension 0 is negative; negative strides are not supported (spec §5.2 rule 7)}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [-1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  // expected-warning @+1 {{coordinate_set spans 32 coordinates in dimension 0, more than the size 16; the extra points are masked (spec §5.2 rule 8)}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{coordinate_set is unbounded in dimension 0 (spec §4.2)}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  // expected-error @+1 {{memref layout strided<[2]> is not supported: the op's strides give the layout (spec §3.5)}}
  %v = ktdp.construct_memory_view %a, sizes: [16], strides: [2] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16xf16, strided<[2]>>
  return
}

// -----

func.func @f(%a: index) {
  // expected-error @+1 {{custom op 'ktdp.construct_memory_view' expected 'sizes'}}
  %v = ktdp.construct_memory_view %a, strides: [1] {memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

//===--- §5.3 construct_distributed_memory_view ---===//

// -----

func.func @f() {
  // expected-error @+1 {{needs at least one partition (spec §5.3)}}
  %w = ktdp.construct_distributed_memory_view() : memref<64xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  %p = ktdp.construct_memory_view %a, sizes: [32], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf32>
  // expected-error @+1 {{partition 0 has element type 'f32' but the result has 'f16' (spec §5.3)}}
  %w = ktdp.construct_distributed_memory_view(%p : memref<32xf32>) : memref<64xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  %p = ktdp.construct_memory_view %a, sizes: [32], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @+1 {{partition 0 has rank 1 but the result has rank 2 (spec §5.3)}}
  %w = ktdp.construct_distributed_memory_view(%p : memref<32xf16>) : memref<64x2xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  %p = ktdp.construct_memory_view %a, sizes: [32], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  %w = ktdp.construct_distributed_memory_view(%p : memref<32xf16>) : memref<32xf16>
  // expected-error @+1 {{partition 0 is itself a distributed view; nesting distributed views is not supported (spec §5.3)}}
  %w2 = ktdp.construct_distributed_memory_view(%w : memref<32xf16>) : memref<32xf16>
  return
}

// -----

func.func @f(%m: memref<32xf16>) {
  // expected-error @+1 {{partition 0 must be produced by ktdp.construct_memory_view (spec §5.3)}}
  %w = ktdp.construct_distributed_memory_view(%m : memref<32xf16>) : memref<32xf16>
  return
}

// -----

func.func @f(%m: memref<32xf16>) {
  // expected-error @+1 {{number of operands and types do not match: got 2 operands and 1 types}}
  %w = ktdp.construct_distributed_memory_view(%m, %m : memref<32xf16>) : memref<32xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  %p = ktdp.construct_memory_view %a, sizes: [32], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @+1 {{invalid kind of type specified: expected builtin.memref, but found 'tensor<32xf16>'}}
  %w = ktdp.construct_distributed_memory_view(%p : memref<32xf16>) : tensor<32xf16>
  return
}

// -----

// The same rule in the generic form, where the op verifier checks it.
#s = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
func.func @f(%a: index) {
  %p = ktdp.construct_memory_view %a, sizes: [32], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<32xf16>
  // expected-error @+1 {{result #0 must be memref of any type values, but got 'tensor<32xf16>'}}
  %w = "ktdp.construct_distributed_memory_view"(%p) : (memref<32xf16>) -> tensor<32xf16>
  return
}

//===--- §5.4 construct_access_tile ---===//

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{requires attribute 'access_tile_set'}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_order = #lex} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{requires attribute 'access_tile_order'}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{has 1 subscripts, access_tile_set has 2 dimensions and the base has rank 2; all three must be equal (spec §5.4 rule 2)}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #lex} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%v: memref<16x64x2xf16>, %i: index) {
  // expected-error @+1 {{has 2 subscripts, access_tile_set has 2 dimensions and the base has rank 3; all three must be equal (spec §5.4 rule 2)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #lex} : memref<16x64x2xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{base_map has 1 inputs but 2 index operands were given (spec §5.4 rule 3)}}
  %t = "ktdp.construct_access_tile"(%v, %i, %i) <{base_map = #id, access_tile_set = #s, access_tile_order = #id, operandSegmentSizes = array<i32: 1, 2, 0>}> : (memref<16xf16>, index, index) -> !ktdp.access_tile<16xindex>
  return
}

// -----

#s = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set has 1 symbols but symbols(...) lists 0 operands (spec §5.4 rule 4)}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<?xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{access_tile_order affine_map<(d0, d1) -> (d0, d1)> must map 1 dimensions to 1 results, one per dimension of access_tile_set (spec §5.4 rule 5)}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{result rank 2 differs from the 1 dimensions of access_tile_set (spec §5.4 rule 6)}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16x1xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{access_tile_order affine_map<(d0, d1) -> (d0 + d1, d1)> is not a permutation of its dimensions; other orders are not supported (spec §5.4 rule 7)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = affine_map<(d0, d1) -> (d0 + d1, d1)>} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{access_tile_order affine_map<(d0, d1) -> (d0, d0)> is not a permutation of its dimensions; other orders are not supported (spec §5.4 rule 7)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = affine_map<(d0, d1) -> (d0, d0)>} : memref<16x64xf16> -> !ktdp.access_tile<16x64xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{result shape 16x32 differs from the tile shape 16x64 (the extent of order(access_tile_set)) (spec §5.4 rule 8)}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = #lex} : memref<16x64xf16> -> !ktdp.access_tile<16x32xindex>
  return
}

// -----

// The transposing order permutes the shape: 8x16 set -> 16x8 tile.
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
func.func @f(%v: memref<16x64xf16>, %i: index) {
  // expected-error @+1 {{result shape 8x16 differs from the tile shape 16x8}}
  %t = ktdp.construct_access_tile %v[%i, %i] {access_tile_set = #s, access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x64xf16> -> !ktdp.access_tile<8x16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{access_tile_set is unbounded in dimension 0 (spec §4.2)}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index, %j: index) {
  // expected-error @+1 {{non-affine expression}}
  %t = ktdp.construct_access_tile %v[%i * %j] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{operand #0 must be memref or ranked tensor}}
  %t = ktdp.construct_access_tile %i[%i] {access_tile_set = #s, access_tile_order = #id} : index -> !ktdp.access_tile<16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
// expected-note @+1 {{prior use here}}
func.func @f(%v: memref<16xf16>, %i: i32) {
  // expected-error @+1 {{use of value '%i' expects different type than prior uses: 'index' vs 'i32'}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  return
}

//===--- §5.5 construct_indirect_access_tile ---===//

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64x128xf16>, %ids: memref<16xi32>) {
  // expected-error @+1 {{has 1 subscripts but the base has rank 2 (spec §5.5 rule 1)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[ind(%ids[%i])] {variables_space_set = #s, variables_space_order = #id} : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%tab: memref<64x128xf16>, %ids: memref<16xi32>) {
  // expected-error @+1 {{ind(...) subscript 0 has 2 expressions but its index view has rank 1 (spec §5.5 rule 2)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %tab[ind(%ids[%i, %j]), (%j)] {variables_space_set = #s, variables_space_order = #lex} : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x128xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{direct subscript 0 must be exactly one expression, got 2 (spec §5.5 rule 2)}}
  %g = "ktdp.construct_indirect_access_tile"(%tab) <{variables_space_set = #s, variables_space_order = #id, per_dim_subscript_kinds = array<i32: 0>, per_dim_subscript_maps = [affine_map<(d0) -> (d0, d0)>], operandSegmentSizes = array<i32: 1, 0, 0, 0>}> ({
  ^bb0(%i: index):
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %n: index) {
  // expected-error @+1 {{symbol(...) is not allowed in the subscripts of construct_indirect_access_tile (spec §5.5 rule 3)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i + symbol(%n))] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %n: index) {
  // expected-error @+1 {{non-affine expression}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i * %n)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{declares 2 intermediate variables but variables_space_set has 1 dimensions (spec §5.5 rule 4)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %tab[(%i + %j)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{variables_space_order affine_map<(d0, d1) -> (d0)> must map 1 dimensions to 1 results (spec §5.5 rule 4)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = affine_map<(d0, d1) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{variables_space_set has 1 symbols but symbols(...) lists 0 operands (spec §5.5 rule 5)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<?xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{result rank 2 differs from the 1 dimensions of variables_space_set (spec §5.5 rule 6)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8x1xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{result shape 4 differs from the tile shape 8 (the extent of order(variables_space_set)) (spec §5.5 rule 6)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<4xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{variables_space_set is unbounded in dimension 0 (spec §4.2)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %ids: memref<16xf16>) {
  // expected-error @+1 {{index view of subscript 0 has element type 'f16'; it must be i8 to i64 or index (spec §5.5 rule 7)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[ind(%ids[%i])] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16>, memref<16xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
func.func @f(%tab: memref<64x64xf16>) {
  // expected-error @+1 {{variables_space_order affine_map<(d0, d1) -> (d1, d1)> is not a permutation of its dimensions; other orders are not supported (spec §5.5 rule 8)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %tab[(%i), (%j)] {variables_space_set = #s, variables_space_order = affine_map<(d0, d1) -> (d1, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<8x8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %ids: memref<16xi32>) {
  // expected-error @+1 {{expected 1 index view type(s) after the base type, one per ind(...) subscript, got 0 (spec §5.5)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[ind(%ids[%i])] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %ids: memref<16xi32>) {
  // expected-error @+1 {{expected 0 index view type(s) after the base type, one per ind(...) subscript, got 1 (spec §5.5)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[(%i)] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16>, memref<16xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>) {
  // expected-error @+1 {{the intermediate_variables region must hold only its terminator}}
  %g = "ktdp.construct_indirect_access_tile"(%tab) <{variables_space_set = #s, variables_space_order = #id, per_dim_subscript_kinds = array<i32: 0>, per_dim_subscript_maps = [affine_map<(d0) -> (d0)>], operandSegmentSizes = array<i32: 1, 0, 0, 0>}> ({
  ^bb0(%i: index):
    %c = arith.constant 0 : index
    "ktdp.region_terminator"() : () -> ()
  }) : (memref<64xf16>) -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expects parent op 'ktdp.construct_indirect_access_tile'}}
  "ktdp.region_terminator"() : () -> ()
  return
}

//===--- §5.6 load, §5.7 store ---===//

// -----

func.func @f(%t: !ktdp.access_tile<8x64xindex>) {
  // expected-error @+1 {{result shape 8x32 differs from the access tile's shape 8x64 (spec §5.6)}}
  %v = ktdp.load %t : <8x64xindex> -> tensor<8x32xf16>
  return
}

// -----

func.func @f(%t: !ktdp.access_tile<?x64xindex>) {
  // expected-error @+1 {{result shape 8x64 differs from the access tile's shape ?x64 (spec §5.6)}}
  %v = ktdp.load %t : <?x64xindex> -> tensor<8x64xf16>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  // expected-error @+1 {{result element type 'f32' differs from the element type 'f16' of the tile's base view (spec §5.6)}}
  %x = ktdp.load %t : <16xindex> -> tensor<16xf32>
  return
}

// -----

func.func @f(%t: !ktdp.access_tile<8x64xindex>, %x: tensor<8x32xf16>) {
  // expected-error @+1 {{stored value shape 8x32 differs from the access tile's shape 8x64 (spec §5.7)}}
  ktdp.store %x, %t : tensor<8x32xf16>, <8x64xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index, %x: tensor<16xbf16>) {
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  // expected-error @+1 {{stored value element type 'bf16' differs from the element type 'f16' of the tile's base view (spec §5.7)}}
  ktdp.store %x, %t : tensor<16xbf16>, <16xindex>
  return
}

// -----

#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%base: tensor<16xf16>, %i: index, %x: tensor<16xf16>) {
  %t = ktdp.construct_access_tile %base[%i] {access_tile_set = #s, access_tile_order = #id} : tensor<16xf16> -> !ktdp.access_tile<16xindex>
  // expected-error @+1 {{store through an access tile over a tensor base is not supported; tensor bases are load-only (spec §5.4)}}
  ktdp.store %x, %t : tensor<16xf16>, <16xindex>
  return
}

// -----

func.func @f(%t: !ktdp.access_tile<8xindex>, %x: tensor<8xf16>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found '!ktdp.access_tile<8xindex>'}}
  ktdp.store %t, %t : !ktdp.access_tile<8xindex>, <8xindex>
  return
}

// -----

func.func @f(%t: !ktdp.access_tile<8xindex>, %x: tensor<*xf16>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf16>'}}
  ktdp.store %x, %t : tensor<*xf16>, <8xindex>
  return
}

// -----

// The same rule in the generic form, where the op verifier checks it.
func.func @f(%t: !ktdp.access_tile<8xindex>, %x: tensor<*xf16>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of any type values, but got 'tensor<*xf16>'}}
  "ktdp.store"(%x, %t) : (tensor<*xf16>, !ktdp.access_tile<8xindex>) -> ()
  return
}

//===--- §5.8 runtime_arg_extract ---===//

// -----

func.func @f(%r: !ktdp.runtime_arg<index, granularity=4>) {
  // expected-error @+1 {{'value' result type 'i32' differs from the runtime_arg's underlying type 'index' (spec §5.8)}}
  %m = ktdp.runtime_arg_extract value from %r : <index, granularity=4> -> i32
  return
}

// -----

func.func @f(%r: !ktdp.runtime_arg<index, granularity=4>) {
  // expected-error @+1 {{extracts 'upperbound' but the type '!ktdp.runtime_arg<index, granularity=4>' has no upperbound (spec §5.8)}}
  %m = ktdp.runtime_arg_extract upperbound from %r : <index, granularity=4> -> index
  return
}

// -----

func.func @f(%r: !ktdp.runtime_arg<index, upperbound=4>) {
  // expected-error @+1 {{extracts 'granularity' but the type '!ktdp.runtime_arg<index, upperbound=4>' has no granularity (spec §5.8)}}
  %m = ktdp.runtime_arg_extract granularity from %r : <index, upperbound=4> -> index
  return
}

// -----

func.func @f(%r: !ktdp.runtime_arg<i32, granularity=4>) {
  // expected-error @+1 {{'granularity' result must be index, got 'i32' (spec §5.8)}}
  %m = ktdp.runtime_arg_extract granularity from %r : <i32, granularity=4> -> i32
  return
}

// -----

func.func @f(%r: !ktdp.runtime_arg<i32, upperbound=4>) {
  // expected-error @+1 {{'upperbound' result must be index, got 'i32' (spec §5.8)}}
  %m = ktdp.runtime_arg_extract upperbound from %r : <i32, upperbound=4> -> i32
  return
}

// -----

func.func @f(%r: !ktdp.runtime_arg<index>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [value, granularity, upperbound]}}
  %m = ktdp.runtime_arg_extract size from %r : <index> -> index
  return
}

// -----

// The result type of an access-tile constructor must be written in full.
#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%v: memref<16xf16>, %i: index) {
  // expected-error @+1 {{expected non-function type}}
  %t = ktdp.construct_access_tile %v[%i] {access_tile_set = #s, access_tile_order = #id} : memref<16xf16> -> <16xindex>
  return
}

// -----

// An SSA size that is a known constant must match a static dimension.
#s = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
func.func @f(%a: index) {
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{size operand of dimension 0 is the constant 8 but the result's dimension is 16 (spec §5.2 rule 3)}}
  %v = ktdp.construct_memory_view %a, sizes: [%c8], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  return
}

// -----

func.func @f(%t: tensor<32xf16>) {
  // expected-error @+1 {{operand #0 must be variadic of memref of any type values, but got 'tensor<32xf16>'}}
  %w = ktdp.construct_distributed_memory_view(%t : tensor<32xf16>) : memref<32xf16>
  return
}

// -----

// Rule 5.5.9: an indirectly loaded index is a whole subscript; it cannot be
// combined with anything.
#s = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @f(%tab: memref<64xf16>, %ids: memref<16xi32>) {
  // expected-error @+1 {{expected ']'}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tab[ind(%ids[%i]) + 1] {variables_space_set = #s, variables_space_order = #id} : memref<64xf16>, memref<16xi32> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @f(%t: !ktdp.access_tile<8xindex>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf16>'}}
  %v = ktdp.load %t : <8xindex> -> tensor<*xf16>
  return
}
