// Negative twin of unbound.mlir: an unbound value that reaches a subscript
// (here the last block's start) cannot be a table entry, so it is not
// carried: nothing is recorded or substituted, and the input check names the
// argument to bind. The same when a loop would leave the view for a smaller
// value (its bound does not follow the view's size), or without an
// upperbound (nothing sizes the views).
// RUN: ktflow-opt %s -ktsched-specialize | FileCheck %s
// RUN: not ktflow-opt %s -mlir-print-op-on-diagnostic=false -ktsched-specialize -ktsched-check-input 2>&1 | FileCheck %s --check-prefix=DIAG

// CHECK-LABEL: func.func @last_block
// CHECK-NOT: ktsched.unbound_launch_values
// CHECK: runtime_arg_extract value
// CHECK-NOT: ktsched.symbolic_ub
// CHECK-LABEL: func.func @past_the_view
// CHECK-NOT: ktsched.unbound_launch_values
// CHECK: runtime_arg_extract value
// CHECK-NOT: ktsched.symbolic_ub
// CHECK-LABEL: func.func @no_upperbound
// CHECK-NOT: ktsched.unbound_launch_values
// DIAG: error: 'ktdp.runtime_arg_extract' of the launch value not supported: symbolic launch values are missing (it depends on kernel argument 'rows', which no launch value binds: pass --arg rows=VALUE)
#m_by_64 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @last_block(%x: index loc("x"),
                      %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256> loc("rows"))
    attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m = ktdp.runtime_arg_extract value from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %x_mem = ktdp.construct_memory_view %x, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = #m_by_64, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %r0 = arith.subi %m, %c4 : index
  %at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
      access_tile_set = #block, access_tile_order = #lex} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
  %v = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %v, %at : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}

func.func @past_the_view(%x: index loc("x"),
                         %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256> loc("rows"))
    attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  %m = ktdp.runtime_arg_extract value from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %t = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = #m_by_64, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %b = %t to %c64 step %c2 {
    %r0 = arith.muli %b, %c4 : index
    %at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #block, access_tile_order = #lex} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    ktdp.store %v, %at : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}

func.func @no_upperbound(%x: index loc("x"),
                         %rows: !ktdp.runtime_arg<index, granularity=4> loc("rows"))
    attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %m = ktdp.runtime_arg_extract value from %rows : !ktdp.runtime_arg<index, granularity=4> -> index
  %x_mem = ktdp.construct_memory_view %x, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = #m_by_64, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  return
}
