// Column reductions (dimension 0) of a 50x384 f16 matrix; grid tile t
// owns columns [192t, 192t + 192). Sum and max, each a row vector.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 383 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 49 >= 0, d1 >= 0, -d1 + 191 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 383 >= 0)>
#vblk = affine_set<(d0) : (d0 >= 0, -d0 + 191 >= 0)>
module {
  func.func @col_reduce_f16(%src: index, %sums: index, %maxes: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %cw = arith.constant 192 : index
    %t = ktdp.get_compute_tile_id : index
    %c0t = arith.muli %t, %cw : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [50, 384], strides: [384, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<50x384xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0t] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<50x384xf16> -> !ktdp.access_tile<50x192xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<50x192xindex> -> tensor<50x192xf16>
    %zeros = arith.constant dense<0.0> : tensor<192xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<50x192xf16>) outs(%zeros : tensor<192xf16>) dimensions = [0]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<192xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<192xf16>) -> tensor<192xf16>
    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<50x192xf16>) outs(%m0 : tensor<192xf16>) dimensions = [0]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [384], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<384xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [384], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<384xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<384xf16> -> !ktdp.access_tile<192xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0t] {
        access_tile_set = #vblk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<384xf16> -> !ktdp.access_tile<192xindex>
    ktdp.store %sum, %sums_at : tensor<192xf16>, !ktdp.access_tile<192xindex>
    ktdp.store %max, %maxes_at : tensor<192xf16>, !ktdp.access_tile<192xindex>
    return
  }
}
