// Semaphores are allocated against the count the description gives the
// unit: two channels into a vector unit with one semaphore need two "full"
// semaphores there, and the error names the channel and the unit.
// RUN: not ktflow-opt %s -ktunit-insert-sync 2>&1 | FileCheck %s
// CHECK: error: channel @second needs its full semaphore in unit 'vec' as number 1, but @tiny gives 'vec' 1 semaphores
#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    ktarch.dma @dma {semaphores = 4, access = [#ddr_rule, #spad_rule]}
    ktarch.compute @vec {semaphores = 1, vector_registers = 2, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
  }
}
ktunit.bundle @b device "tiny" {
  ktunit.channel @first {depth = 1, producer = @d, consumer = @v,
                         consumer_ref = #ktunit.node<@vec>, producer_ref = #ktunit.node<@dma>}
  ktunit.channel @second {depth = 1, producer = @d, consumer = @v,
                          consumer_ref = #ktunit.node<@vec>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @d unit "dma" {
  }
  ktunit.program @v unit "vec" {
  }
}
