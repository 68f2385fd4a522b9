// Benchmark: elementwise f16 add of two 4096x1024 matrices on a 32-tile
// grid; tile t adds rows [128*t, 128*t + 128) in 16-row blocks.
//   ktflow interp bench/interp/add_4096x1024_f16.mlir --quiet

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

func.func @add(%a: index, %b: index, %c: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c128 : index
  %last = arith.addi %first, %c128 : index
  %a_mem = ktdp.construct_memory_view %a, sizes: [4096, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4096x1024xf16>
  %b_mem = ktdp.construct_memory_view %b, sizes: [4096, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4096x1024xf16>
  %c_mem = ktdp.construct_memory_view %c, sizes: [4096, 1024], strides: [1024, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>
  } : memref<4096x1024xf16>
  scf.for %r = %first to %last step %c16 {
    %a_at = ktdp.construct_access_tile %a_mem[%r, %c0] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %b_at = ktdp.construct_access_tile %b_mem[%r, %c0] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %c_at = ktdp.construct_access_tile %c_mem[%r, %c0] {
        access_tile_set = #blk, access_tile_order = #lex
    } : memref<4096x1024xf16> -> !ktdp.access_tile<16x1024xindex>
    %av = ktdp.load %a_at : !ktdp.access_tile<16x1024xindex> -> tensor<16x1024xf16>
    %bv = ktdp.load %b_at : !ktdp.access_tile<16x1024xindex> -> tensor<16x1024xf16>
    %sum = arith.addf %av, %bv : tensor<16x1024xf16>
    ktdp.store %sum, %c_at : tensor<16x1024xf16>, !ktdp.access_tile<16x1024xindex>
  }
  return
}
