// The input check takes no description (no arch option): it reads only
// the KTIR and the one supported-op table, the same on every description;
// ../examples/unsupported.test shows `ktflow compile --arch` rejecting the
// same constructs on sample, spyre and deep.
// Negative twin: each construct outside the coverage is rejected by the
// input check with a diagnostic naming the op and what is missing.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics -ktsched-check-input

func.func @iter_args(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<4xf16>
  // expected-error @+1 {{'scf.for' with iter_args not supported: a carried value is scheduled only as an accumulation}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<4xf16>) {
    scf.yield %acc : tensor<4xf16>
  }
  return
}

// -----

// An upper bound may be clamped by minsi of affine bounds; a clamp by a
// product of grid ids is not affine.
func.func @clamp_by_square() attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %t = ktdp.get_compute_tile_id : index
  %end = arith.addi %t, %c16 : index
  %sq = arith.muli %t, %t : index
  %ub = arith.minsi %end, %sq : index
  // expected-error @+1 {{'scf.for' bounds must be affine in the grid coordinates (an upper bound may be clamped by minsi/minui, a lower one raised by maxsi/maxui) ('arith.muli' does not fold to an affine expression}}
  scf.for %r = %c0 to %ub step %c1 {
  }
  return
}

// -----

func.func @nested() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    // expected-error @+1 {{nested 'scf.for' not supported: the schedule has one loop level}}
    scf.for %j = %c0 to %c8 step %c1 {
    }
  }
  return
}

// -----

// expected-error @+1 {{kernel argument of type 'tensor<8x8xf16>' not supported}}
func.func @tensor_argument(%a: tensor<8x8xf16>) {
  return
}

// -----

func.func @mm() {
  %a = arith.constant dense<1.0> : tensor<8x8xf16>
  %c = arith.constant dense<0.0> : tensor<8x8xf16>
  // expected-error @+1 {{'linalg.matmul' not supported: its operands must be loaded 2-D tiles}}
  %r = linalg.matmul ins(%a, %a : tensor<8x8xf16>, tensor<8x8xf16>) outs(%c : tensor<8x8xf16>) -> tensor<8x8xf16>
  return
}

// -----

func.func @transposed_into_compute(%x: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  // expected-error @+1 {{non-identity access_tile_order not supported: a transposed load must be stored directly, and only there (a transposed operand feeding compute ops is missing)}}
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %l = ktdp.load %t : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  %s = arith.addf %l, %l : tensor<16x16xf16>
  %u = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  ktdp.store %s, %u : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  return
}

// -----

func.func @transposed_store(%x: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [16, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %u = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %l = ktdp.load %u : !ktdp.access_tile<16x16xindex> -> tensor<16x16xf16>
  // expected-error @+1 {{non-identity access_tile_order not supported: only loads through a transposing tile are lowered (a transposing store is missing)}}
  %t = ktdp.construct_access_tile %v[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  ktdp.store %l, %t : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  return
}

// -----

func.func @permuted_3d(%x: index) {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %x, sizes: [2, 4, 8], strides: [32, 8, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4x8xf16>
  // expected-error @+1 {{non-identity access_tile_order not supported: only the 2-D transpose is lowered (a permutation of 3 dimensions is missing)}}
  %t = ktdp.construct_access_tile %v[%c0, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d2, d0, d1)>} : memref<2x4x8xf16> -> !ktdp.access_tile<8x2x4xindex>
  return
}

// -----

func.func @local(%x: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' in #ktdp.memory_space<ct_local> not supported: program-owned scratchpad staging is forwarded only from a store to a load of the same bytes}}
  %v = ktdp.construct_memory_view %x, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<8xf16>
  return
}

// -----

func.func @extract(%t: index) {
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tensor.extract' from 'tensor<4xf16>' not supported: only the one element of a one-element tensor (a reduction's per-row value) becomes a scalar}}
  %e = tensor.extract %z[%c0] : tensor<4xf16>
  return
}

// -----

func.func @dynamic_tensor(%n: index) {
  // expected-error @+1 {{'tensor.empty' on 'tensor<?xf16>' not supported: scheduling needs static shapes}}
  %e = tensor.empty(%n) : tensor<?xf16>
  return
}

// -----

func.func @integer_math() {
  // expected-error @+1 {{'arith.constant' on 'tensor<4xi16>' not supported: compute bodies need f16, bf16, f32, i8, i32 or i64}}
  %z = arith.constant dense<0> : tensor<4xi16>
  return
}

// -----

// Integer lanes are signed: an unsigned compare has no lane-wise form.
func.func @unsigned_compare() {
  %a = arith.constant dense<1> : tensor<4xi32>
  %b = arith.constant dense<2> : tensor<4xi32>
  // expected-error @+1 {{'arith.cmpi' predicate 'ult' not supported: lane-wise integer compares are slt, sle, sgt, sge, eq and ne (lanes are signed)}}
  %m = arith.cmpi ult, %a, %b : tensor<4xi32>
  %r = arith.select %m, %a, %b : tensor<4xi1>, tensor<4xi32>
  return
}

// -----

// A later phase reads a per-row value back along the rows it reduced: a
// broadcast along another dimension is not a phase (the twin of example
// 08 in supported.mlir).
func.func @broadcast_across_rows() {
  %x = arith.constant dense<1.0> : tensor<8x4xf16>
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<8x4xf16>) outs(%z : tensor<4xf16>) dimensions = [0]
  %e = tensor.empty() : tensor<4x8xf16>
  // expected-error @+1 {{'linalg.broadcast' of a 'linalg.reduce' result along other dimensions than the reduced ones not supported}}
  %w = linalg.broadcast ins(%s : tensor<4xf16>) outs(%e : tensor<4x8xf16>) dimensions = [1]
  return
}

// -----

// An epilogue on reduced values takes constants and other per-row values
// (another reduction) only: a value that is neither is rejected.
func.func @epilogue_with_unreduced() {
  %x = arith.constant dense<1.0> : tensor<4x8xf16>
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<4x8xf16>) outs(%z : tensor<4xf16>) dimensions = [1]
  %d = arith.subf %s, %m : tensor<4xf16>
  %u = tensor.empty() : tensor<4xf16>
  // expected-error @+1 {{use of a 'linalg.reduce' result by 'arith.addf' not supported: a reduced value is stored, passes through element-wise ops with constants and other per-row values, or is broadcast back along the reduced dimensions}}
  %a = arith.addf %d, %u : tensor<4xf16>
  return
}

// -----

// A launch value nothing bound (ktsched-specialize would have substituted
// it) is named, with the --arg that binds it.
func.func @runtime(%m: !ktdp.runtime_arg<index, granularity=4>) {
  // expected-error @+1 {{'ktdp.runtime_arg_extract' of the launch value not supported: symbolic launch values are missing (it depends on kernel argument 'arg0', which no launch value binds: pass --arg arg0=VALUE)}}
  %v = ktdp.runtime_arg_extract value from %m : !ktdp.runtime_arg<index, granularity=4> -> index
  return
}

// -----

// The source name of an argument (a NameLoc, as the driver attaches it) is
// the one the diagnostic asks to bind.
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
func.func @unbound_block(%x: index, %block: index loc("block")) attributes {grid = [8]} {
  %t = ktdp.get_compute_tile_id : index
  %start = arith.muli %t, %block : index
  %v = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @+1 {{'ktdp.construct_access_tile' subscript not supported: it must be affine in the grid coordinates and the loop variable (it depends on kernel argument 'block', which no launch value binds: pass --arg block=VALUE)}}
  %a = ktdp.construct_access_tile %v[%start] {
      access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

// A select of tensors is lane-wise work, not index arithmetic: its
// condition must be a lane-wise compare, not a scalar.
func.func @select_tensors(%c: i1) {
  %a = arith.constant dense<1.0> : tensor<4xf16>
  %b = arith.constant dense<2.0> : tensor<4xf16>
  // expected-error @+1 {{'arith.select' condition not supported: it must be the result of a lane-wise 'arith.cmpf'}}
  %s = arith.select %c, %a, %b : tensor<4xf16>
  return
}

// -----

// expected-error @+1 {{kernel argument of type 'memref<4xf16>' not supported: arguments are index base addresses, or index, integer and f16/bf16/f32 scalars (launch values)}}
func.func @memref_argument(%m: memref<4xf16>) {
  return
}

// -----

// A clamp that differs between grid tiles does not fold after
// specialization; the diagnostic names the op that stops the subscript.
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
func.func @clamped(%x: index) attributes {grid = [8]} {
  %c8 = arith.constant 8 : index
  %c56 = arith.constant 56 : index
  %t = ktdp.get_compute_tile_id : index
  %start = arith.muli %t, %c8 : index
  %clamped = arith.minsi %start, %c56 : index
  %v = ktdp.construct_memory_view %x, sizes: [64], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // expected-error @+1 {{'ktdp.construct_access_tile' subscript not supported: it must be affine in the grid coordinates and the loop variable ('arith.minsi' does not fold to an affine expression: its value differs between grid tiles or loop iterations)}}
  %a = ktdp.construct_access_tile %v[%clamped] {
      access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<8xindex>
  return
}

// -----

func.func @unordered_less() {
  %z = arith.constant dense<0.0> : tensor<4xf16>
  // expected-error @+1 {{'arith.cmpf' predicate 'ult' not supported: lane-wise compares are olt, ole, ogt, oge, oeq and une}}
  %m = arith.cmpf ult, %z, %z : tensor<4xf16>
  %s = arith.select %m, %z, %z : tensor<4xi1>, tensor<4xf16>
  return
}

// -----

func.func @mask_not_selected() {
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %m = arith.cmpf olt, %z, %z : tensor<4xf16>
  // expected-error @+2 {{'arith.uitofp' not supported by the scheduler}}
  // expected-error @+1 {{use of an 'arith.cmpf' result by 'arith.uitofp' not supported: a compare's mask is only a select's condition}}
  %u = arith.uitofp %m : tensor<4xi1> to tensor<4xf16>
  return
}

// -----

func.func @constant_condition() {
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %c = arith.constant true
  // expected-error @+1 {{'arith.select' condition not supported: it must be the result of a lane-wise 'arith.cmpf'}}
  %s = arith.select %c, %z, %z : tensor<4xf16>
  return
}

// -----

func.func @mask_of_another_type() {
  %z = arith.constant dense<0.0> : tensor<4xf16>
  %w = arith.constant dense<0.0> : tensor<4xf32>
  %m = arith.cmpf olt, %w, %w : tensor<4xf32>
  // expected-error @+1 {{'arith.select' of 'f16' by a compare of 'f32' not supported: the mask is in the compared type; compare in the selected type}}
  %s = arith.select %m, %z, %z : tensor<4xi1>, tensor<4xf16>
  return
}

// -----

// A coordinate_set is a mask; the compiler masks ranges of each dimension
// (a box), so a triangular set is rejected rather than read as its box.
func.func @triangular_set(%x: index) {
  // expected-error @+1 {{'ktdp.construct_memory_view' with a coordinate_set that is not a box not supported: masks are ranges of each dimension}}
  %v = ktdp.construct_memory_view %x, sizes: [8, 8], strides: [8, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, d1 >= 0, -d0 + 7 >= 0, d0 - d1 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
  return
}

// -----

// Another tile's scratchpad: the forwarding leaves it (transfers between
// tiles' scratchpads are not lowered).
func.func @other_tiles_scratchpad() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'ktdp.construct_memory_view' in #ktdp.memory_space<ct_local, ct_id = 1> (another tile's scratchpad) not supported: transfers between tiles' scratchpads are missing}}
  %v = ktdp.construct_memory_view %c0, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<8xf16>
  return
}

// -----

// A loaded block both scattered and computed on is not lowered (a scatter
// group and a compute group over the same rows); a scatter of loaded rows
// alone is (schedule-gather/scatter.test), and so is a scatter of computed
// rows (supported.mlir).
#tab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#sp = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @scatter_loaded_and_computed(%table: index, %idx: index, %src: index, %dst: index) {
  %c0 = arith.constant 0 : index
  %tm = ktdp.construct_memory_view %table, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %im = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {
      coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %sm = ktdp.construct_memory_view %src, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %dm = ktdp.construct_memory_view %dst, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %s_at = ktdp.construct_access_tile %sm[%c0, %c0] {
      access_tile_set = #sp, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %v = ktdp.load %s_at : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %w = arith.addf %v, %v : tensor<8x128xf16>
  %d_at = ktdp.construct_access_tile %dm[%c0, %c0] {
      access_tile_set = #sp, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  ktdp.store %w, %d_at : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' not supported: a scattered value must be loaded through an identity-ordered ktdp.construct_access_tile and stored only there (a loaded value scattered and also used otherwise is missing)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
      %tm[ind(%im[%i]), (%j)] {variables_space_set = #sp, variables_space_order = #lex}
      : memref<64x128xf16>, memref<8xi32> -> !ktdp.access_tile<8x128xindex>
  ktdp.store %v, %g : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}

// -----

// Gathered rows both stored directly and computed on are not lowered (a
// gather group and a compute group over the same rows); gathered rows
// feeding compute alone pass (supported.mlir).
#tab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#sp = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_stored_and_computed(%table: index, %idx: index, %dst: index, %dst2: index) {
  %c0 = arith.constant 0 : index
  %tm = ktdp.construct_memory_view %table, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %im = ktdp.construct_memory_view %idx, sizes: [8], strides: [1] {
      coordinate_set = #ids, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %dm = ktdp.construct_memory_view %dst, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %dm2 = ktdp.construct_memory_view %dst2, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  // expected-error @+1 {{'ktdp.construct_indirect_access_tile' not supported: gathered rows feed element-wise and reduction ops only (stored both directly and computed on, or fed to a matmul or a transpose, is missing)}}
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
      %tm[ind(%im[%i]), (%j)] {variables_space_set = #sp, variables_space_order = #lex}
      : memref<64x128xf16>, memref<8xi32> -> !ktdp.access_tile<8x128xindex>
  %v = ktdp.load %g : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %w = arith.addf %v, %v : tensor<8x128xf16>
  %d_at = ktdp.construct_access_tile %dm[%c0, %c0] {
      access_tile_set = #sp, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  ktdp.store %w, %d_at : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  %d2_at = ktdp.construct_access_tile %dm2[%c0, %c0] {
      access_tile_set = #sp, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  ktdp.store %v, %d2_at : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
