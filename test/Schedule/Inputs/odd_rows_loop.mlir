// y = x / w + bias, rows looped with scf.for (no iter_args), 5 rows of
// f16[5, 192] per iteration: the 5 rows split unevenly over two sub-cores.
// w is a column vector (one value per row, broadcast along the row), bias
// a row vector, and the loop runs t, t + 2, ... < 4 over row blocks.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 4 >= 0)>
#wall = affine_set<(d0) : (d0 >= 0, -d0 + 19 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 191 >= 0)>
#o1 = affine_map<(d0) -> (d0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @odd_rows_loop(%x: index, %w: index, %bias: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %t = ktdp.get_compute_tile_id : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [20, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<20x192xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [20, 192], strides: [192, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<20x192xf16>
    %w_mem = ktdp.construct_memory_view %w, sizes: [20], strides: [1] {coordinate_set = #wall, memory_space = #ktdp.memory_space<global>} : memref<20xf16>
    %b_mem = ktdp.construct_memory_view %bias, sizes: [192], strides: [1] {coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<192xf16>
    %b_at = ktdp.construct_access_tile %b_mem[%c0] {access_tile_set = #row, access_tile_order = #o1} : memref<192xf16> -> !ktdp.access_tile<192xindex>
    %bv = ktdp.load %b_at : !ktdp.access_tile<192xindex> -> tensor<192xf16>
    scf.for %blk = %t to %c4 step %c2 {
      %r0 = arith.muli %blk, %c5 : index
      %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<20x192xf16> -> !ktdp.access_tile<5x192xindex>
      %w_at = ktdp.construct_access_tile %w_mem[%r0] {access_tile_set = #col, access_tile_order = #o1} : memref<20xf16> -> !ktdp.access_tile<5xindex>
      %xv = ktdp.load %x_at : !ktdp.access_tile<5x192xindex> -> tensor<5x192xf16>
      %wv = ktdp.load %w_at : !ktdp.access_tile<5xindex> -> tensor<5xf16>
      %we = tensor.empty() : tensor<5x192xf16>
      %ww = linalg.broadcast ins(%wv : tensor<5xf16>) outs(%we : tensor<5x192xf16>) dimensions = [1]
      %be = tensor.empty() : tensor<5x192xf16>
      %bw = linalg.broadcast ins(%bv : tensor<192xf16>) outs(%be : tensor<5x192xf16>) dimensions = [0]
      %q = arith.divf %xv, %ww : tensor<5x192xf16>
      %s = arith.addf %q, %bw : tensor<5x192xf16>
      %y_at = ktdp.construct_access_tile %y_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #lex} : memref<20x192xf16> -> !ktdp.access_tile<5x192xindex>
      ktdp.store %s, %y_at : tensor<5x192xf16>, !ktdp.access_tile<5x192xindex>
    }
    return
  }
}
