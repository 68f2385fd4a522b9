// z = x + y over f16[n], with the offsets computed in i32 as Triton emits
// them: pid cast to i32, times an i32 block size, cast back to index
// (a copy of examples/ktir/17_block_size_arguments.mlir with %block: i32).
// With --arg n=2000 --arg block=256 the subscript folds to pid * 256
// through the casts; the last tile is masked.
//
// Grid: [8]. Arguments: %x, %y, %z f16[n] (n <= 2048), %n i32, %block i32.
// Expected result (bit-exact): z[i] = x[i] + y[i] for i < n.

#first_n = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>
#block = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#in_order = affine_map<(d0) -> (d0)>

module {
  func.func @masked_add(%x: index, %y: index, %z: index, %n: i32, %block: i32)
      attributes {grid = [8]} {
    %pid = ktdp.get_compute_tile_id : index
    %pid_i = arith.index_cast %pid : index to i32
    %start_i = arith.muli %pid_i, %block : i32
    %start = arith.index_cast %start_i : i32 to index
    %len = arith.index_cast %n : i32 to index

    %x_mem = ktdp.construct_memory_view %x, sizes: [%len], strides: [1] {
        coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>
    } : memref<?xf16>
    %y_mem = ktdp.construct_memory_view %y, sizes: [%len], strides: [1] {
        coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>
    } : memref<?xf16>
    %z_mem = ktdp.construct_memory_view %z, sizes: [%len], strides: [1] {
        coordinate_set = #first_n, memory_space = #ktdp.memory_space<global>
    } : memref<?xf16>

    %x_at = ktdp.construct_access_tile %x_mem[%start] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<?xf16> -> !ktdp.access_tile<256xindex>
    %y_at = ktdp.construct_access_tile %y_mem[%start] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<?xf16> -> !ktdp.access_tile<256xindex>
    %z_at = ktdp.construct_access_tile %z_mem[%start] {
        access_tile_set = #block, access_tile_order = #in_order
    } : memref<?xf16> -> !ktdp.access_tile<256xindex>

    %a = ktdp.load %x_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %b = ktdp.load %y_at : !ktdp.access_tile<256xindex> -> tensor<256xf16>
    %s = arith.addf %a, %b : tensor<256xf16>
    ktdp.store %s, %z_at : tensor<256xf16>, !ktdp.access_tile<256xindex>
    return
  }
}
