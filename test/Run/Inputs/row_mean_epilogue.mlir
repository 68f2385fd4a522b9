// Row means: sums in f32 scaled by a constant and narrowed to f16 after
// the reduction (an epilogue applied once per result vector).
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#o_all = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#o_blk = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
module {
  func.func @row_mean(%x: index, %y: index) attributes {grid = [2]} {
    %c32 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c32 : index
    %x_mem = ktdp.construct_memory_view %x, sizes: [64, 128], strides: [128, 1] {
        coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>
    } : memref<64x128xf16>
    %at = ktdp.construct_access_tile %x_mem[%row, 0] {
        access_tile_set = #blk, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>
    } : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
    %v16 = ktdp.load %at : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
    %v = arith.extf %v16 : tensor<32x128xf16> to tensor<32x128xf32>
    %zero = arith.constant dense<0.0> : tensor<32xf32>
    %s = linalg.reduce { arith.addf } ins(%v : tensor<32x128xf32>) outs(%zero : tensor<32xf32>) dimensions = [1]
    %inv = arith.constant dense<0.0078125> : tensor<32xf32>
    %m = arith.mulf %s, %inv : tensor<32xf32>
    %m16 = arith.truncf %m : tensor<32xf32> to tensor<32xf16>
    %o_mem = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {
        coordinate_set = #o_all, memory_space = #ktdp.memory_space<global>
    } : memref<64xf16>
    %o_at = ktdp.construct_access_tile %o_mem[%row] {
        access_tile_set = #o_blk, access_tile_order = affine_map<(d0) -> (d0)>
    } : memref<64xf16> -> !ktdp.access_tile<32xindex>
    ktdp.store %m16, %o_at : tensor<32xf16>, !ktdp.access_tile<32xindex>
    return
  }
}
