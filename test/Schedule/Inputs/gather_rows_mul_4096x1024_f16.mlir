// ktflow gen --kernel gather --shape 4096x1024 --dtype f16 --grid 1
// gather: f16 table[4096, 1024] and out 4096x1024, i32 ids[4096]; grid 1, 4096 rows per tile.
// out[r, :] = table[ids[r], :] * table[ids[r], :]: gathered rows squared on one
// core (ktflow gen --kernel gather, a mulf added).
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @gather_4096x1024_f16(%table: index, %ids: index, %out: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %crows = arith.constant 4096 : index
    %t = ktdp.get_compute_tile_id : index
    %base = arith.muli %t, %crows : index
    %tab_mem = ktdp.construct_memory_view %table, sizes: [4096, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<4096x1024xf16>
    %ids_mem = ktdp.construct_memory_view %ids, sizes: [4096], strides: [1] {
        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<4096xi32>
    %g_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {
          variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, variables_space_order = #lex
        } : memref<4096x1024xf16>, memref<4096xi32> -> !ktdp.access_tile<4096x1024xindex>
    %out_mem = ktdp.construct_memory_view %out, sizes: [4096, 1024], strides: [1024, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<4096x1024xf16>
    %o_at = ktdp.construct_access_tile %out_mem[%base, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<4096x1024xindex>
    %rows = ktdp.load %g_at : !ktdp.access_tile<4096x1024xindex> -> tensor<4096x1024xf16>
    %moved = arith.mulf %rows, %rows : tensor<4096x1024xf16>
    ktdp.store %moved, %o_at : tensor<4096x1024xf16>, !ktdp.access_tile<4096x1024xindex>
    return
  }
}
