// Elementwise add, sub, mul and div of f16 matrices of 112 columns split
// in two column blocks of 64: the second grid tile has 48 valid columns and
// its masked columns lie inside the matrices (they are the next row's
// first columns), so the tile cannot be moved whole, and 48 columns are
// not a whole number of deep's 32-element f16 vectors.
//
// Grid: [1, 2]. Tile (0, gy) owns rows [0, 32) x columns [64*gy, 64*gy + 64)
// of 64x112 row-major f16 matrices %p, %q (inputs) and
// %o_add, %o_sub, %o_mul, %o_div (outputs).
#mat = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 111 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @matrix_arith(%p: index, %q: index, %o_add: index, %o_sub: index,
                          %o_mul: index, %o_div: index)
      attributes {grid = [1, 2]} {
    %gx, %gy = ktdp.get_compute_tile_id : index, index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %row0 = arith.muli %gx, %c32 : index
    %col0 = arith.muli %gy, %c64 : index

    %p_mem = ktdp.construct_memory_view %p, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>
    %q_mem = ktdp.construct_memory_view %q, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>
    %p_at = ktdp.construct_access_tile %p_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>
    %q_at = ktdp.construct_access_tile %q_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>
    %pv = ktdp.load %p_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %qv = ktdp.load %q_at : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>

    %init = tensor.empty() : tensor<32x64xf16>
    %v_add = linalg.add ins(%pv, %qv : tensor<32x64xf16>, tensor<32x64xf16>)
                        outs(%init : tensor<32x64xf16>) -> tensor<32x64xf16>
    %v_sub = arith.subf %pv, %qv : tensor<32x64xf16>
    %v_mul = arith.mulf %pv, %qv : tensor<32x64xf16>
    %v_div = arith.divf %pv, %qv : tensor<32x64xf16>

    %add_mem = ktdp.construct_memory_view %o_add, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>
    %sub_mem = ktdp.construct_memory_view %o_sub, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>
    %mul_mem = ktdp.construct_memory_view %o_mul, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>
    %div_mem = ktdp.construct_memory_view %o_div, sizes: [64, 112], strides: [112, 1] {
        coordinate_set = #mat, memory_space = #ktdp.memory_space<global>
    } : memref<64x112xf16>

    %add_at = ktdp.construct_access_tile %add_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>
    %sub_at = ktdp.construct_access_tile %sub_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>
    %mul_at = ktdp.construct_access_tile %mul_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>
    %div_at = ktdp.construct_access_tile %div_mem[%row0, %col0] {
        access_tile_set = #blk, access_tile_order = #rowmajor
    } : memref<64x112xf16> -> !ktdp.access_tile<32x64xindex>

    ktdp.store %v_add, %add_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    ktdp.store %v_sub, %sub_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    ktdp.store %v_mul, %mul_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    ktdp.store %v_div, %div_at : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}
