// Row maxima over column blocks carried as an f16 scalar from -inf: tile
// t owns row t of f16[16, 128]; its loop
// walks the row in blocks of 32 columns and folds each block's maximum
// into the carried scalar, stored through a splat.
//   y[r] = max_c x[r, c]
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 31 >= 0)>
#y_all = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_max(%x: index, %y: index) attributes {grid = [16]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %ninf = arith.constant 0xFC00 : f16
    %r = ktdp.get_compute_tile_id : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [16, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<16x128xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [16], strides: [1] {
        coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
    } : memref<16xf16>
    %mx = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %ninf) -> (f16) {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %k] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<16x128xf16> -> !ktdp.access_tile<1x32xindex>
      %xb = ktdp.load %x_at : !ktdp.access_tile<1x32xindex> -> tensor<1x32xf16>
      %e = tensor.empty() : tensor<1xf16>
      %init = linalg.fill ins(%ninf : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
      %part = linalg.reduce { arith.maximumf } ins(%xb : tensor<1x32xf16>)
                outs(%init : tensor<1xf16>) dimensions = [1]
      %p = tensor.extract %part[%c0] : tensor<1xf16>
      %next = arith.maximumf %p, %acc : f16
      scf.yield %next : f16
    }
    %out = tensor.splat %mx : tensor<1xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%r] {
        access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<16xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %out, %y_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
