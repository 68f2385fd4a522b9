// Run-time errors carry the op's location and the tile; each function here
// breaks one rule, and @fine is the positive twin.
// RUN: ktflow interp %s --func fine | FileCheck %s --check-prefix=FINE
// RUN: not ktflow interp %s --func div_by_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not ktflow interp %s --func zero_step 2>&1 | FileCheck %s --check-prefix=STEP
// RUN: not ktflow interp %s --func unspecified_space 2>&1 | FileCheck %s --check-prefix=UNSPEC
// RUN: not ktflow interp %s --func unsupported_op 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not ktflow interp %s --func returns_value 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: not ktflow interp %s --func unbounded 2>&1 | FileCheck %s --check-prefix=UNBOUNDED
// RUN: not ktflow interp %s --func extract_oob 2>&1 | FileCheck %s --check-prefix=EXTRACT
// RUN: not ktflow interp %s 2>&1 | FileCheck %s --check-prefix=CHOOSE
// RUN: not ktflow interp %s --func nothere 2>&1 | FileCheck %s --check-prefix=NOFUNC

// FINE: kernel @fine: grid [2, 1, 1], 2 tiles
// DIV: runtime-errors.mlir:[[@LINE+21]]:8: error: integer division by zero (1 : index / 0 : index) [tile 1, grid point (1, 0, 0)]
// STEP: runtime-errors.mlir:[[@LINE+27]]:3: error: scf.for step must be positive, got 0 [tile 0
// UNSPEC: error: access through a view in the 'unspecified' memory space
// OP: runtime-errors.mlir:[[@LINE+46]]:8: error: op 'math.ctlz' is not supported by the interpreter [tile 0
// RESULTS: error: a kernel must not return values; @returns_value returns 1
// UNBOUNDED: error: access_tile_set: integer set 0-th dimension (d0) is unbounded after binding its symbols (3)
// EXTRACT: error: tensor index [4] is out of bounds for shape [4] [tile 0
// CHOOSE: error: the module has several functions; choose one with --func: fine div_by_zero
// NOFUNC: error: no function named 'nothere'

func.func @fine() attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %q = arith.divui %c1, %c1 : index
  return
}

func.func @div_by_zero() attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %c1 = arith.constant 1 : index
  %d = arith.subi %t, %c1 : index
  %q = arith.divui %c1, %d : index
  return
}

func.func @zero_step() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c0 {
  }
  return
}

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @unspecified_space() {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.spyre_memory_space<unspecified>
  } : memref<4xf16>
  %at = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %at : !ktdp.access_tile<4xindex> -> tensor<4xf16>
  return
}

func.func @unsupported_op() {
  %c = arith.constant 5 : i32
  %n = math.ctlz %c : i32
  return
}

func.func @returns_value() -> index {
  %c0 = arith.constant 0 : index
  return %c0 : index
}

#from_s0 = affine_set<(d0)[s0] : (d0 - s0 >= 0)>
func.func @unbounded() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<ct_local>
  } : memref<4xf16>
  %at = ktdp.construct_access_tile %v[%c0] symbols(%c3) {
      access_tile_set = #from_s0, access_tile_order = #id
  } : memref<4xf16> -> !ktdp.access_tile<?xindex>
  return
}

func.func @extract_oob() {
  %c4 = arith.constant 4 : index
  %t = arith.constant dense<1.0> : tensor<4xf16>
  %x = tensor.extract %t[%c4] : tensor<4xf16>
  return
}

