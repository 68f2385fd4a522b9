// RMSNorm over the last dimension, 8 rows per tile in one piece: f16 data,
// the sum of squares and the scale in f32 (arith.extf / arith.truncf), a
// weight row broadcast over the tile's rows. Two phases: the per-row sum of
// squares, then the scaled rows.
//
// Grid: [4]. Tile t owns rows [8*t, 8*t + 8).
// Arguments:
//   %x    base address (f16 elements) of f16[32, 512], row-major
//   %w    base address of f16[512]
//   %y    base address of f16[32, 512], row-major
//   %eps  f32 scalar
// Expected result, per row r, with N = 512:
//   y[r, c] = f16( x[r, c] * rsqrt((1/N) * sum_k x[r, k]^2 + eps) * w[c] )
//   tolerance: the composite-kernel row of ktir.md 7.3.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#band = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
#lin = affine_map<(d0) -> (d0)>

module {
  func.func @rmsnorm_rows(%x: index, %w: index, %y: index, %eps: f32) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c8 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [32, 512], strides: [512, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<32x512xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [32, 512], strides: [512, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<32x512xf16>
    %w_mem = ktdp.construct_memory_view %w, sizes: [512], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<32x512xf16> -> !ktdp.access_tile<8x512xindex>
    %w_at = ktdp.construct_access_tile %w_mem[%c0] {
        access_tile_set = #vec, access_tile_order = #lin
    } : memref<512xf16> -> !ktdp.access_tile<512xindex>
    %x16 = ktdp.load %x_at : !ktdp.access_tile<8x512xindex> -> tensor<8x512xf16>
    %w16 = ktdp.load %w_at : !ktdp.access_tile<512xindex> -> tensor<512xf16>
    %xf = arith.extf %x16 : tensor<8x512xf16> to tensor<8x512xf32>
    %sq = arith.mulf %xf, %xf : tensor<8x512xf32>
    %z = arith.constant dense<0.0> : tensor<8xf32>
    %ss = linalg.reduce { arith.addf }
            ins(%sq : tensor<8x512xf32>) outs(%z : tensor<8xf32>) dimensions = [1]
    %inv_n = arith.constant dense<1.953125e-03> : tensor<8xf32>
    %ms = arith.mulf %ss, %inv_n : tensor<8xf32>
    %eps_w = tensor.splat %eps : tensor<8xf32>
    %ms_eps = arith.addf %ms, %eps_w : tensor<8xf32>
    %rstd = math.rsqrt %ms_eps : tensor<8xf32>
    %rstd_e = tensor.empty() : tensor<8x512xf32>
    %rstd_w = linalg.broadcast ins(%rstd : tensor<8xf32>) outs(%rstd_e : tensor<8x512xf32>) dimensions = [1]
    %wf = arith.extf %w16 : tensor<512xf16> to tensor<512xf32>
    %wf_e = tensor.empty() : tensor<8x512xf32>
    %wf_w = linalg.broadcast ins(%wf : tensor<512xf32>) outs(%wf_e : tensor<8x512xf32>) dimensions = [0]
    %xn = arith.mulf %xf, %rstd_w : tensor<8x512xf32>
    %yf = arith.mulf %xn, %wf_w : tensor<8x512xf32>
    %y16 = arith.truncf %yf : tensor<8x512xf32> to tensor<8x512xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%r0, %c0] {
        access_tile_set = #band, access_tile_order = #lex
    } : memref<32x512xf16> -> !ktdp.access_tile<8x512xindex>
    ktdp.store %y16, %y_at : tensor<8x512xf16>, !ktdp.access_tile<8x512xindex>
    return
  }
}
