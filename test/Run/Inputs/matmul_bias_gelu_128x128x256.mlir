// ktflow gen --kernel matmul-bias-gelu --shape 128x128x256 --grid 1
// C = gelu(A @ B + bias) (tanh form): f16 A 128x256, B 256x128, products summed in f32, C f16;
// grid 1x1 of 128x128 output blocks, K loop of 64-wide blocks.
// bias: f16 1x128, broadcast along M.
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_bias_gelu_128x128x256(%A: index, %B: index, %bias: index, %C: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %cbm = arith.constant 128 : index
    %cbn = arith.constant 128 : index
    %cbk = arith.constant 64 : index
    %ck = arith.constant 256 : index
    %gm, %gn = ktdp.get_compute_tile_id : index, index
    %i0 = arith.muli %gm, %cbm : index
    %j0 = arith.muli %gn, %cbn : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [128, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x256xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x128xf16>
    %r_mem = ktdp.construct_memory_view %bias, sizes: [1, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<1x128xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [128, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x128xf16>
    %acc0 = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc = scf.for %k0 = %c0 to %ck step %cbk
        iter_args(%part = %acc0) -> (tensor<128x128xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%i0, %k0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<128x256xf16> -> !ktdp.access_tile<128x64xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #lex
      } : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<128x64xindex> -> tensor<128x64xf16>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<64x128xindex> -> tensor<64x128xf16>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<128x64xf16>, tensor<64x128xf16>)
                           outs(%part : tensor<128x128xf32>) -> tensor<128x128xf32>
      scf.yield %upd : tensor<128x128xf32>
    }
    %r_at = ktdp.construct_access_tile %r_mem[%c0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #lex
    } : memref<1x128xf16> -> !ktdp.access_tile<1x128xindex>
    %r16 = ktdp.load %r_at : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %r32 = arith.extf %r16 : tensor<1x128xf16> to tensor<1x128xf32>
    %r_row = tensor.collapse_shape %r32 [[0, 1]] : tensor<1x128xf32> into tensor<128xf32>
    %r_init = tensor.empty() : tensor<128x128xf32>
    %r_full = linalg.broadcast ins(%r_row : tensor<128xf32>) outs(%r_init : tensor<128x128xf32>) dimensions = [0]
    %one = arith.constant dense<1.0> : tensor<128x128xf32>
    %half = arith.constant dense<0.5> : tensor<128x128xf32>
    %k1 = arith.constant dense<0.7978845608> : tensor<128x128xf32>
    %k3 = arith.constant dense<0.044715> : tensor<128x128xf32>
    %x = arith.addf %acc, %r_full : tensor<128x128xf32>
    %x2 = arith.mulf %x, %x : tensor<128x128xf32>
    %x3 = arith.mulf %x2, %x : tensor<128x128xf32>
    %t0 = arith.mulf %k3, %x3 : tensor<128x128xf32>
    %t1 = arith.addf %x, %t0 : tensor<128x128xf32>
    %t2 = arith.mulf %k1, %t1 : tensor<128x128xf32>
    %t3 = math.tanh %t2 : tensor<128x128xf32>
    %t4 = arith.addf %one, %t3 : tensor<128x128xf32>
    %t5 = arith.mulf %x, %t4 : tensor<128x128xf32>
    %y = arith.mulf %half, %t5 : tensor<128x128xf32>
    %h = arith.truncf %y : tensor<128x128xf32> to tensor<128x128xf16>
    %c_at = ktdp.construct_access_tile %c_mem[%i0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #lex
    } : memref<128x128xf16> -> !ktdp.access_tile<128x128xindex>
    ktdp.store %h, %c_at : tensor<128x128xf16>, !ktdp.access_tile<128x128xindex>
    return
  }
}
