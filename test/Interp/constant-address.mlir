// Global memory is one flat space: a view at a constant address gets a
// buffer of its own at exactly that address (named addr<element address>),
// and the kernel's copy from it lands in the argument buffer.
// RUN: ktflow interp %s --print addr1024 --print out | FileCheck %s

// CHECK: buffer addr1024: f32[4] at byte 0x1000
// CHECK-LABEL: addr1024 f32[4]:
// CHECK-NEXT: {{^}}  [[DATA:[-0-9][-0-9.e ]+]]{{$}}
// CHECK-LABEL: out f32[4]:
// CHECK-NEXT: {{^}}  [[DATA]]{{$}}

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>

func.func @from_constant(%out: index) {
  %c0 = arith.constant 0 : index
  %fixed = arith.constant 1024 : index
  %src = ktdp.construct_memory_view %fixed, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xf32>
  %src_at = ktdp.construct_access_tile %src[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %v = ktdp.load %src_at : !ktdp.access_tile<4xindex> -> tensor<4xf32>
  %dst = ktdp.construct_memory_view %out, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<global>
  } : memref<4xf32>
  %dst_at = ktdp.construct_access_tile %dst[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf32> -> !ktdp.access_tile<4xindex>
  ktdp.store %v, %dst_at : tensor<4xf32>, !ktdp.access_tile<4xindex>
  return
}
