// --check-races reports global bytes that one tile writes and another tile
// reads or writes (ktir.md §2.4). Without the flag, tiles simply run in
// linear-id order. The examples partition their writes and pass.
// RUN: not ktflow interp %s --func both_write --check-races 2>&1 | FileCheck %s --check-prefix=WW
// RUN: not ktflow interp %s --func read_neighbour --check-races 2>&1 | FileCheck %s --check-prefix=RW
// RUN: ktflow interp %s --func both_write | FileCheck %s --check-prefix=NOCHECK
// RUN: ktflow interp %examples/ktir/02_matrix_arith_2d_grid.mlir --check-races | FileCheck %s --check-prefix=CLEAN
// RUN: ktflow interp %examples/ktir/16_indirect_row_gather.mlir --check-races | FileCheck %s --check-prefix=CLEAN

// WW: check-races.mlir:[[@LINE+18]]:3: error: cross-tile conflict: tile 1 writes byte {{[0-9]+}} of buffer 'out', which tile 0 wrote (a data race, ktir.md §2.4) [tile 1
// RW: error: cross-tile conflict: tile 1 writes byte {{[0-9]+}} of buffer 'out', which tile 0 read
// NOCHECK: buffer out: f32[4] {{.*}}, written
// CLEAN: tiles

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id = affine_map<(d0) -> (d0)>

func.func @both_write(%out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %v = ktdp.construct_memory_view %out, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xf32>
  %at = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %x = arith.constant dense<1.0> : tensor<4xf32>
  ktdp.store %x, %at : tensor<4xf32>, !ktdp.access_tile<4xindex>
  return
}

func.func @read_neighbour(%out: index) attributes {grid = [2]} {
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %mine = arith.muli %t, %c2 : index
  %v = ktdp.construct_memory_view %out, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xf32>
  %w = ktdp.construct_access_tile %v[%mine] {
      access_tile_set = #two, access_tile_order = #id
  } : memref<4xf32> -> !ktdp.access_tile<2xindex>
  %x = arith.constant dense<1.0> : tensor<2xf32>
  ktdp.store %x, %w : tensor<2xf32>, !ktdp.access_tile<2xindex>
  // Every tile then reads all four elements, two of them another tile's.
  %c0 = arith.constant 0 : index
  %all = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %r = ktdp.load %all : !ktdp.access_tile<4xindex> -> tensor<4xf32>
  return
}
