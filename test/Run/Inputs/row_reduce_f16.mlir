// Row reductions of a 80x256 f16 matrix on one core: sum (short
// form, init 0), max (init -inf) and min (init 2.5, not the identity, so
// the lowering combines it in). 80 rows are not a multiple of the vector.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 79 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 79 >= 0)>
module {
  func.func @row_reduce_f16(%src: index, %sums: index, %maxes: index, %mins: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %src_mem = ktdp.construct_memory_view %src, sizes: [80, 256], strides: [256, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<80x256xf16>
    %src_at = ktdp.construct_access_tile %src_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<80x256xf16> -> !ktdp.access_tile<80x256xindex>
    %x = ktdp.load %src_at : !ktdp.access_tile<80x256xindex> -> tensor<80x256xf16>
    %zeros = arith.constant dense<0.0> : tensor<80xf16>
    %sum = linalg.reduce { arith.addf } ins(%x : tensor<80x256xf16>) outs(%zeros : tensor<80xf16>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<80xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<80xf16>) -> tensor<80xf16>
    %max = linalg.reduce ins(%x : tensor<80x256xf16>) outs(%m0 : tensor<80xf16>) dimensions = [1]
      (%a: f16, %b: f16) {
        %r = arith.maximumf %a, %b : f16
        linalg.yield %r : f16
      }
    %lo = arith.constant dense<2.5> : tensor<80xf16>
    %min = linalg.reduce { arith.minimumf } ins(%x : tensor<80x256xf16>) outs(%lo : tensor<80xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %mins_mem = ktdp.construct_memory_view %mins, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<80xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<80xindex>
    %mins_at = ktdp.construct_access_tile %mins_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<80xindex>
    ktdp.store %sum, %sums_at : tensor<80xf16>, !ktdp.access_tile<80xindex>
    ktdp.store %max, %maxes_at : tensor<80xf16>, !ktdp.access_tile<80xindex>
    ktdp.store %min, %mins_at : tensor<80xf16>, !ktdp.access_tile<80xindex>
    return
  }
}
