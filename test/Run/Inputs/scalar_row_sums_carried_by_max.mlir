// Negative twin of scalar_row_means.mlir: the running scalar takes each
// block's sum through a maximum, which is not an accumulation of that sum
// (the schedule cannot make one reduction of it).
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#y_all = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#one = affine_set<(d0) : (d0 == 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @row_means(%x: index, %y: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %r = ktdp.get_compute_tile_id : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [8, 256], strides: [256, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<8x256xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [8], strides: [1] {
        coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>
    } : memref<8xf16>
    %sum = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %zero) -> (f32) {
      %x_at = ktdp.construct_access_tile %x_mem[%r, %k] {
          access_tile_set = #blk, access_tile_order = #lex
      } : memref<8x256xf16> -> !ktdp.access_tile<1x64xindex>
      %xb16 = ktdp.load %x_at : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %xb = arith.extf %xb16 : tensor<1x64xf16> to tensor<1x64xf32>
      %z = tensor.splat %zero : tensor<1xf32>
      %part = linalg.reduce { arith.addf } ins(%xb : tensor<1x64xf32>)
                outs(%z : tensor<1xf32>) dimensions = [1]
      %p = tensor.extract %part[%c0] : tensor<1xf32>
      %next = arith.maximumf %acc, %p : f32
      scf.yield %next : f32
    }
    %scale = arith.constant 0.00390625 : f32
    %mean = arith.mulf %sum, %scale : f32
    %s16 = arith.truncf %mean : f32 to f16
    %out = tensor.from_elements %s16 : tensor<1xf16>
    %y_at = ktdp.construct_access_tile %y_mem[%r] {
        access_tile_set = #one, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<8xf16> -> !ktdp.access_tile<1xindex>
    ktdp.store %out, %y_at : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
