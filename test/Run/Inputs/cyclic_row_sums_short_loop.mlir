// Negative twin of cyclic_row_sums_200x64.mlir: the loop stops at row 199
// of the 200 rows, so the kernel never writes the last sum. A block of rows
// per grid tile would cover row 199 too and store a sum the kernel leaves
// alone, so the work is not re-divided; each iteration's 2-byte sum is
// below the DMA's minimum access, and the two tiles' sums share granules:
// not lowered.
//
// Grid: [2]. Arguments: base addresses (f16 elements) of %x (200x64) and
// %s (200).
// Expected result (each operation rounded to f16): s[r] = sum_c |x[r, c]|
// for r < 199.

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 199 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sums = affine_set<(d0) : (d0 >= 0, -d0 + 199 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

module {
  func.func @cyclic_row_sums_short_loop(%x: index, %s: index) attributes {grid = [2]} {
    %t = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c199 = arith.constant 199 : index
    %x_view = ktdp.construct_memory_view %x, sizes: [200, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>
    } : memref<200x64xf16>
    %s_view = ktdp.construct_memory_view %s, sizes: [200], strides: [1] {
        coordinate_set = #sums, memory_space = #ktdp.memory_space<global>
    } : memref<200xf16>
    scf.for %r = %t to %c199 step %c2 {
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
