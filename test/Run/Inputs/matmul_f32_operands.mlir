// C = -0.25 + A @ B all in f32: A 8x64 and B 64x64, a K loop of two 32-wide
// blocks, grid [2] over the columns (tile t computes C[:, 32t : 32t + 32]).
// f32 products are not exact in f32, so a vector unit multiplies and adds
// with a rounding each (mul_add), as the interpreter does.
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#a_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_f32_operands(%A: index, %B: index, %C: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %j0 = arith.muli %t, %c32 : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>
    } : memref<8x64xf32>
    %b_mem = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x64xf32>
    %c_mem = ktdp.construct_memory_view %C, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>
    } : memref<8x64xf32>
    %acc0 = arith.constant dense<-0.25> : tensor<8x32xf32>
    %acc = scf.for %k0 = %c0 to %c64 step %c32
        iter_args(%part = %acc0) -> (tensor<8x32xf32>) {
      %a_at = ktdp.construct_access_tile %a_mem[%c0, %k0] {
          access_tile_set = #a_blk, access_tile_order = #lex
      } : memref<8x64xf32> -> !ktdp.access_tile<8x32xindex>
      %b_at = ktdp.construct_access_tile %b_mem[%k0, %j0] {
          access_tile_set = #b_blk, access_tile_order = #lex
      } : memref<64x64xf32> -> !ktdp.access_tile<32x32xindex>
      %a_t = ktdp.load %a_at : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf32>
      %b_t = ktdp.load %b_at : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf32>
      %upd = linalg.matmul ins(%a_t, %b_t : tensor<8x32xf32>, tensor<32x32xf32>)
                           outs(%part : tensor<8x32xf32>) -> tensor<8x32xf32>
      scf.yield %upd : tensor<8x32xf32>
    }
    %c_at = ktdp.construct_access_tile %c_mem[%c0, %j0] {
        access_tile_set = #c_blk, access_tile_order = #lex
    } : memref<8x64xf32> -> !ktdp.access_tile<8x32xindex>
    ktdp.store %acc, %c_at : tensor<8x32xf32>, !ktdp.access_tile<8x32xindex>
    return
  }
}
