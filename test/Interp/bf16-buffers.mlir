// bf16 buffers are read and written as '<u2' .npy files of raw bit
// patterns, and bf16 arithmetic rounds to bf16 after each op: 1 + 2^-8 is a
// tie between 1 and 1 + 2^-7 and rounds to even (1); 1 + 3*2^-8 rounds up.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 -c "import sys; sys.path.insert(0, '%S'); import check_example as c; c.DTYPES['u2'] = ('H', 2); c.write_npy('%t/x.npy', 'u2', (4,), [0x3f80, 0x3f80, 0x4000, 0xbf80])"
// RUN: ktflow interp %s --arg x=%t/x.npy --out %t/out --print y | FileCheck %s
// RUN: python3 -c "import sys; sys.path.insert(0, '%S'); import check_example as c; c.DTYPES['u2'] = ('H', 2); print(c.read_npy('%t/out/y.npy'))" | FileCheck %s --check-prefix=NPY

// CHECK-LABEL: y bf16[4]:
// CHECK-NEXT:    1 1.01562 2 -1
// NPY: ('u2', (4,), [16256, 16258, 16384, 49024])

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>

func.func @bf16_add(%x: index, %y: index) {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %x, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xbf16>
  %x_at = ktdp.construct_access_tile %xv[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xbf16> -> !ktdp.access_tile<4xindex>
  %a = ktdp.load %x_at : !ktdp.access_tile<4xindex> -> tensor<4xbf16>
  %d = arith.constant dense<[0.00390625, 0.01171875, 0.0, 0.0]> : tensor<4xf32>
  %ab = arith.extf %a : tensor<4xbf16> to tensor<4xf32>
  %s32 = arith.addf %ab, %d : tensor<4xf32>
  %s = arith.truncf %s32 : tensor<4xf32> to tensor<4xbf16>
  %yv = ktdp.construct_memory_view %y, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xbf16>
  %y_at = ktdp.construct_access_tile %yv[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xbf16> -> !ktdp.access_tile<4xindex>
  ktdp.store %s, %y_at : tensor<4xbf16>, !ktdp.access_tile<4xindex>
  return
}
