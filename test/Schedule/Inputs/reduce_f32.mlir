// Column sums (over dimension 0) and row maxima (over dimension 1) of
// -|x| for an f32[8, 64] block per grid tile; grid [2, 1], tile t owns
// rows [8 t, 8 t + 8).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec64 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#vec16 = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#vec8 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#o1 = affine_map<(d0) -> (d0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @reduce_f32(%x: index, %cols: index, %rows: index) attributes {grid = [2, 1]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %t, %u = ktdp.get_compute_tile_id : index, index
    %r0 = arith.muli %t, %c8 : index
    %col0 = arith.muli %t, %c64 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [16, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {access_tile_set = #blk, access_tile_order = #o2} : memref<16x64xf32> -> !ktdp.access_tile<8x64xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
    %a = math.absf %xv : tensor<8x64xf32>
    %n = arith.negf %a : tensor<8x64xf32>
    %zero = arith.constant 0.0 : f32
    %ce = tensor.empty() : tensor<64xf32>
    %cinit = linalg.fill ins(%zero : f32) outs(%ce : tensor<64xf32>) -> tensor<64xf32>
    %csum = linalg.reduce { arith.addf } ins(%n : tensor<8x64xf32>) outs(%cinit : tensor<64xf32>) dimensions = [0]
    %ninf = arith.constant 0xFF800000 : f32
    %re = tensor.empty() : tensor<8xf32>
    %rinit = linalg.fill ins(%ninf : f32) outs(%re : tensor<8xf32>) -> tensor<8xf32>
    %rmax = linalg.reduce { arith.maximumf } ins(%n : tensor<8x64xf32>) outs(%rinit : tensor<8xf32>) dimensions = [1]
    %cols_mem = ktdp.construct_memory_view %cols, sizes: [128], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
    %cols_at = ktdp.construct_access_tile %cols_mem[%col0] {access_tile_set = #vec64, access_tile_order = #o1} : memref<128xf32> -> !ktdp.access_tile<64xindex>
    ktdp.store %csum, %cols_at : tensor<64xf32>, !ktdp.access_tile<64xindex>
    %rows_mem = ktdp.construct_memory_view %rows, sizes: [16], strides: [1] {coordinate_set = #vec16, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
    %rows_at = ktdp.construct_access_tile %rows_mem[%r0] {access_tile_set = #vec8, access_tile_order = #o1} : memref<16xf32> -> !ktdp.access_tile<8xindex>
    ktdp.store %rmax, %rows_at : tensor<8xf32>, !ktdp.access_tile<8xindex>
    return
  }
}
