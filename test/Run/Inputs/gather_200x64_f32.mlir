// A row gather in more than one block per grid tile: 2 tiles of 100 rows of
// 64 f32 (256 bytes) from a 512-row table, named by an i32 index vector;
// tile 1's index run starts 400 bytes in, inside a DMA granule.
#tab_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids_all = affine_set<(d0) : (d0 >= 0, -d0 + 199 >= 0)>
#out_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#space = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @gather_rows(%table: index, %ids: index, %out: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c100 = arith.constant 100 : index
    %t = ktdp.get_compute_tile_id : index
    %base = arith.muli %t, %c100 : index
    %tab_mem = ktdp.construct_memory_view %table, sizes: [512, 64], strides: [64, 1] {
        coordinate_set = #tab_all, memory_space = #ktdp.memory_space<global>
    } : memref<512x64xf32>
    %ids_mem = ktdp.construct_memory_view %ids, sizes: [200], strides: [1] {
        coordinate_set = #ids_all, memory_space = #ktdp.memory_space<global>
    } : memref<200xi32>
    %g_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {
          variables_space_set = #space,
          variables_space_order = #lex
        } : memref<512x64xf32>, memref<200xi32> -> !ktdp.access_tile<100x64xindex>
    %rows = ktdp.load %g_at : !ktdp.access_tile<100x64xindex> -> tensor<100x64xf32>
    %out_mem = ktdp.construct_memory_view %out, sizes: [200, 64], strides: [64, 1] {
        coordinate_set = #out_all, memory_space = #ktdp.memory_space<global>
    } : memref<200x64xf32>
    %o_at = ktdp.construct_access_tile %out_mem[%base, %c0] {
        access_tile_set = #space, access_tile_order = #lex
    } : memref<200x64xf32> -> !ktdp.access_tile<100x64xindex>
    ktdp.store %rows, %o_at : tensor<100x64xf32>, !ktdp.access_tile<100x64xindex>
    return
  }
}
