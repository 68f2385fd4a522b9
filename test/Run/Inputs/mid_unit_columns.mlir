// Each of the two grid tiles adds a 4x32 block of columns starting 16
// columns (32 bytes) past a multiple of 32: its rows start inside a 64-byte
// DMA unit of sample's global memory. Only loads over-fetch, and only
// column slices: a 2-D tile's rows are not re-laid in the slot, so the
// start is diagnosed (test/Run/fuzz-found-not-lowered.test).
#box_4x96 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#box_4x32 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @mid_unit_columns(%x: index, %y: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %scaled = arith.muli %t, %c32 : index
    %col_first = arith.addi %scaled, %c16 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [4, 96], strides: [96, 1] {
        coordinate_set = #box_4x96, memory_space = #ktdp.memory_space<global>
    } : memref<4x96xf16>
    %y_view = ktdp.construct_memory_view %y, sizes: [4, 96], strides: [96, 1] {
        coordinate_set = #box_4x96, memory_space = #ktdp.memory_space<global>
    } : memref<4x96xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %col_first] {
        access_tile_set = #box_4x32, access_tile_order = #id2
    } : memref<4x96xf16> -> !ktdp.access_tile<4x32xindex>
    %x_1 = ktdp.load %x_tile : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
    %v = arith.addf %x_1, %x_1 : tensor<4x32xf16>
    %y_tile = ktdp.construct_access_tile %y_view[%c0, %col_first] {
        access_tile_set = #box_4x32, access_tile_order = #id2
    } : memref<4x96xf16> -> !ktdp.access_tile<4x32xindex>
    ktdp.store %v, %y_tile : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
    return
  }
}
