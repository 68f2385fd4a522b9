// Example 13 (examples/ktir/13_legacy_memory_space.mlir) with its LX region
// moved from local element 65536 to 4096, inside deep's 128 KiB L1.
//
// 13_legacy_memory_space.mlir
//
// The same kind of kernel as the others, written with the older memory-space
// attribute #ktdp.spyre_memory_space<...>. An implementation must accept it
// and treat it as the current spelling:
//   #ktdp.spyre_memory_space<HBM>            ==  #ktdp.memory_space<global>
//   #ktdp.spyre_memory_space<LX>             ==  #ktdp.memory_space<ct_local>
//   #ktdp.spyre_memory_space<LX, core = N>   ==  #ktdp.memory_space<ct_local, ct_id = N>
//
// The kernel clamps every element into [lo, hi] with arith.maximumf and
// arith.minimumf. It passes the clamped block through the tile's own
// scratchpad (LX, local address 65536, in f16 elements) before writing it
// to HBM.
//
// Grid: [2]. Tile t owns rows [8*t, 8*t + 8).
// Arguments (base addresses in f16 elements, global memory):
//   %inp   f16[16, 64], row-major
//   %outp  f16[16, 64], row-major
// Expected result (exact):
//   outp[r, c] = min(max(inp[r, c], -0.5), 0.5)

#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#lex = affine_map<(d0, d1) -> (d0, d1)>

module {
  func.func @clamp_rows(%inp: index, %outp: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %t = ktdp.get_compute_tile_id : index
    %r0 = arith.muli %t, %c8 : index

    %in_mem = ktdp.construct_memory_view %inp, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.spyre_memory_space<HBM>
    } : memref<16x64xf16>
    %out_mem = ktdp.construct_memory_view %outp, sizes: [16, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.spyre_memory_space<HBM>
    } : memref<16x64xf16>

    %in_at = ktdp.construct_access_tile %in_mem[%r0, %c0] {
        access_tile_set = #part, access_tile_order = #lex
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    %v = ktdp.load %in_at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>

    %lo = arith.constant dense<-0.5> : tensor<8x64xf16>
    %hi = arith.constant dense<0.5> : tensor<8x64xf16>
    %above = arith.maximumf %v, %lo : tensor<8x64xf16>
    %clamped = arith.minimumf %above, %hi : tensor<8x64xf16>

    // Round trip through this tile's scratchpad.
    %lx_addr = arith.constant 4096 : index
    %lx_mem = ktdp.construct_memory_view %lx_addr, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = #part, memory_space = #ktdp.spyre_memory_space<LX>
    } : memref<8x64xf16>
    %lx_at = ktdp.construct_access_tile %lx_mem[%c0, %c0] {
        access_tile_set = #part, access_tile_order = #lex
    } : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %clamped, %lx_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    %staged = ktdp.load %lx_at : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>

    %out_at = ktdp.construct_access_tile %out_mem[%r0, %c0] {
        access_tile_set = #part, access_tile_order = #lex
    } : memref<16x64xf16> -> !ktdp.access_tile<8x64xindex>
    ktdp.store %staged, %out_at : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    return
  }
}
