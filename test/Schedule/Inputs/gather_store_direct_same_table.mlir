// Not an in-place update: table[r, :] = table[ids[r], :] + x[r, :] reads
// the table's rows through indices and writes its rows directly at the
// same coordinates, which are other rows (the negative twin of
// scatter_add_rows_32x256_f16.mlir).
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather_store_direct(%x: index, %ids: index, %table: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %crows = arith.constant 16 : index
    %t = ktdp.get_compute_tile_id : index
    %base = arith.muli %t, %crows : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [32, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32x256xf16>
    %ids_mem = ktdp.construct_memory_view %ids, sizes: [32], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<32xi32>
    %tab_mem = ktdp.construct_memory_view %table, sizes: [64, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%base, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #lex
    } : memref<32x256xf16> -> !ktdp.access_tile<16x256xindex>
    %s_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {
          variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>, variables_space_order = #lex
        } : memref<64x256xf16>, memref<32xi32> -> !ktdp.access_tile<16x256xindex>
    %xs = ktdp.load %x_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %rows = ktdp.load %s_at : !ktdp.access_tile<16x256xindex> -> tensor<16x256xf16>
    %e = tensor.empty() : tensor<16x256xf16>
    %y = linalg.add ins(%rows, %xs : tensor<16x256xf16>, tensor<16x256xf16>) outs(%e : tensor<16x256xf16>) -> tensor<16x256xf16>
    %d_at = ktdp.construct_access_tile %tab_mem[%base, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #lex
    } : memref<64x256xf16> -> !ktdp.access_tile<16x256xindex>
    ktdp.store %y, %d_at : tensor<16x256xf16>, !ktdp.access_tile<16x256xindex>
    return
  }
}
