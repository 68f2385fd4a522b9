// A description may sit inside a test's input module next to a kernel;
// ktflow-opt parses and verifies both.
// RUN: ktflow-opt %s | FileCheck %s

// CHECK: ktarch.device @inline clock_mhz = 500
// CHECK: func.func @kernel
module {
  ktarch.device @inline clock_mhz = 500 {
    ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global", "ct_local"]}
    ktarch.dma @dma {semaphores = 32, access = [#ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>]}
    ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {add = 1}}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_vec : @dma -> @vec {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
    ktarch.link @vec_to_dma : @vec -> @dma {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
  }
  func.func @kernel() {
    return
  }
}
