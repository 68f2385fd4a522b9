// vector_arith_grid2.mlir (test/Run/Inputs) with the outputs first in the
// signature: the lowering creates the inputs' symbols ($arg4, $arg5) first,
// while the interpreter fills its buffers in argument order.
//
// 01_vector_arith_1d.mlir
//
// Computes four elementwise f16 results from two 1-D vectors, with the work
// split over a 1-D grid of 4 compute tiles.
//
// Grid: [4]. Tile t owns elements [256*t, 256*t + 256) of every vector.
// Arguments: every argument is the base address (in f16 elements) of a
// 512-element f16 vector in global memory.
//   %lhs, %rhs                 inputs (keep rhs away from 0, e.g. |rhs| >= 0.5)
//   %sum, %dif, %prd, %quo     outputs
// Expected result (each operation rounded to f16):
//   sum[i] = lhs[i] + rhs[i]
//   dif[i] = lhs[i] - rhs[i]
//   prd[i] = lhs[i] * rhs[i]
//   quo[i] = lhs[i] / rhs[i]

#whole = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#slice = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @vector_arith(%sum: index, %dif: index, %prd: index,
                          %quo: index, %lhs: index, %rhs: index)
      attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c256 = arith.constant 256 : index
    %first = arith.muli %t, %c256 : index

    %lhs_mem = ktdp.construct_memory_view %lhs, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %rhs_mem = ktdp.construct_memory_view %rhs, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>

    %lhs_at = ktdp.construct_access_tile %lhs_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>
    %rhs_at = ktdp.construct_access_tile %rhs_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    %a = ktdp.load %lhs_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %b = ktdp.load %rhs_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>

    %r_sum = arith.addf %a, %b : tensor<256xf16>
    %r_dif = arith.subf %a, %b : tensor<256xf16>
    %r_prd = arith.mulf %a, %b : tensor<256xf16>
    %r_quo = arith.divf %a, %b : tensor<256xf16>

    %sum_mem = ktdp.construct_memory_view %sum, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %dif_mem = ktdp.construct_memory_view %dif, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %prd_mem = ktdp.construct_memory_view %prd, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>
    %quo_mem = ktdp.construct_memory_view %quo, sizes: [512], strides: [1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>
    } : memref<512xf16>

    %sum_at = ktdp.construct_access_tile %sum_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>
    %dif_at = ktdp.construct_access_tile %dif_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>
    %prd_at = ktdp.construct_access_tile %prd_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>
    %quo_at = ktdp.construct_access_tile %quo_mem[%first] {
        access_tile_set = #slice, access_tile_order = #in_order
    } : memref<512xf16> -> !ktdp.access_tile<256xindex>

    ktdp.store %r_sum, %sum_at : tensor<256xf16>, !ktdp.access_tile<256xindex>
    ktdp.store %r_dif, %dif_at : tensor<256xf16>, !ktdp.access_tile<256xindex>
    ktdp.store %r_prd, %prd_at : tensor<256xf16>, !ktdp.access_tile<256xindex>
    ktdp.store %r_quo, %quo_at : tensor<256xf16>, !ktdp.access_tile<256xindex>
    return
  }
}
