// Row reductions over an f16 and an f32 matrix in one compute group, into
// results of both types: sums (f32) = sum over d1 of f32(x) * y, maxes
// (f16) = max over d1 of x. Each reduction collects its results in its own
// type; 80 rows are not a whole number of 32-row result vectors (sample,
// deep; 64 on spyre), and the partial last f32 vector is stored in only the
// accesses its results reach.
//
// Grid: [1].
//   %x      f16[80, 128]  input
//   %y      f32[80, 128]  input
//   %sums   f32[80]       output
//   %maxes  f16[80]       output
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 79 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 79 >= 0)>
module {
  func.func @mixed_row_reduce(%x: index, %y: index, %sums: index, %maxes: index)
      attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [80, 128], strides: [128, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<80x128xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [80, 128], strides: [128, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<80x128xf32>
    %x_at = ktdp.construct_access_tile %x_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<80x128xf16> -> !ktdp.access_tile<80x128xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<80x128xf32> -> !ktdp.access_tile<80x128xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<80x128xindex> -> tensor<80x128xf16>
    %yv = ktdp.load %y_at : !ktdp.access_tile<80x128xindex> -> tensor<80x128xf32>
    %xw = arith.extf %xv : tensor<80x128xf16> to tensor<80x128xf32>
    %prod = arith.mulf %xw, %yv : tensor<80x128xf32>
    %zeros = arith.constant dense<0.0> : tensor<80xf32>
    %sum = linalg.reduce { arith.addf } ins(%prod : tensor<80x128xf32>) outs(%zeros : tensor<80xf32>) dimensions = [1]
    %ninf = arith.constant 0xFC00 : f16
    %e0 = tensor.empty() : tensor<80xf16>
    %m0 = linalg.fill ins(%ninf : f16) outs(%e0 : tensor<80xf16>) -> tensor<80xf16>
    %max = linalg.reduce { arith.maximumf } ins(%xv : tensor<80x128xf16>) outs(%m0 : tensor<80xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf32>
    %maxes_mem = ktdp.construct_memory_view %maxes, sizes: [80], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<80xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf32> -> !ktdp.access_tile<80xindex>
    %maxes_at = ktdp.construct_access_tile %maxes_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<80xf16> -> !ktdp.access_tile<80xindex>
    ktdp.store %sum, %sums_at : tensor<80xf32>, !ktdp.access_tile<80xindex>
    ktdp.store %max, %maxes_at : tensor<80xf16>, !ktdp.access_tile<80xindex>
    return
  }
}
