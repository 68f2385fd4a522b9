// Conversions between integer and float data in one group: an i32 index
// count and an f32 scale in, y = sitofp(n) * s (f32) and q = fptosi(s * 4)
// + n (i32) out, and w = extsi(trunci(n * 20 - 100)) through i8 (n is
// 0..15, so n * 20 - 100 is -100..200 and wraps to [-128, 127]).
//
// Grid: [2]. Tile t owns elements [512*t, 512*t + 512).
//   %n  i32[1024]  input
//   %s  f32[1024]  input
//   %y  f32[1024]  output
//   %q  i32[1024]  output
//   %w  i32[1024]  output
// Expected result (exact): as written, sitofp rounding to nearest even,
// fptosi truncating toward zero.

#all = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#blk = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#lex = affine_map<(d0) -> (d0)>

module {
  func.func @casts(%n: index, %s: index, %y: index, %q: index, %w: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c512 = arith.constant 512 : index
    %base = arith.muli %t, %c512 : index
    %n_mem = ktdp.construct_memory_view %n, sizes: [1024], strides: [1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<1024xi32>
    %s_mem = ktdp.construct_memory_view %s, sizes: [1024], strides: [1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<1024xf32>
    %y_mem = ktdp.construct_memory_view %y, sizes: [1024], strides: [1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<1024xf32>
    %q_mem = ktdp.construct_memory_view %q, sizes: [1024], strides: [1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<1024xi32>
    %w_mem = ktdp.construct_memory_view %w, sizes: [1024], strides: [1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<1024xi32>
    %n_at = ktdp.construct_access_tile %n_mem[%base] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<1024xi32> -> !ktdp.access_tile<512xindex>
    %s_at = ktdp.construct_access_tile %s_mem[%base] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<1024xf32> -> !ktdp.access_tile<512xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%base] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<1024xf32> -> !ktdp.access_tile<512xindex>
    %q_at = ktdp.construct_access_tile %q_mem[%base] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<1024xi32> -> !ktdp.access_tile<512xindex>
    %w_at = ktdp.construct_access_tile %w_mem[%base] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<1024xi32> -> !ktdp.access_tile<512xindex>
    %nv = ktdp.load %n_at : !ktdp.access_tile<512xindex> -> tensor<512xi32>
    %sv = ktdp.load %s_at : !ktdp.access_tile<512xindex> -> tensor<512xf32>
    %nf = arith.sitofp %nv : tensor<512xi32> to tensor<512xf32>
    %yv = arith.mulf %nf, %sv : tensor<512xf32>
    ktdp.store %yv, %y_at : tensor<512xf32>, !ktdp.access_tile<512xindex>
    %four = arith.constant dense<4.0> : tensor<512xf32>
    %s4 = arith.mulf %sv, %four : tensor<512xf32>
    %si = arith.fptosi %s4 : tensor<512xf32> to tensor<512xi32>
    %qv = arith.addi %si, %nv : tensor<512xi32>
    ktdp.store %qv, %q_at : tensor<512xi32>, !ktdp.access_tile<512xindex>
    %c20 = arith.constant dense<20> : tensor<512xi32>
    %c100 = arith.constant dense<100> : tensor<512xi32>
    %n20 = arith.muli %nv, %c20 : tensor<512xi32>
    %nm = arith.subi %n20, %c100 : tensor<512xi32>
    %n8 = arith.trunci %nm : tensor<512xi32> to tensor<512xi8>
    %wv = arith.extsi %n8 : tensor<512xi8> to tensor<512xi32>
    ktdp.store %wv, %w_at : tensor<512xi32>, !ktdp.access_tile<512xindex>
    return
  }
}
