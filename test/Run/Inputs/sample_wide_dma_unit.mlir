// `sample` with a global-memory DMA unit of 256 bytes (alignment) while
// every link moves 64-byte granules: the scheduler's room for an
// over-fetched column slice (one scratchpad granule) is then smaller than
// the lead a slice can have into its DMA unit. Only for the negative twin
// of test/Run/column-broadcast.test and of test/Bench/unsupported.test;
// every value is invented.

// Access rules: DMA moves 64-byte multiples up to 64 KiB, starting on
// 256-byte units of @ddr; the scratchpad
// load/store units move exactly one 64-byte vector per access.
#dma_ddr = #ktarch.access<memory = @ddr, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 256>
#dma_spad = #ktarch.access<memory = @spad, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 64>
#vector_spad = #ktarch.access<memory = @spad, min_size = 64, max_size = 64, size_multiple = 64, alignment = 64>

ktarch.device @sample_wide_dma_unit clock_mhz = 1000 {
  // 64 MiB of global memory; its port serves 64 B/cycle shared by both cores.
  ktarch.memory @ddr {capacity = 67108864, alignment = 256, spaces = ["global"], bandwidth = 64}

  ktarch.group @core count = 2 {
    // 256 KiB scratchpad per core, shared by its two sub-cores; 8 KiB reserved.
    ktarch.memory @spad {capacity = 262144, reserved = 8192, alignment = 64, spaces = ["ct_local"], bandwidth = 128}
    ktarch.dma @dma {semaphores = 32, access = [#dma_ddr, #dma_spad]}

    ktarch.group @subcore count = 2 {
      ktarch.load_unit @ld {semaphores = 32, access = [#vector_spad]}
      ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f16 = 32, f32 = 16},
                           ops = {add = 1, sub = 1, mul = 1, fma = 1, max = 1, min = 1,
                                  neg = 1, abs = 1, cmp = 1, select = 1, cast = 1, copy = 1,
                                  div = 4, sqrt = 4, rsqrt = 4, exp = 4, log = 4, tanh = 4,
                                  reduce = 2}}
      ktarch.store_unit @st {semaphores = 32, access = [#vector_spad]}

      // Per sub-core: its own scratchpad ports and FIFOs.
      ktarch.link @spad_to_ld : @spad -> @ld {bandwidth = 64, latency = 2, granule = 64}
      ktarch.link @ld_to_vec : @ld -> @vec {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @vec_to_st : @vec -> @st {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @st_to_spad : @st -> @spad {bandwidth = 64, latency = 2, granule = 64}
    }

    // Per core: the DMA's paths to global memory and to the scratchpad.
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 32, latency = 50, granule = 64}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 32, latency = 2, granule = 64}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 32, latency = 2, granule = 64}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 32, latency = 50, granule = 64}
  }
}
