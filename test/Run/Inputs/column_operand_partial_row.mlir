// x * colv[r] + x over one row of 40 f32, grid 1: the row ends in a
// partial vector (16 lanes on sample and deep, 32 on spyre) beside a
// column operand (one value per row, broadcast along it). The row's 160
// bytes end the output's data, so its store is widened into the symbol's
// padding on every description.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 0 >= 0)>
module {
  func.func @column_operand_partial_row(%x: index, %colv: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [1, 40], strides: [40, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1x40xf32>
    %c_mem = ktdp.construct_memory_view %colv, sizes: [1], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<1xf32>
    %y_mem = ktdp.construct_memory_view %y, sizes: [1, 40], strides: [40, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1x40xf32>
    %x_at = ktdp.construct_access_tile %x_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x40xf32> -> !ktdp.access_tile<1x40xindex>
    %c_at = ktdp.construct_access_tile %c_mem[%c0] {
        access_tile_set = #col, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<1xf32> -> !ktdp.access_tile<1xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<1x40xindex> -> tensor<1x40xf32>
    %cv = ktdp.load %c_at : !ktdp.access_tile<1xindex> -> tensor<1xf32>
    %e = tensor.empty() : tensor<1x40xf32>
    %cb = linalg.broadcast ins(%cv : tensor<1xf32>) outs(%e : tensor<1x40xf32>) dimensions = [1]
    %p = arith.mulf %xv, %cb : tensor<1x40xf32>
    %yv = arith.addf %p, %xv : tensor<1x40xf32>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<1x40xf32> -> !ktdp.access_tile<1x40xindex>
    ktdp.store %yv, %y_at : tensor<1x40xf32>, !ktdp.access_tile<1x40xindex>
    return
  }
}
