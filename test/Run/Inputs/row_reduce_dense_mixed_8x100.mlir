// Row sum of truncf(x) + y over 8x100, x f32 and y f16, grid 1: both
// tensors' rows lie back to back at strides sample's DMA forbids (400 and
// 200 bytes), so both slots hold dense rows, of two element types. The
// realignment shares one period and one stream position per step between
// its dense loads, so dense rows of two types stay diagnosed
// (test/Lower/dense-rows-wide.test).
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
module {
  func.func @row_reduce_dense_mixed(%x: index, %y: index, %sums: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [8, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x100xf32>
    %y_mem = ktdp.construct_memory_view %y, sizes: [8, 100], strides: [100, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x100xf16>
    %x_at = ktdp.construct_access_tile %x_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<8x100xf32> -> !ktdp.access_tile<8x100xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<8x100xf16> -> !ktdp.access_tile<8x100xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<8x100xindex> -> tensor<8x100xf32>
    %yv = ktdp.load %y_at : !ktdp.access_tile<8x100xindex> -> tensor<8x100xf16>
    %xh = arith.truncf %xv : tensor<8x100xf32> to tensor<8x100xf16>
    %s = arith.addf %xh, %yv : tensor<8x100xf16>
    %zeros = arith.constant dense<0.0> : tensor<8xf16>
    %sum = linalg.reduce { arith.addf } ins(%s : tensor<8x100xf16>) outs(%zeros : tensor<8xf16>) dimensions = [1]
    %sums_mem = ktdp.construct_memory_view %sums, sizes: [8], strides: [1] {
        coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
    %sums_at = ktdp.construct_access_tile %sums_mem[%c0] {
        access_tile_set = #vec, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<8xf16> -> !ktdp.access_tile<8xindex>
    ktdp.store %sum, %sums_at : tensor<8xf16>, !ktdp.access_tile<8xindex>
    return
  }
}
