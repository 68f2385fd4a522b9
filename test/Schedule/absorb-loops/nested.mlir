// A loop over adjacent column blocks inside a cyclic row loop becomes one
// block of the whole span: the row loop is the group's one loop level.
// Negative twin: nested-kept.mlir.
// RUN: ktflow-opt %s -ktsched-absorb-loops | FileCheck %s

// CHECK-LABEL: func.func @rows_of_blocks
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: scf.for
// CHECK: ktdp.construct_access_tile %{{.*}}[%[[R]], %{{.*}}] {{.*}}ktsched.absorbed_loop = {carried = "none", dim = 1 : i64, trips = 4 : i64}{{.*}} -> !ktdp.access_tile<1x256xindex>
// CHECK: arith.constant dense<1.000000e+00> : tensor<1x256xf16>
// CHECK: ktdp.store %{{.*}} : tensor<1x256xf16>

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows_of_blocks(%x: index, %y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %one = arith.constant dense<1.0> : tensor<1x64xf16>
  %pid = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  %y_mem = ktdp.construct_memory_view %y, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  scf.for %r = %pid to %c10 step %c2 {
    scf.for %c = %c0 to %c256 step %c64 {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %c] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %yv = arith.addf %xv, %one : tensor<1x64xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r, %c] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %yv, %y_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}
