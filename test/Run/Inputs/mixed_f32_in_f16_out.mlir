// Two f32 inputs and an f16 input in one compute group, with an f16 and an
// f32 output: p = a * b (f32), o = truncf(p) + c (f16). A vector step is
// as many elements as fill one compute vector's bytes with the narrowest
// type (f16); the f32 buffers move that step in two load/store accesses.
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32).
//   %a  f32[64, 128]  input
//   %b  f32[64, 128]  input
//   %c  f16[64, 128]  input
//   %p  f32[64, 128]  output
//   %o  f16[64, 128]  output
// Expected result: p = a * b in f32; o = f16(p) + c in f16.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @mixed_out(%a: index, %b: index, %c: index, %p: index, %o: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %row0 = arith.muli %t, %c32 : index
    %a_mem = ktdp.construct_memory_view %a, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf32>
    %b_mem = ktdp.construct_memory_view %b, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf32>
    %c_mem = ktdp.construct_memory_view %c, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %p_mem = ktdp.construct_memory_view %p, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf32>
    %o_mem = ktdp.construct_memory_view %o, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %a_at = ktdp.construct_access_tile %a_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x128xf32> -> !ktdp.access_tile<32x128xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x128xf32> -> !ktdp.access_tile<32x128xindex>
    %c_at = ktdp.construct_access_tile %c_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %p_at = ktdp.construct_access_tile %p_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x128xf32> -> !ktdp.access_tile<32x128xindex>
    %o_at = ktdp.construct_access_tile %o_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %av = ktdp.load %a_at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf32>
    %bv = ktdp.load %b_at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf32>
    %cv = ktdp.load %c_at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
    %prod = arith.mulf %av, %bv : tensor<32x128xf32>
    %narrow = arith.truncf %prod : tensor<32x128xf32> to tensor<32x128xf16>
    %sum = arith.addf %narrow, %cv : tensor<32x128xf16>
    ktdp.store %prod, %p_at : tensor<32x128xf32>, !ktdp.access_tile<32x128xindex>
    ktdp.store %sum, %o_at : tensor<32x128xf16>, !ktdp.access_tile<32x128xindex>
    return
  }
}
