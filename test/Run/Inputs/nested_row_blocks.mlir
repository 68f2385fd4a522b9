// A cyclic row loop around a loop over column blocks, as Triton emits for
// rows longer than one block: tile t handles rows t, t + 2, ..., and walks
// each row in blocks of 64 columns. The inner loop's blocks are adjacent,
// so the schedule takes a whole row per iteration of the row loop.
//   y[r, c] = x[r, c] * x[r, c] + 1
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @nested_rows(%x: index, %y: index, %n_rows: index, %n_cols: index, %BLOCK: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %pid = ktdp.get_compute_tile_id : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [10, 256], strides: [256, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<10x256xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [10, 256], strides: [256, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<10x256xf16>
    scf.for %r = %pid to %n_rows step %c2 {
      scf.for %c = %c0 to %n_cols step %BLOCK {
        %x_at = ktdp.construct_access_tile %x_mem[%r, %c] {
            access_tile_set = #blk, access_tile_order = #lex
        } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
        %xv = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
        %sq = arith.mulf %xv, %xv : tensor<1x64xf16>
        %one = arith.constant dense<1.0> : tensor<1x64xf16>
        %yv = arith.addf %sq, %one : tensor<1x64xf16>
        %y_at = ktdp.construct_access_tile %y_mem[%r, %c] {
            access_tile_set = #blk, access_tile_order = #lex
        } : memref<10x256xf16> -> !ktdp.access_tile<1x64xindex>
        ktdp.store %yv, %y_at : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
      }
    }
    return
  }
}
