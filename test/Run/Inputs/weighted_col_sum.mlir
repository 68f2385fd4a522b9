// A weighted column sum, z[c] = sum over r of x[r, c] * w[r] (w^T x): a
// column reduction whose weights are a column operand, one value per row.
// 100 rows are not whole vectors of rows (a partial last block of held
// weights); two grid tiles of 128 columns read the same 100 weights.
// Arguments (global memory, base addresses in elements):
//   %x  f16[100, 256]  input
//   %w  f16[100]       input, one weight per row
//   %z  f16[256]       output

#box_100x128 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#box_100x256 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#box_256 = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#box_100 = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>
#box_128 = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @weighted_col_sum(%x: index, %w: index, %z: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %col_first = arith.muli %t, %c128 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [100, 256], strides: [256, 1] {
        coordinate_set = #box_100x256, memory_space = #ktdp.memory_space<global>
    } : memref<100x256xf16>
    %w_view = ktdp.construct_memory_view %w, sizes: [100], strides: [1] {
        coordinate_set = #box_100, memory_space = #ktdp.memory_space<global>
    } : memref<100xf16>
    %z_view = ktdp.construct_memory_view %z, sizes: [256], strides: [1] {
        coordinate_set = #box_256, memory_space = #ktdp.memory_space<global>
    } : memref<256xf16>
    %x_tile = ktdp.construct_access_tile %x_view[%c0, %col_first] {
        access_tile_set = #box_100x128, access_tile_order = #id2
    } : memref<100x256xf16> -> !ktdp.access_tile<100x128xindex>
    %xv = ktdp.load %x_tile : !ktdp.access_tile<100x128xindex> -> tensor<100x128xf16>
    %w_tile = ktdp.construct_access_tile %w_view[%c0] {
        access_tile_set = #box_100, access_tile_order = #id1
    } : memref<100xf16> -> !ktdp.access_tile<100xindex>
    %wv = ktdp.load %w_tile : !ktdp.access_tile<100xindex> -> tensor<100xf16>
    %init = tensor.empty() : tensor<100x128xf16>
    %w_wide = linalg.broadcast ins(%wv : tensor<100xf16>) outs(%init : tensor<100x128xf16>) dimensions = [1]
    %p = arith.mulf %xv, %w_wide : tensor<100x128xf16>
    %zero = arith.constant 0.0 : f16
    %init1 = tensor.empty() : tensor<128xf16>
    %acc = linalg.fill ins(%zero : f16) outs(%init1 : tensor<128xf16>) -> tensor<128xf16>
    %s = linalg.reduce { arith.addf } ins(%p : tensor<100x128xf16>) outs(%acc : tensor<128xf16>) dimensions = [0]
    %z_tile = ktdp.construct_access_tile %z_view[%col_first] {
        access_tile_set = #box_128, access_tile_order = #id1
    } : memref<256xf16> -> !ktdp.access_tile<128xindex>
    ktdp.store %s, %z_tile : tensor<128xf16>, !ktdp.access_tile<128xindex>
    return
  }
}
