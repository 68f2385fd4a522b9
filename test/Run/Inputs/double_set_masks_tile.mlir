// out = x + x over f16[16, 192] whose coordinate_set keeps columns 0..127
// only. Grid [3] of 64-column tiles: tile 2 is fully masked by the set and
// writes nothing; out[:, 128..191] keep their contents.
#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#v_all = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#v_blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  func.func @double_set_masks_tile(%m: index, %colsum: index) attributes {grid = [3]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %col = arith.muli %t, %c64 : index
    %m_mem = ktdp.construct_memory_view %m, sizes: [16, 192], strides: [192, 1] {
        coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
    } : memref<16x192xf16>
    %at = ktdp.construct_access_tile %m_mem[%c0, %col] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
    %part16 = ktdp.load %at : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    %part = arith.extf %part16 : tensor<16x64xf16> to tensor<16x64xf32>
    %s = arith.addf %part, %part : tensor<16x64xf32>
    %narrow = arith.truncf %s : tensor<16x64xf32> to tensor<16x64xf16>
    %o_mem = ktdp.construct_memory_view %colsum, sizes: [16, 192], strides: [192, 1] {
        coordinate_set = #m_all, memory_space = #ktdp.memory_space<global>
    } : memref<16x192xf16>
    %o_at = ktdp.construct_access_tile %o_mem[%c0, %col] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<16x192xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %narrow, %o_at : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
    return
  }
}
