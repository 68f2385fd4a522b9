// Example 11 (examples/ktir/11_scratchpad_stage_and_reuse.mlir) with its
// scratchpad regions moved from local elements 65536/65792 (bytes 131072 on)
// to 98304/98560 (bytes 196608 on): past deep's 192 KiB L1, inside spyre's
// 2 MiB LX, so the capacity rule is what rejects it on deep.
//
// 11_scratchpad_stage_and_reuse.mlir
//
// Uses each tile's private scratchpad (#ktdp.memory_space<ct_local>). Every
// tile:
//   1. loads its row v of the input from global memory,
//   2. writes v to its scratchpad at local address 65536 and v * v at
//      local address 65792 (= 65536 + 256), through two 1x256 views,
//   3. reads both back through one 2x256 view of the same scratchpad
//      memory (row 0 is v, row 1 is v * v), one row at a time,
//   4. adds the two rows and stores the sum to global memory.
// All four tiles use the same local addresses. That is correct because
// ct_local without ct_id names the executing tile's own scratchpad. Local
// addresses count elements of the view's element type: the two regions are
// 256 f16 elements (512 bytes) apart, which is exactly row 1 of the 2x256
// view. The program owns this scratchpad region: an implementation must not
// put its own temporaries (for example the tensors produced by ktdp.load)
// there.
//
// Grid: [4]. Tile t handles row t.
// Arguments (base addresses in f16 elements, global memory):
//   %src  f16[4, 256], row-major
//   %dst  f16[4, 256], row-major
// Expected result (each operation rounded to f16):
//   dst[t, c] = src[t, c] + src[t, c] * src[t, c]

#g_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>
#two_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @stage_in_scratchpad(%src: index, %dst: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %local_v = arith.constant 98304 : index
    %local_sq = arith.constant 98560 : index
    %t = ktdp.get_compute_tile_id : index

    %src_mem = ktdp.construct_memory_view %src, sizes: [4, 256], strides: [256, 1] {
        coordinate_set = #g_all, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%t, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %v = ktdp.load %src_at : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
    %v_sq = arith.mulf %v, %v : tensor<1x256xf16>

    // Two 1x256 views into this tile's scratchpad.
    %lv_mem = ktdp.construct_memory_view %local_v, sizes: [1, 256], strides: [256, 1] {
        coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>
    } : memref<1x256xf16>
    %lsq_mem = ktdp.construct_memory_view %local_sq, sizes: [1, 256], strides: [256, 1] {
        coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>
    } : memref<1x256xf16>
    %lv_at = ktdp.construct_access_tile %lv_mem[%c0, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<1x256xf16> -> !ktdp.access_tile<1x256xindex>
    %lsq_at = ktdp.construct_access_tile %lsq_mem[%c0, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<1x256xf16> -> !ktdp.access_tile<1x256xindex>
    ktdp.store %v, %lv_at : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    ktdp.store %v_sq, %lsq_at : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>

    // One 2x256 view over the same scratchpad memory: its row 1 starts at
    // local element 65536 + 256, where v * v was written.
    %c1 = arith.constant 1 : index
    %both_mem = ktdp.construct_memory_view %local_v, sizes: [2, 256], strides: [256, 1] {
        coordinate_set = #two_rows, memory_space = #ktdp.memory_space<ct_local>
    } : memref<2x256xf16>
    %row0_at = ktdp.construct_access_tile %both_mem[%c0, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<2x256xf16> -> !ktdp.access_tile<1x256xindex>
    %row1_at = ktdp.construct_access_tile %both_mem[%c1, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<2x256xf16> -> !ktdp.access_tile<1x256xindex>
    %again_v = ktdp.load %row0_at : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
    %again_sq = ktdp.load %row1_at : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
    %res = arith.addf %again_v, %again_sq : tensor<1x256xf16>

    %dst_mem = ktdp.construct_memory_view %dst, sizes: [4, 256], strides: [256, 1] {
        coordinate_set = #g_all, memory_space = #ktdp.memory_space<global>
    } : memref<4x256xf16>
    %dst_at = ktdp.construct_access_tile %dst_mem[%t, %c0] {
        access_tile_set = #row, access_tile_order = #lex
    } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    ktdp.store %res, %dst_at : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
    return
  }
}
