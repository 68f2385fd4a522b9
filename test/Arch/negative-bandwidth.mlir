// A link with negative bandwidth is rejected at the link.
// RUN: not ktflow arch check %s 2>&1 | FileCheck %s

#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    ktarch.dma @dma {semaphores = 32, access = [#ddr_rule, #spad_rule]}
    ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    // CHECK: negative-bandwidth.mlir:[[@LINE+1]]:5: error: 'ktarch.link' op bandwidth of link @ddr_to_dma must be positive, got -8
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = -8, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
  }
}
