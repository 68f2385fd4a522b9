// ktflow gen --kernel matmul --shape 256x256x256 --grid 1
// C = A @ B: f16 A 256x256, B 256x256, products summed in f32, C f16;
// grid 1x1 of 256x256 output blocks, K loop of 64-wide blocks.
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_256x256x256(%A: index, %B: index, %C: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %cbm = arith.constant 256 : index
    %cbn = arith.constant 256 : index
    %cbk = arith.constant 64 : index
    %ck = arith.constant 256 : index
    %gm, %gn = ktdp.get_compute_tile_id : index, index
    %i0 = arith.muli %gm, %cbm : index
    %j0 = arith.muli %gn, %cbn : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [256, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x256xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [256, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x256xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [256, 256], strides: [256, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<256x256xf16>
    %acc0 = arith.constant dense<0.0> : tensor<256x256xf32>
    %acc = scf.for %k0 = %c0 to %ck step %cbk
        iter_args(%part = %acc0) -> (tensor<256x256xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%i0, %k0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<256x256xf16> -> !ktdp.access_tile<256x64xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #lex
      } : memref<256x256xf16> -> !ktdp.access_tile<64x256xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<256x64xindex> -> tensor<256x64xf16>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<256x64xf16>, tensor<64x256xf16>)
                           outs(%part : tensor<256x256xf32>) -> tensor<256x256xf32>
      scf.yield %upd : tensor<256x256xf32>
    }
    %h = arith.truncf %acc : tensor<256x256xf32> to tensor<256x256xf16>
    %c_at = ktdp.construct_access_tile %c_mem[%i0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #lex
    } : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
    ktdp.store %h, %c_at : tensor<256x256xf16>, !ktdp.access_tile<256x256xindex>
    return
  }
}
