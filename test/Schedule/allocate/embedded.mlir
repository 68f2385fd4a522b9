// The whole scheduler with the description embedded in the input (no
// --arch): one core, a compute unit that reads and writes the scratchpad
// itself, 16-byte alignment. A constant-only store and a rank-0 scalar
// update are scheduled too.
// RUN: ktflow compile %s | FileCheck %s
// CHECK: ktsched.kernel @fill {{.*}}device = "tiny"
// CHECK: ktsched.group @g0 {{.*}}store_route = "@vec -> @spad -> @dma -> @ddr"
// CHECK: tile = #ktsched.decision<array<i64: 64>, "heuristic">
// CHECK: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 128 : i64{{.*}}memory = "spad"
// CHECK: ktsched.group @g1 {{.*}}load_route = "@ddr -> @dma -> @spad -> @vec"
// CHECK: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 16 : i64
// CHECK: ktsched.stage "compute"
// CHECK-NEXT: ^bb0(%[[S:.*]]: f16):
// CHECK-NEXT: ktsched.vop "neg"(%[[S]])
// CHECK: ktsched.buffer {{.*}}address = #ktsched.decision<32 : i64, "heuristic">, bytes = 16 : i64
module {
  ktarch.device @tiny clock_mhz = 500 {
    ktarch.memory @ddr {capacity = 1048576, alignment = 16, spaces = ["global"]}
    ktarch.group @core count = 1 {
      ktarch.memory @spad {capacity = 65536, alignment = 16, spaces = ["ct_local"]}
      ktarch.dma @dma {semaphores = 32, access = [#ktarch.access<memory = @ddr, min_size = 16, max_size = 4096, size_multiple = 16, alignment = 16>, #ktarch.access<memory = @spad, min_size = 16, max_size = 4096, size_multiple = 16, alignment = 16>]}
      ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f16 = 8}, ops = {neg = 1, copy = 1}, access = [#ktarch.access<memory = @spad, min_size = 16, max_size = 16, size_multiple = 16, alignment = 16>]}
      ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
      ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
      ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    }
  }
  func.func @fill(%y: index, %s: index) {
    %c0 = arith.constant 0 : index
    %ym = ktdp.construct_memory_view %y, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %yt = ktdp.construct_access_tile %ym[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %z = arith.constant dense<1.0> : tensor<64xf16>
    ktdp.store %z, %yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
    %sm = ktdp.construct_memory_view %s, sizes: [1], strides: [1] {coordinate_set = affine_set<(d0) : (d0 == 0)>, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
    %st = ktdp.construct_access_tile %sm[%c0] {access_tile_set = affine_set<(d0) : (d0 == 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
    %v = ktdp.load %st : !ktdp.access_tile<1xindex> -> tensor<1xf16>
    %r = tensor.collapse_shape %v [] : tensor<1xf16> into tensor<f16>
    %n = arith.negf %r : tensor<f16>
    %e = tensor.empty() : tensor<1xf16>
    %w = linalg.broadcast ins(%n : tensor<f16>) outs(%e : tensor<1xf16>) dimensions = [0]
    ktdp.store %w, %st : tensor<1xf16>, !ktdp.access_tile<1xindex>
    return
  }
}
