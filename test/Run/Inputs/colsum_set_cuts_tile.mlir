// Column sums as in colsum_set_masks_tile.mlir, with the set keeping columns
// 0..99: tile 1 has 36 valid columns, whose 72- (f16) byte result is not a
// legal DMA run, and the view's data goes on past it (its sizes reach 192),
// so the store cannot be widened into padding.
#m_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#v_all = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#v_blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
module {
  func.func @colsum_set_cuts_tile(%m: index, %colsum: index) attributes {grid = [3]} {
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
    %zero = arith.constant dense<0.0> : tensor<64xf32>
    %s = linalg.reduce { arith.addf } ins(%part : tensor<16x64xf32>) outs(%zero : tensor<64xf32>) dimensions = [0]
    %narrow = arith.truncf %s : tensor<64xf32> to tensor<64xf16>
    %o_mem = ktdp.construct_memory_view %colsum, sizes: [192], strides: [1] {
        coordinate_set = #v_all, memory_space = #ktdp.memory_space<global>
    } : memref<192xf16>
    %o_at = ktdp.construct_access_tile %o_mem[%col] {
        access_tile_set = #v_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<192xf16> -> !ktdp.access_tile<64xindex>
    ktdp.store %narrow, %o_at : tensor<64xf16>, !ktdp.access_tile<64xindex>
    return
  }
}
