// mixed_buffer_types.mlir with rows of 48 elements: the f16 buffer makes a
// step 32 elements on sample (one 64-byte access of f16), and 48 is not a
// whole number of steps, while an all-f32 group (16-element steps) would
// divide it. Each grid tile is whole dense rows, so the rows are one flat
// run (ktsched-flatten) of whole steps.
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32).
//   %p  f16[64, 48]  input
//   %q  f32[64, 48]  input
//   %o  f32[64, 48]  output
// Expected result: o = p + q, computed in f32.

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 47 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @mixed(%p: index, %q: index, %o: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %row0 = arith.muli %t, %c32 : index
    %p_mem = ktdp.construct_memory_view %p, sizes: [64, 48], strides: [48, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x48xf16>
    %q_mem = ktdp.construct_memory_view %q, sizes: [64, 48], strides: [48, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x48xf32>
    %o_mem = ktdp.construct_memory_view %o, sizes: [64, 48], strides: [48, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x48xf32>
    %p_at = ktdp.construct_access_tile %p_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x48xf16> -> !ktdp.access_tile<32x48xindex>
    %q_at = ktdp.construct_access_tile %q_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x48xf32> -> !ktdp.access_tile<32x48xindex>
    %o_at = ktdp.construct_access_tile %o_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x48xf32> -> !ktdp.access_tile<32x48xindex>
    %pv = ktdp.load %p_at : !ktdp.access_tile<32x48xindex> -> tensor<32x48xf16>
    %qv = ktdp.load %q_at : !ktdp.access_tile<32x48xindex> -> tensor<32x48xf32>
    %pw = arith.extf %pv : tensor<32x48xf16> to tensor<32x48xf32>
    %sum = arith.addf %pw, %qv : tensor<32x48xf32>
    ktdp.store %sum, %o_at : tensor<32x48xf32>, !ktdp.access_tile<32x48xindex>
    return
  }
}
