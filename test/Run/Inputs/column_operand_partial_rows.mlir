// x * colv[r] + x over 6 rows of 40 f32 laid 64 elements apart (a view of
// the first 40 columns of a 6x64 matrix), grid 1: every row ends in a
// partial vector (16 lanes on sample and deep, 32 on spyre) beside a
// column operand (one value per row, broadcast along it). The slot's rows
// are padded to whole vectors; each row's 160 valid bytes leave as one
// DMA run, legal on deep (32-byte units) but not on sample or spyre.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 39 >= 0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 5 >= 0)>
module {
  func.func @column_operand_partial_rows(%x: index, %colv: index, %y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [6, 40], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<6x40xf32>
    %c_mem = ktdp.construct_memory_view %colv, sizes: [6], strides: [1] {
        coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<6xf32>
    %y_mem = ktdp.construct_memory_view %y, sizes: [6, 40], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<6x40xf32>
    %x_at = ktdp.construct_access_tile %x_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<6x40xf32> -> !ktdp.access_tile<6x40xindex>
    %c_at = ktdp.construct_access_tile %c_mem[%c0] {
        access_tile_set = #col, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<6xf32> -> !ktdp.access_tile<6xindex>
    %xv = ktdp.load %x_at : !ktdp.access_tile<6x40xindex> -> tensor<6x40xf32>
    %cv = ktdp.load %c_at : !ktdp.access_tile<6xindex> -> tensor<6xf32>
    %e = tensor.empty() : tensor<6x40xf32>
    %cb = linalg.broadcast ins(%cv : tensor<6xf32>) outs(%e : tensor<6x40xf32>) dimensions = [1]
    %p = arith.mulf %xv, %cb : tensor<6x40xf32>
    %yv = arith.addf %p, %xv : tensor<6x40xf32>
    %y_at = ktdp.construct_access_tile %y_mem[%c0, %c0] {
        access_tile_set = #all, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<6x40xf32> -> !ktdp.access_tile<6x40xindex>
    ktdp.store %yv, %y_at : tensor<6x40xf32>, !ktdp.access_tile<6x40xindex>
    return
  }
}
