// Reads back a buffer the kernel stored earlier in program order
// (%back = o_add), then overwrites %p: a compute group loads all its inputs
// before it stores, so this kernel is rejected, not silently reordered.
//
// Grid: [2]. Tile t owns rows [32*t, 32*t + 32) of both matrices.
// Arguments: base addresses (in f16 elements) of row-major f16 matrices.
//   %p, %q   f16[64, 64]    inputs
//   %r       f16[64, 128]   input
//   %o_add   f16[64, 64]    output
//   %o_sq    f16[64, 128]   output
// Expected result (each operation rounded to f16):
//   o_add = p + q
//   o_sq  = r * r

#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#wide = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#wblk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @two_groups(%p: index, %q: index, %r: index, %o_add: index, %o_sq: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %row0 = arith.muli %t, %c32 : index

    %p_mem = ktdp.construct_memory_view %p, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %q_mem = ktdp.construct_memory_view %q, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %r_mem = ktdp.construct_memory_view %r, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #wide, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %add_mem = ktdp.construct_memory_view %o_add, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %sq_mem = ktdp.construct_memory_view %o_sq, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #wide, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>

    %p_at = ktdp.construct_access_tile %p_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %q_at = ktdp.construct_access_tile %q_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %r_at = ktdp.construct_access_tile %r_mem[%row0, %c0] {
        access_tile_set = #wblk, access_tile_order = #rowmajor
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %add_at = ktdp.construct_access_tile %add_mem[%row0, %c0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %sq_at = ktdp.construct_access_tile %sq_mem[%row0, %c0] {
        access_tile_set = #wblk, access_tile_order = #rowmajor
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>

    %pv = ktdp.load %p_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %qv = ktdp.load %q_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %v_add = arith.addf %pv, %qv : tensor<32x64xf16>
    ktdp.store %v_add, %add_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>

    %rv = ktdp.load %r_at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
    %back = ktdp.load %add_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %twice = arith.addf %back, %back : tensor<32x64xf16>
    ktdp.store %twice, %p_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    %v_sq = arith.mulf %rv, %rv : tensor<32x128xf16>
    ktdp.store %v_sq, %sq_at : tensor<32x128xf16>, !ktdp.access_tile<32x128xindex>
    return
  }
}
