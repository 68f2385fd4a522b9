// An unmasked global access outside every bound buffer is an error with the
// op's location, the tile and the coordinate. The views' offsets depend on
// the tile id, so the buffer's size comes from the bound file (64 elements):
// tile 0 stays inside, tile 1 runs past the end.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import sys; sys.path.insert(0, '%S'); import check_example as c; c.write_npy('%t/a64.npy', 'f4', (64,), [0]*64)"
// RUN: not ktflow interp %s --grid 2 --arg a=%t/a64.npy 2>&1 | FileCheck %s
// RUN: not ktflow interp %s --grid 2 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: ktflow interp %s --grid 1 --arg a=%t/a64.npy | FileCheck %s --check-prefix=OK

// CHECK: out-of-bounds.mlir:[[@LINE+19]]:3: error: global memory access outside every bound buffer: coordinate (0) -> element {{[0-9]+}} (byte {{[0-9]+}}), 256 bytes [tile 1, grid point (1, 0, 0)]
// SIZE: error: cannot infer the size of buffer 'a'
// OK: buffer a: f32[64] {{.*}}, written

#blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id = affine_map<(d0) -> (d0)>
func.func @k(%a: index) {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %off = arith.muli %t, %c64 : index
  %base = arith.addi %a, %off : index
  %v = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {
      coordinate_set = #blk, memory_space = #ktdp.memory_space<global>
  } : memref<64xf32>
  %at = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #blk, access_tile_order = #id
  } : memref<64xf32> -> !ktdp.access_tile<64xindex>
  %z = arith.constant dense<0.0> : tensor<64xf32>
  ktdp.store %z, %at : tensor<64xf32>, !ktdp.access_tile<64xindex>
  return
}
