// ktflow gen --kernel matmul-silu-mul --shape 64x128x256 --grid 8 --dtype f32 --init 0.5
// C = silu(A @ B) * G: f16 A 64x256, B 256x128, products summed in f32, C f32;
// grid 2x4 of 32x32 output blocks, K loop of 64-wide blocks.
// G: f16 1x128, broadcast along M.
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_silu_mul_64x128x256(%A: index, %B: index, %G: index, %C: index) attributes {grid = [2, 4]} {
    %c0 = arith.constant 0 : index
    %cbm = arith.constant 32 : index
    %cbn = arith.constant 32 : index
    %cbk = arith.constant 64 : index
    %ck = arith.constant 256 : index
    %gm, %gn = ktdp.get_compute_tile_id : index, index
    %i0 = arith.muli %gm, %cbm : index
    %j0 = arith.muli %gn, %cbn : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [64, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x256xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x128xf16>
    %r_mem = ktdp.construct_memory_view %G, sizes: [1, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<1x128xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf32>
    %acc0 = arith.constant dense<0.5> : tensor<32x32xf32>
    %acc = scf.for %k0 = %c0 to %ck step %cbk
        iter_args(%part = %acc0) -> (tensor<32x32xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%i0, %k0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<64x256xf16> -> !ktdp.access_tile<32x64xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = #lex
      } : memref<256x128xf16> -> !ktdp.access_tile<64x32xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<64x32xindex> -> tensor<64x32xf16>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<32x64xf16>, tensor<64x32xf16>)
                           outs(%part : tensor<32x32xf32>) -> tensor<32x32xf32>
      scf.yield %upd : tensor<32x32xf32>
    }
    %r_at = ktdp.construct_access_tile %r_mem[%c0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = #lex
    } : memref<1x128xf16> -> !ktdp.access_tile<1x32xindex>
    %r16 = ktdp.load %r_at : !ktdp.access_tile<1x32xindex> -> tensor<1x32xf16>
    %r32 = arith.extf %r16 : tensor<1x32xf16> to tensor<1x32xf32>
    %r_row = tensor.collapse_shape %r32 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>
    %r_init = tensor.empty() : tensor<32x32xf32>
    %r_full = linalg.broadcast ins(%r_row : tensor<32xf32>) outs(%r_init : tensor<32x32xf32>) dimensions = [0]
    %one = arith.constant dense<1.0> : tensor<32x32xf32>
    %n = arith.negf %acc : tensor<32x32xf32>
    %e = math.exp %n : tensor<32x32xf32>
    %d = arith.addf %one, %e : tensor<32x32xf32>
    %s = arith.divf %acc, %d : tensor<32x32xf32>
    %y = arith.mulf %s, %r_full : tensor<32x32xf32>
    %c_at = ktdp.construct_access_tile %c_mem[%i0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>, access_tile_order = #lex
    } : memref<64x128xf32> -> !ktdp.access_tile<32x32xindex>
    ktdp.store %y, %c_at : tensor<32x32xf32>, !ktdp.access_tile<32x32xindex>
    return
  }
}
