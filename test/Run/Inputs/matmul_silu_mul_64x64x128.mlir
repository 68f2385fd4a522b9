// ktflow gen --kernel matmul-silu-mul --shape 64x64x128 --grid 1
// C = silu(A @ B) * G: f16 A 64x128, B 128x64, products summed in f32, C f16;
// grid 1x1 of 64x64 output blocks, K loop of 64-wide blocks.
// G: f16 1x64, broadcast along M.
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_silu_mul_64x64x128(%A: index, %B: index, %G: index, %C: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %cbm = arith.constant 64 : index
    %cbn = arith.constant 64 : index
    %cbk = arith.constant 64 : index
    %ck = arith.constant 128 : index
    %gm, %gn = ktdp.get_compute_tile_id : index, index
    %i0 = arith.muli %gm, %cbm : index
    %j0 = arith.muli %gn, %cbn : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [128, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<128x64xf16>
    %r_mem = ktdp.construct_memory_view %G, sizes: [1, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<1x64xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k0 = %c0 to %ck step %cbk
        iter_args(%part = %acc0) -> (tensor<64x64xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%i0, %k0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<64x128xf16> -> !ktdp.access_tile<64x64xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<64x64xf16>, tensor<64x64xf16>)
                           outs(%part : tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %upd : tensor<64x64xf32>
    }
    %r_at = ktdp.construct_access_tile %r_mem[%c0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
    } : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
    %r16 = ktdp.load %r_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %r32 = arith.extf %r16 : tensor<1x64xf16> to tensor<1x64xf32>
    %r_row = tensor.collapse_shape %r32 [[0, 1]] : tensor<1x64xf32> into tensor<64xf32>
    %r_init = tensor.empty() : tensor<64x64xf32>
    %r_full = linalg.broadcast ins(%r_row : tensor<64xf32>) outs(%r_init : tensor<64x64xf32>) dimensions = [0]
    %one = arith.constant dense<1.0> : tensor<64x64xf32>
    %n = arith.negf %acc : tensor<64x64xf32>
    %e = math.exp %n : tensor<64x64xf32>
    %d = arith.addf %one, %e : tensor<64x64xf32>
    %s = arith.divf %acc, %d : tensor<64x64xf32>
    %y = arith.mulf %s, %r_full : tensor<64x64xf32>
    %h = arith.truncf %y : tensor<64x64xf32> to tensor<64x64xf16>
    %c_at = ktdp.construct_access_tile %c_mem[%i0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
    } : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %h, %c_at : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    return
  }
}
