// The negative twin of chunked_row_sums_200x64.mlir: chunks with gaps.
// Tile t sums rows [100 t, min(100 t + 96, n_rows)) (n_rows a launch value,
// 200 in the tests), so rows 96-99 and 196-199 are never summed and their
// sums stay as they were. Blocks of whole granules per grid tile would
// store those sums too, so the rows are not re-divided, and the 2-byte
// per-row sums stay below the DMA minimum: a diagnostic.
//
// Grid: [3]. Arguments: base addresses (f16 elements) of %x (200x64) and
// %s (200); %n_rows (index).

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 199 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @chunked_row_sums_gaps(%x: index, %s: index, %n_rows: index) attributes {grid = [3]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c96 = arith.constant 96 : index
    %c100 = arith.constant 100 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [200, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<200x64xf16>
    %s_view = ktdp.construct_memory_view %s, sizes: [200], strides: [1] {
        coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<200xf16>
    %first = arith.muli %t, %c100 : index
    %chunk_end = arith.addi %first, %c96 : index
    %last = arith.minsi %chunk_end, %n_rows : index
    scf.for %r = %first to %last step %c1 {
      %x_tile = ktdp.construct_access_tile %x_view[%r, %c0] {
          access_tile_set = #row, access_tile_order = #id2
      } : memref<200x64xf16> -> !ktdp.access_tile<1x64xindex>
      %xv = ktdp.load %x_tile : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %a = math.absf %xv : tensor<1x64xf16>
      %zero = arith.constant dense<0.0> : tensor<1xf16>
      %sum = linalg.reduce ins(%a : tensor<1x64xf16>) outs(%zero : tensor<1xf16>) dimensions = [1]
        (%e: f16, %p: f16) {
          %n = arith.addf %e, %p : f16
          linalg.yield %n : f16
        }
      %s_tile = ktdp.construct_access_tile %s_view[%r] {
          access_tile_set = #one, access_tile_order = #id1
      } : memref<200xf16> -> !ktdp.access_tile<1xindex>
      ktdp.store %sum, %s_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
    }
    return
  }
}
