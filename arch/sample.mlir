// The `sample` architecture: a small made-up device for tests. Two cores with
// two sub-cores each; data takes the five-stage path
//   DDR -> DMA -> scratchpad -> load unit -> FIFO -> vector unit
//       -> FIFO -> store unit -> scratchpad -> DMA -> DDR.
// Beside the vector unit each sub-core has a small 4x4 matrix unit fed by
// the same load unit and draining into the same store unit, so the matrix
// path is tested on a second description beside spyre's.
// Every value is invented for testing; none describes real hardware.
// Every unit instance has 32 counting semaphores and the vector unit 32
// vector registers (invented: the figures ktflow's device code used before
// descriptions gave them).

// Access rules: DMA moves 64-byte multiples up to 64 KiB; the scratchpad
// load/store units move exactly one 64-byte vector per access.
#dma_ddr = #ktarch.access<memory = @ddr, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 64>
#dma_spad = #ktarch.access<memory = @spad, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 64>
#vector_spad = #ktarch.access<memory = @spad, min_size = 64, max_size = 64, size_multiple = 64, alignment = 64>

ktarch.device @sample clock_mhz = 1000 {
  // 64 MiB of global memory; its port serves 64 B/cycle shared by both cores.
  ktarch.memory @ddr {capacity = 67108864, alignment = 64, spaces = ["global"], bandwidth = 64}

  ktarch.group @core count = 2 {
    // 256 KiB scratchpad per core, shared by its two sub-cores; 8 KiB reserved.
    ktarch.memory @spad {capacity = 262144, reserved = 8192, alignment = 64, spaces = ["ct_local"], bandwidth = 128}
    ktarch.dma @dma {semaphores = 32, access = [#dma_ddr, #dma_spad]}

    ktarch.group @subcore count = 2 {
      ktarch.load_unit @ld {semaphores = 32, access = [#vector_spad]}
      // Issue costs (invented, in the proportions spyre's description
      // assumes): 1 for simple lane-wise ops and fma, 4 for division and
      // each transcendental (sqrt, rsqrt, exp, log, tanh, erf: an iterative
      // or polynomial sequence), 8 for pow (exp of y * log x: two such
      // sequences), 2 for a cross-lane reduction. Integer lanes (invented):
      // i32 as many as f32 (the same 64-byte vector), i8 four times that;
      // integer add, sub, mul, max, min, cmp, select and casts pay the op
      // class of their float twins.
      ktarch.compute @vec {semaphores = 32, vector_registers = 32,
                           lanes = {f16 = 32, f32 = 16, i32 = 16, i8 = 64},
                           ops = {add = 1, sub = 1, mul = 1, fma = 1, max = 1, min = 1,
                                  neg = 1, abs = 1, cmp = 1, select = 1, cast = 1, copy = 1,
                                  div = 4, sqrt = 4, rsqrt = 4, exp = 4, log = 4, tanh = 4,
                                  erf = 4, pow = 8, reduce = 2}}
      // A 4x4 array of multiply-accumulate cells (invented). Lanes = MACs
      // per cell per issue: 4 for f16, so one issue is 4 x 4 x 4 = 64 MACs.
      ktarch.compute @mxu {semaphores = 32, vector_registers = 32,
                           lanes = {f16 = 4}, ops = {matmul = 1},
                           matrix = array<i64: 4, 4>}
      ktarch.store_unit @st {semaphores = 32, access = [#vector_spad]}

      // Per sub-core: its own scratchpad ports and FIFOs.
      ktarch.link @spad_to_ld : @spad -> @ld {bandwidth = 64, latency = 2, granule = 64}
      ktarch.link @ld_to_vec : @ld -> @vec {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @vec_to_st : @vec -> @st {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @ld_to_mxu : @ld -> @mxu {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @mxu_to_st : @mxu -> @st {bandwidth = 64, latency = 1, granule = 64, fifo_depth = 4}
      ktarch.link @st_to_spad : @st -> @spad {bandwidth = 64, latency = 2, granule = 64}
    }

    // Per core: the DMA's paths to global memory and to the scratchpad.
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 32, latency = 50, granule = 64}
    ktarch.link @dma_to_spad : @dma -> @spad {bandwidth = 32, latency = 2, granule = 64}
    ktarch.link @spad_to_dma : @spad -> @dma {bandwidth = 32, latency = 2, granule = 64}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 32, latency = 50, granule = 64}
  }
}
