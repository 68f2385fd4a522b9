// ktflow gen --kernel matmul --shape 64x64x4096 --grid 1
// C = A @ B: f16 A 64x4096, B 4096x64, products summed in f32, C f16;
// grid 1x1 of 64x64 output blocks, K loop of 64-wide blocks.
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_64x64x4096(%A: index, %B: index, %C: index) attributes {grid = [1, 1]} {
    %c0 = arith.constant 0 : index
    %cbm = arith.constant 64 : index
    %cbn = arith.constant 64 : index
    %cbk = arith.constant 64 : index
    %ck = arith.constant 4096 : index
    %gm, %gn = ktdp.get_compute_tile_id : index, index
    %i0 = arith.muli %gm, %cbm : index
    %j0 = arith.muli %gn, %cbn : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [64, 4096], strides: [4096, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 4095 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x4096xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [4096, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<4096x64xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf16>
    %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
    %acc = scf.for %k0 = %c0 to %ck step %cbk
        iter_args(%part = %acc0) -> (tensor<64x64xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%i0, %k0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<64x4096xf16> -> !ktdp.access_tile<64x64xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
      } : memref<4096x64xf16> -> !ktdp.access_tile<64x64xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<64x64xf16>, tensor<64x64xf16>)
                           outs(%part : tensor<64x64xf32>) -> tensor<64x64xf32>
      scf.yield %upd : tensor<64x64xf32>
    }
    %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
    %c_at = ktdp.construct_access_tile %c_mem[%i0, %j0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #lex
    } : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
    ktdp.store %h, %c_at : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
    return
  }
}
