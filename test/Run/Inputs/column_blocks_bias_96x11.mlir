// Grid column blocks with a row operand (one bias value per column,
// broadcast over the rows): 96 rows of 11 f32 on two tiles of 6 columns.
// The rows are re-divided into blocks of whole rows (ktsched-align-blocks)
// like column_blocks_96x11.mlir, but a row operand keeps the group from
// being flattened, and rows of 44 bytes at a 44-byte stride cannot be
// padded to whole vectors by the DMA: the rows are dense, the results
// packed in the compute unit (lowered on one scratchpad level).
//
// Grid: [2]; tile t owns columns [6t, 6t + 6). Arguments: base addresses
// (f32 elements) of %x (96x11 input), %b (11 elements) and %z (96x11
// output).
// Expected result (each operation rounded to f32):
//   z = x + b[c]

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 10 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 5 >= 0)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 10 >= 0)>
#rowblock = affine_set<(d0) : (d0 >= 0, -d0 + 5 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @column_blocks_bias(%x: index, %b: index, %z: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    %col = arith.muli %t, %c6 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [96, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<96x11xf32>
    %b_view = ktdp.construct_memory_view %b, sizes: [11], strides: [1] {
        coordinate_set = #row, memory_space = #ktdp.memory_space<global>
    } : memref<11xf32>
    %z_view = ktdp.construct_memory_view %z, sizes: [96, 11], strides: [11, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<96x11xf32>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x6xindex>
    %b_tile = ktdp.construct_access_tile %b_view[%col] {
        access_tile_set = #rowblock, access_tile_order = #id1
    } : memref<11xf32> -> !ktdp.access_tile<6xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<96x6xindex> -> tensor<96x6xf32>
    %bv = ktdp.load %b_tile : !ktdp.access_tile<6xindex> -> tensor<6xf32>
    %init = tensor.empty() : tensor<96x6xf32>
    %bw = linalg.broadcast ins(%bv : tensor<6xf32>) outs(%init : tensor<96x6xf32>) dimensions = [0]
    %zv = arith.addf %xv, %bw : tensor<96x6xf32>
    %z_tile = ktdp.construct_access_tile %z_view[%c0, %col] {
        access_tile_set = #block, access_tile_order = #id2
    } : memref<96x11xf32> -> !ktdp.access_tile<96x6xindex>
    ktdp.store %zv, %z_tile : tensor<96x6xf32>, !ktdp.access_tile<96x6xindex>
    return
  }
}
