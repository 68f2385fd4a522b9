// A runtime_arg left unbound whose value only sets a loop's upper bound and
// a view's size is carried symbolically: the kernel is specialized at its
// upperbound (the view's allocation, the loop's most iterations), the
// loop's bound recorded as a function of the grid coordinates and the
// value, and the value recorded on the kernel with its guarantees.
// Negative twin: unbound-invalid.mlir.
// RUN: ktflow-opt %s -ktsched-specialize | FileCheck %s

// CHECK-DAG: #[[UB:.*]] = affine_map<(d0, d1, d2)[s0] -> (s0 floordiv 4)>
// CHECK-LABEL: func.func @row_blocks
// CHECK-SAME: ktsched.unbound_launch_values = [{arg = 2 : i64, granularity = 4 : i64, name = "rows", type = "index", upperbound = 256 : i64}]
// CHECK-NOT: runtime_arg_extract value
// CHECK: sizes: [256, 64]
// CHECK: scf.for
// CHECK: } {ktsched.symbolic_ub = #[[UB]]}
#m_by_64 = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_blocks(%x: index loc("x"), %y: index loc("y"),
                      %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256> loc("rows"))
    attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %m = ktdp.runtime_arg_extract value from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %gran = ktdp.runtime_arg_extract granularity from %rows
         : !ktdp.runtime_arg<index, granularity=4, upperbound=256> -> index
  %t = ktdp.get_compute_tile_id : index
  %nblocks = arith.divui %m, %gran : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = #m_by_64, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %b = %t to %nblocks step %c2 {
    %r0 = arith.muli %b, %gran : index
    %at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #block, access_tile_order = #lex} : memref<?x64xf16> -> !ktdp.access_tile<4x64xindex>
    %v = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    ktdp.store %v, %at : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
