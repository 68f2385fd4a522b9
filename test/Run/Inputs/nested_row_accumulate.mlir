// Row sums over column blocks inside a cyclic loop over row chunks: tile t
// takes chunks of 64 rows starting at 64t, 64t + 128, ...; for each chunk an
// inner loop walks the row in blocks of 64 columns and carries the running
// f32 sums (an iter_arg), which are scaled to means and stored after it.
//   y[r] = f16( (1/256) * sum_c f32(x[r, c]) )
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y_all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#y_blk = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_means(%x: index, %y: index, %n_rows: index, %n_cols: index)
      attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %pid = ktdp.get_compute_tile_id : index
    %first = arith.muli %pid, %c64 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [256, 256], strides: [256, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<256x256xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [256], strides: [1] {
        coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    scf.for %r = %first to %n_rows step %c128 {
      %zero = arith.constant dense<0.0> : tensor<64xf32>
      %sums = scf.for %c = %c0 to %n_cols step %c64 iter_args(%acc = %zero) -> (tensor<64xf32>) {
        %x_at = ktdp.construct_access_tile %x_mem[%r, %c] {
            access_tile_set = #blk, access_tile_order = #lex
        } : memref<256x256xf16> -> !ktdp.access_tile<64x64xindex>
        %xv16 = ktdp.load %x_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
        %xv = arith.extf %xv16 : tensor<64x64xf16> to tensor<64x64xf32>
        %init = arith.constant dense<0.0> : tensor<64xf32>
        %part = linalg.reduce { arith.addf } ins(%xv : tensor<64x64xf32>)
                  outs(%init : tensor<64xf32>) dimensions = [1]
        %next = arith.addf %acc, %part : tensor<64xf32>
        scf.yield %next : tensor<64xf32>
      }
      %scale = arith.constant dense<0.00390625> : tensor<64xf32>
      %means = arith.mulf %sums, %scale : tensor<64xf32>
      %m16 = arith.truncf %means : tensor<64xf32> to tensor<64xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r] {
          access_tile_set = #y_blk, access_tile_order = affine_map<(d0) -> (d0)>
      } : memref<256xf16> -> !ktdp.access_tile<64xindex>
      ktdp.store %m16, %y_at : tensor<64xf16>, !ktdp.access_tile<64xindex>
    }
    return
  }
}
