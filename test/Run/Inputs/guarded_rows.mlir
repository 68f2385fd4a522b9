// A body guarded as Triton guards it: `if pid < n_programs`. Bound to
// n_programs = 2 on a grid of 2 tiles the condition holds on every tile and
// folds away; bound to 1 it differs between the tiles and is diagnosed.
//   y[r, c] = x[r, c] + x[r, c]
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @guarded(%x: index, %y: index, %n_programs: index) attributes {grid = [2]} {
    %c4 = arith.constant 4 : index
    %pid = ktdp.get_compute_tile_id : index
    %active = arith.cmpi slt, %pid, %n_programs : index
    scf.if %active {
      %row = arith.muli %pid, %c4 : index
      %x_mem = ktdp.construct_memory_view %x, sizes: [8, 128], strides: [128, 1] {
          coordinate_set = #all, memory_space = #ktdp.memory_space<global>
      } : memref<8x128xf16>
      %y_mem = ktdp.construct_memory_view %y, sizes: [8, 128], strides: [128, 1] {
          coordinate_set = #all, memory_space = #ktdp.memory_space<global>
      } : memref<8x128xf16>
      %x_at = ktdp.construct_access_tile %x_mem[%row, 0] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
      %yv = arith.addf %xv, %xv : tensor<4x128xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%row, 0] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<8x128xf16> -> !ktdp.access_tile<4x128xindex>
      ktdp.store %yv, %y_at : tensor<4x128xf16>, !ktdp.access_tile<4x128xindex>
    }
    return
  }
}
