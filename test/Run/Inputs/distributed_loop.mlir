// Row loop over a distributed view: X (64x128 f16) = rows 0..19 in %top,
// 20..63 in %bottom; grid [2], tile t loops b = 0..3 over rows
// 32t + 8b .. +8 (tile 0's b = 2 straddles row 20), storing 2x to %y.
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 19 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bot = affine_set<(d0, d1) : (d0 - 20 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#strip = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @loop_rows(%top: index, %bottom: index, %y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %base = arith.muli %t, %c32 : index
    %tm = ktdp.construct_memory_view %top, sizes: [20, 128], strides: [128, 1] {coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<20x128xf16>
    %bm = ktdp.construct_memory_view %bottom, sizes: [44, 128], strides: [128, 1] {coordinate_set = #bot, memory_space = #ktdp.memory_space<global>} : memref<44x128xf16>
    %x = ktdp.construct_distributed_memory_view(%tm, %bm : memref<20x128xf16>, memref<44x128xf16>) : memref<64x128xf16>
    %ym = ktdp.construct_memory_view %y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
    scf.for %b = %c0 to %c4 step %c1 {
      %off = arith.muli %b, %c8 : index
      %r = arith.addi %base, %off : index
      %xa = ktdp.construct_access_tile %x[%r, %c0] {access_tile_set = #strip, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
      %v = ktdp.load %xa : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
      %w = arith.addf %v, %v : tensor<8x128xf16>
      %ya = ktdp.construct_access_tile %ym[%r, %c0] {access_tile_set = #strip, access_tile_order = #lex} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
      ktdp.store %w, %ya : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
    }
    return
  }
}
