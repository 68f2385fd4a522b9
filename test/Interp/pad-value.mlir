// tensor.pad's padding value defined inside the pad region (the usual
// printed form) and outside it give the same padded tile; the region's
// constant is evaluated, not read before it ran (that stopped with
// "internal: value used before it was computed").
// RUN: ktflow interp %s --print inner --print outer | FileCheck %s

// CHECK-LABEL: inner f32[2, 4]:
// CHECK-NEXT:    5 1 1 5
// CHECK-NEXT:    5 1 1 5
// CHECK-LABEL: outer f32[2, 4]:
// CHECK-NEXT:    5 1 1 5
// CHECK-NEXT:    5 1 1 5

#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @pad(%inner: index, %outer: index) {
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<1.0> : tensor<2x2xf32>

  %in_region = tensor.pad %v low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %five = arith.constant 5.0 : f32
    tensor.yield %five : f32
  } : tensor<2x2xf32> to tensor<2x4xf32>

  %five_outside = arith.constant 5.0 : f32
  %out_region = tensor.pad %v low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %five_outside : f32
  } : tensor<2x2xf32> to tensor<2x4xf32>

  %iv = ktdp.construct_memory_view %inner, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2x4xf32>
  %it = ktdp.construct_access_tile %iv[%c0, %c0] {access_tile_set = #out, access_tile_order = #lex}
      : memref<2x4xf32> -> !ktdp.access_tile<2x4xindex>
  ktdp.store %in_region, %it : tensor<2x4xf32>, !ktdp.access_tile<2x4xindex>
  %ov = ktdp.construct_memory_view %outer, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2x4xf32>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {access_tile_set = #out, access_tile_order = #lex}
      : memref<2x4xf32> -> !ktdp.access_tile<2x4xindex>
  ktdp.store %out_region, %ot : tensor<2x4xf32>, !ktdp.access_tile<2x4xindex>
  return
}
