// f16 matmul 64x2048x8192 (f16 accumulator), 8 tiles of 256 output columns each,
// for timing the interpreter: `ktflow interp bench/interp/matmul_64x2048x8192_f16.mlir --quiet`.
#a_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 8191 >= 0)>
#b_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 8191 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#c_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 2047 >= 0)>
#b_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 8191 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#c_blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @mm(%A: index, %B: index, %C: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %t = ktdp.get_compute_tile_id : index
    %j0 = arith.muli %t, %c256 : index
    %a_mem = ktdp.construct_memory_view %A, sizes: [64, 8192], strides: [8192, 1] {
        coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x8192xf16>
    %b_mem = ktdp.construct_memory_view %B, sizes: [8192, 2048], strides: [2048, 1] {
        coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>
    } : memref<8192x2048xf16>
    %c_mem = ktdp.construct_memory_view %C, sizes: [64, 2048], strides: [2048, 1] {
        coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x2048xf16>
    %a_at = ktdp.construct_access_tile %a_mem[%c0, %c0] {
        access_tile_set = #a_all, access_tile_order = #lex
    } : memref<64x8192xf16> -> !ktdp.access_tile<64x8192xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%c0, %j0] {
        access_tile_set = #b_blk, access_tile_order = #lex
    } : memref<8192x2048xf16> -> !ktdp.access_tile<8192x256xindex>
    %a_t = ktdp.load %a_at : !ktdp.access_tile<64x8192xindex> -> tensor<64x8192xf16>
    %b_t = ktdp.load %b_at : !ktdp.access_tile<8192x256xindex> -> tensor<8192x256xf16>
    %z = arith.constant dense<0.0> : tensor<64x256xf16>
    %c = linalg.matmul ins(%a_t, %b_t : tensor<64x8192xf16>, tensor<8192x256xf16>)
                       outs(%z : tensor<64x256xf16>) -> tensor<64x256xf16>
    %c_at = ktdp.construct_access_tile %c_mem[%c0, %j0] {
        access_tile_set = #c_blk, access_tile_order = #lex
    } : memref<64x2048xf16> -> !ktdp.access_tile<64x256xindex>
    ktdp.store %c, %c_at : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
    return
  }
}
