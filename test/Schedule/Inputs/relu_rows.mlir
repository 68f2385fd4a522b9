// y = max(a * b + c, 0) on f16[32, 256]; grid [2], tile t owns rows
// [16 t, 16 t + 16). A fused elementwise chain with a relu.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @relu_rows(%a: index, %b: index, %c: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c16 : index
    %a_mem = ktdp.construct_memory_view %a, sizes: [32, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %b_mem = ktdp.construct_memory_view %b, sizes: [32, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %c_mem = ktdp.construct_memory_view %c, sizes: [32, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [32, 256], strides: [256, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
    %a_at = ktdp.construct_access_tile %a_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<32x256xf16> -> !ktdp.access_tile<16x256xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<32x256xf16> -> !ktdp.access_tile<16x256xindex>
    %c_at = ktdp.construct_access_tile %c_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<32x256xf16> -> !ktdp.access_tile<16x256xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<32x256xf16> -> !ktdp.access_tile<16x256xindex>
    %av = ktdp.load %a_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %bv = ktdp.load %b_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %cv = ktdp.load %c_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %p = arith.mulf %av, %bv : tensor<16x256xf16>
    %s = arith.addf %p, %cv : tensor<16x256xf16>
    %zero = arith.constant dense<0.0> : tensor<16x256xf16>
    %r = arith.maximumf %s, %zero : tensor<16x256xf16>
    ktdp.store %r, %y_at : tensor<16x256xf16>, !ktdp.access_tile<16x256xindex>
    return
  }
}
