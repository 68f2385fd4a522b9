// The positive twin of zero-semaphores.mlir and zero-vector-registers.mlir:
// the smallest and largest counts ktflow models check, a mover may declare
// registers or none, and `arch show` prints what the description says.
// RUN: ktflow arch check %s | FileCheck %s
// CHECK: ok
// RUN: ktflow arch show %s | FileCheck %s --check-prefix=SHOW
// SHOW: dma @dma: access @ddr {{.*}}; semaphores 1024{{$}}
// SHOW: load_unit @ld: access @spad {{.*}}; semaphores 1, vector registers 1{{$}}
// SHOW: compute @vec: {{.*}}; semaphores 1, vector registers 256{{$}}

#ddr_rule = #ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
#spad_rule = #ktarch.access<memory = @spad, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>
ktarch.device @tiny clock_mhz = 1000 {
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global"]}
  ktarch.group @core count = 1 {
    ktarch.memory @spad {capacity = 256, alignment = 16, spaces = ["ct_local"]}
    ktarch.dma @dma {semaphores = 1024, access = [#ddr_rule, #spad_rule]}
    ktarch.load_unit @ld {semaphores = 1, vector_registers = 1, access = [#spad_rule]}
    ktarch.compute @vec {semaphores = 1, vector_registers = 256, lanes = {f32 = 4}, ops = {add = 1}, access = [#spad_rule]}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @spad_to_vec : @spad -> @vec {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
    ktarch.link @vec_to_spad : @vec -> @spad {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @spad_to_ld : @spad -> @ld {bandwidth = 16, latency = 1, granule = 16}
    ktarch.link @ld_to_vec : @ld -> @vec {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
  }
}
