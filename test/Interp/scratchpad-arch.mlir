// With --arch the interpreter's scratchpad is the description's ct_local
// memory (its usable bytes: 253952 on sample), not the 2 MiB default.
// @sample_edge writes the last 8 bytes sample can hold and runs either way;
// @past_sample writes 2 bytes further: the default 2 MiB takes it,
// sample rejects it, naming where the capacity comes from.
// RUN: ktflow interp %s --func sample_edge | FileCheck %s --check-prefix=OK
// RUN: ktflow interp %s --func sample_edge --arch sample | FileCheck %s --check-prefix=OK
// RUN: ktflow interp %s --func past_sample | FileCheck %s --check-prefix=OK
// RUN: not ktflow interp %s --func past_sample --arch sample 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not ktflow interp %s --func sample_edge --arch sample --scratchpad-bytes 4096 2>&1 | FileCheck %s --check-prefix=BOTH
// OK: kernel @{{sample_edge|past_sample}}: grid [1, 1, 1], 1 tile{{$}}
// BOTH: ktflow interp: give --arch or --scratchpad-bytes, not both

#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id = affine_map<(d0) -> (d0)>

// Elements 126972..126975 of f16: bytes [253944, 253952).
func.func @sample_edge() {
  %c0 = arith.constant 0 : index
  %at = arith.constant 126972 : index
  %v = ktdp.construct_memory_view %at, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<ct_local>
  } : memref<4xf16>
  %tile = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %ones = arith.constant dense<1.0> : tensor<4xf16>
  ktdp.store %ones, %tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}

// Elements 126973..126976: bytes [253946, 253954), 2 past sample's end.
func.func @past_sample() {
  %c0 = arith.constant 0 : index
  %at = arith.constant 126973 : index
  %v = ktdp.construct_memory_view %at, sizes: [4], strides: [1] {
      coordinate_set = #four, memory_space = #ktdp.memory_space<ct_local>
  } : memref<4xf16>
  %tile = ktdp.construct_access_tile %v[%c0] {
      access_tile_set = #four, access_tile_order = #id
  } : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %ones = arith.constant dense<1.0> : tensor<4xf16>
  // SAMPLE: scratchpad-arch.mlir:[[@LINE+1]]:3: error: scratchpad access outside [0, 253952) bytes of tile 0 (the usable bytes of @spad on 'sample'): {{.*}} (byte 253946), 8 bytes
  ktdp.store %ones, %tile : tensor<4xf16>, !ktdp.access_tile<4xindex>
  return
}
