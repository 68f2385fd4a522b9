// A row scatter (the inverse of example 16's gather): grid tile t copies
// its 8 rows of X (16 x 128 f16) into the rows of the table Y (64 x 128 f16)
// that ids[8t .. 8t + 7] name. Rows of Y no index names keep their
// contents.
//   Y[ids[r], c] = X[r, c]   for 0 <= r < 16
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#ids_all = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#tab_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @scatter_rows(%x: index, %ids: index, %table: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %t = ktdp.get_compute_tile_id : index
    %base = arith.muli %t, %c8 : index

    %x_mem = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<16x128xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%base, %c0] {
        access_tile_set = #space, access_tile_order = #lex
    } : memref<16x128xf16> -> !ktdp.access_tile<8x128xindex>
    %rows = ktdp.load %x_at : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>

    %ids_mem = ktdp.construct_memory_view %ids, sizes: [16], strides: [1] {
        coordinate_set = #ids_all, memory_space = #ktdp.memory_space<global>
    } : memref<16xi32>
    %tab_mem = ktdp.construct_memory_view %table, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #tab_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %s_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {
          variables_space_set = #space,
          variables_space_order = #lex
        } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %rows, %s_at : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    return
  }
}
