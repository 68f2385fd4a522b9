// An f16 and an f32 input in one compute group: o = extf(p) + q. A vector
// step is 32 elements on sample (16 f32 lanes = 64 bytes, the f16 type
// filling them): one 64-byte load-unit access of p, two of q and of o,
// which the compute unit joins (`concat`) and cuts (`slice`).
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32).
//   %p  f16[64, 64]  input
//   %q  f32[64, 64]  input
//   %o  f32[64, 64]  output
// Expected result: o = p + q, computed in f32.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @mixed(%p: index, %q: index, %o: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %row0 = arith.muli %t, %c32 : index
    %p_mem = ktdp.construct_memory_view %p, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %q_mem = ktdp.construct_memory_view %q, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf32>
    %o_mem = ktdp.construct_memory_view %o, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf32>
    %p_at = ktdp.construct_access_tile %p_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %q_at = ktdp.construct_access_tile %q_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf32> -> !ktdp.access_tile<32x64xindex>
    %o_at = ktdp.construct_access_tile %o_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf32> -> !ktdp.access_tile<32x64xindex>
    %pv = ktdp.load %p_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %qv = ktdp.load %q_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf32>
    %pw = arith.extf %pv : tensor<32x64xf16> to tensor<32x64xf32>
    %sum = arith.addf %pw, %qv : tensor<32x64xf32>
    ktdp.store %sum, %o_at : tensor<32x64xf32>, !ktdp.access_tile<32x64xindex>
    return
  }
}
