// Element-wise i32 arithmetic: o = max(a * b * 2^28 + 3 - a, -(b)) over
// i32 buffers, whose products overflow i32 and wrap (ktir.md "Integer
// semantics"; random i32 inputs are 0..15, so a * b >= 8 wraps), and
// sel = a < b ? a : b (a lane-wise cmpi + select).
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32).
//   %a    i32[64, 64]  input
//   %b    i32[64, 64]  input
//   %o    i32[64, 64]  output
//   %sel  i32[64, 64]  output
// Expected result (exact): o = maxsi(a * b * 2^28 + 3 - a, 0 - b) wrapped,
// sel = minsi-by-select(a, b).

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @int_ew(%a: index, %b: index, %o: index, %sel: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %row0 = arith.muli %t, %c32 : index
    %a_mem = ktdp.construct_memory_view %a, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xi32>
    %b_mem = ktdp.construct_memory_view %b, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xi32>
    %o_mem = ktdp.construct_memory_view %o, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xi32>
    %s_mem = ktdp.construct_memory_view %sel, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xi32>
    %a_at = ktdp.construct_access_tile %a_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xi32> -> !ktdp.access_tile<32x64xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xi32> -> !ktdp.access_tile<32x64xindex>
    %o_at = ktdp.construct_access_tile %o_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xi32> -> !ktdp.access_tile<32x64xindex>
    %s_at = ktdp.construct_access_tile %s_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xi32> -> !ktdp.access_tile<32x64xindex>
    %av = ktdp.load %a_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xi32>
    %bv = ktdp.load %b_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xi32>
    %three = arith.constant dense<3> : tensor<32x64xi32>
    %zero = arith.constant dense<0> : tensor<32x64xi32>
    %big = arith.constant dense<268435456> : tensor<32x64xi32>
    %ab = arith.muli %av, %bv : tensor<32x64xi32>
    %prod = arith.muli %ab, %big : tensor<32x64xi32>
    %p3 = arith.addi %prod, %three : tensor<32x64xi32>
    %d = arith.subi %p3, %av : tensor<32x64xi32>
    %nb = arith.subi %zero, %bv : tensor<32x64xi32>
    %r = arith.maxsi %d, %nb : tensor<32x64xi32>
    ktdp.store %r, %o_at : tensor<32x64xi32>, !ktdp.access_tile<32x64xindex>
    %lt = arith.cmpi slt, %av, %bv : tensor<32x64xi32>
    %m = arith.select %lt, %av, %bv : tensor<32x64xi1>, tensor<32x64xi32>
    ktdp.store %m, %s_at : tensor<32x64xi32>, !ktdp.access_tile<32x64xindex>
    return
  }
}
