// Negative twin of store_three.mlir: partition b holds rows 18..43, so
// rows 18 and 19 are in partitions a and b (the interpreter takes a, the
// first in operand order; ktir.md leaves it unspecified).

#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#a_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#b_rows = affine_set<(d0, d1) : (d0 - 18 >= 0, -d0 + 43 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#c_rows = affine_set<(d0, d1) : (d0 - 44 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#strip = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @store_three(%x: index, %a: index, %b: index, %c: index)
      attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c16 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {
        access_tile_set = #strip, access_tile_order = #lex
    } : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<16x128xindex> -> tensor<16x128xf16>
    %twice = arith.addf %xv, %xv : tensor<16x128xf16>
    %a_mem = ktdp.construct_memory_view %a, sizes: [20, 128], strides: [128, 1] {
        coordinate_set = #a_rows, memory_space = #ktdp.memory_space<global>
    } : memref<20x128xf16>
    %b_mem = ktdp.construct_memory_view %b, sizes: [26, 128], strides: [128, 1] {
        coordinate_set = #b_rows, memory_space = #ktdp.memory_space<global>
    } : memref<26x128xf16>
    %c_mem = ktdp.construct_memory_view %c, sizes: [20, 128], strides: [128, 1] {
        coordinate_set = #c_rows, memory_space = #ktdp.memory_space<global>
    } : memref<20x128xf16>
    %y = ktdp.construct_distributed_memory_view
        (%a_mem, %b_mem, %c_mem : memref<20x128xf16>, memref<26x128xf16>, memref<20x128xf16>)
        : memref<64x128xf16>
    %y_at = ktdp.construct_access_tile %y[%r0, %c0] {
        access_tile_set = #strip, access_tile_order = #lex
    } : memref<64x128xf16> -> !ktdp.access_tile<16x128xindex>
    ktdp.store %twice, %y_at : tensor<16x128xf16>, !ktdp.access_tile<16x128xindex>
    return
  }
}
