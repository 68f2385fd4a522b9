// Negative twin of nested-broadcast.mlir: a value broadcast along the rows
// (a row vector of 64 columns read by every block alike) is not a part of
// the wider block, and the column-block loop stays.
// RUN: ktflow-opt %s -ktsched-absorb-loops | FileCheck %s

// CHECK-LABEL: func.func @same_row_every_block
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: ktsched.absorbed_loop
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
func.func @same_row_every_block(%x: index, %y: index, %s: tensor<64xf32>) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf32>
  %y_mem = ktdp.construct_memory_view %y, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<8x256xf32>
  scf.for %r = %t to %c8 step %c2 {
    %e = tensor.empty() : tensor<1x64xf32>
    %row = linalg.broadcast ins(%s : tensor<64xf32>) outs(%e : tensor<1x64xf32>) dimensions = [0]
    scf.for %k = %c0 to %c256 step %c64 {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %k] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<8x256xf32> -> !ktdp.access_tile<1x64xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
      %p = arith.mulf %xv, %row : tensor<1x64xf32>
      %y_at = ktdp.construct_access_tile %y_mem[%r, %k] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<8x256xf32> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %p, %y_at : tensor<1x64xf32>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}
