// Negative twin of nested.mlir: a loop without iter_args at the top is the
// group's loop level already and stays; an inner loop that reads one block
// again every iteration (a broadcast row) has no union to take, so it stays
// for the input check's nesting diagnostic.
// RUN: ktflow-opt %s -split-input-file -ktsched-absorb-loops | FileCheck %s

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @top_level
// CHECK: scf.for
// CHECK-NOT: ktsched.absorbed_loop
func.func @top_level(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  %y_mem = ktdp.construct_memory_view %y, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  scf.for %c = %c0 to %c256 step %c64 {
    %x_at = ktdp.construct_access_tile %x_mem[%c0, %c] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %c] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %xv, %y_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}

// -----

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @reread
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: ktsched.absorbed_loop
func.func @reread(%x: index, %y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x_mem = ktdp.construct_memory_view %x, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  %y_mem = ktdp.construct_memory_view %y, sizes: [10, 256], strides: [256, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
  } : memref<10x256xf16>
  scf.for %r = %c0 to %c10 step %c1 {
    scf.for %c = %c0 to %c256 step %c64 {
      %w_at = ktdp.construct_access_tile %x_mem[%c0, %c0] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
      %w = ktdp.load %w_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %x_at = ktdp.construct_access_tile %x_mem[%r, %c] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %yv = arith.addf %xv, %w : tensor<1x64xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r, %c] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
      ktdp.store %yv, %y_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
  }
  return
}
