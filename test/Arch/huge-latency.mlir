// A link latency or granule so large that route costs would overflow is
// rejected at the link (arch-fuzzer finding: a latency of 2^63 - 1 made the
// route search's cost sum overflow). Positive twin: large-latency.mlir.
// RUN: not ktflow arch check %s 2>&1 | FileCheck %s
// RUN: sed 's/latency = 9223372036854775807, granule = 16/latency = 1, granule = 4294967297/' %s > %t.mlir
// RUN: not ktflow arch check %t.mlir 2>&1 | FileCheck %s --check-prefix=GRANULE
// GRANULE: error: 'ktarch.link' op granule of link @spad_to_vec is 4294967297 bytes, more than the modelled 4294967296

#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    ktarch.dma @dma {semaphores = 32, access = [#ddr_rule, #spad_rule]}
    ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    // CHECK: huge-latency.mlir:[[@LINE+1]]:5: error: 'ktarch.link' op latency of link @spad_to_vec is 9223372036854775807 cycles, more than the modelled 4294967296
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 9223372036854775807, granule = 16, fifo_depth = 2}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
  }
}
