// A unit without semaphores, with a negative count, or with more than
// ktflow models is rejected at the unit. Positive twin: max-unit-counts.mlir.
// RUN: not ktflow arch check %s 2>&1 | FileCheck %s
// RUN: sed 's/@dma {semaphores = 0,/@dma {semaphores = -3,/' %s > %t.neg.mlir
// RUN: not ktflow arch check %t.neg.mlir 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: 'ktarch.dma' op semaphores of unit @dma must be positive, got -3
// RUN: sed 's/@dma {semaphores = 0,/@dma {semaphores = 1025,/' %s > %t.huge.mlir
// RUN: not ktflow arch check %t.huge.mlir 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: 'ktarch.dma' op semaphores of unit @dma is 1025, more than the modelled 1024
// RUN: sed 's/@dma {semaphores = 0,/@dma {/' %s > %t.missing.mlir
// RUN: not ktflow arch check %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    // MISSING: missing.mlir:[[@LINE+2]]:5: error: 'ktarch.dma' op requires attribute 'semaphores'
    // CHECK: zero-semaphores.mlir:[[@LINE+1]]:5: error: 'ktarch.dma' op semaphores of unit @dma must be positive, got 0
    ktarch.dma @dma {semaphores = 0, access = [#ddr_rule, #spad_rule]}
    ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
  }
}
