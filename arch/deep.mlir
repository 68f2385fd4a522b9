// The `deep` architecture: a made-up device shaped unlike `sample` on
// purpose, so that a pass assuming sample's shape fails a test:
//  * an extra memory level: HBM -> shared L2 -> per-tile L1;
//  * two DMA hops (a device-wide DMA into L2, a per-tile DMA into L1);
//  * no load/store units: the vector unit reads and writes L1 directly;
//  * one sub-core per tile, other lane counts (f32 16, f16 32, bf16 32),
//    another clock, 32-byte granules and 4 tiles.
// Every value is invented for testing; none describes real hardware.
// Semaphores and vector registers: 32 per unit instance, as on `sample`
// (invented; the outer DMA's 2 semaphores per tile need 8 of them).

#hbm_block = #ktarch.access<memory = @hbm, min_size = 32, max_size = 262144, size_multiple = 32, alignment = 32>
#l2_block = #ktarch.access<memory = @l2, min_size = 32, max_size = 262144, size_multiple = 32, alignment = 32>
#l1_block = #ktarch.access<memory = @l1, min_size = 32, max_size = 65536, size_multiple = 32, alignment = 32>
// The vector unit touches L1 one 64-byte vector at a time.
#l1_vector = #ktarch.access<memory = @l1, min_size = 64, max_size = 64, size_multiple = 32, alignment = 64>

ktarch.device @deep clock_mhz = 800 {
  ktarch.memory @hbm {capacity = 268435456, alignment = 32, spaces = ["global"], bandwidth = 96}
  // The shared second level: backs no KTIR space; the compiler stages data
  // through it.
  ktarch.memory @l2 {capacity = 4194304, reserved = 65536, alignment = 32, bandwidth = 192}
  ktarch.dma @l2_dma {semaphores = 32, access = [#hbm_block, #l2_block]}

  ktarch.link @hbm_to_l2dma : @hbm -> @l2_dma {bandwidth = 96, latency = 80, granule = 32}
  ktarch.link @l2dma_to_l2 : @l2_dma -> @l2 {bandwidth = 96, latency = 4, granule = 32}
  ktarch.link @l2_to_l2dma : @l2 -> @l2_dma {bandwidth = 96, latency = 4, granule = 32}
  ktarch.link @l2dma_to_hbm : @l2_dma -> @hbm {bandwidth = 96, latency = 80, granule = 32}

  ktarch.group @tile count = 4 {
    // 192 KiB (128 KiB until 2026-12-03, when figures measured on deep
    // before that date were taken): large enough for the ct_local regions
    // of the shared examples 11 and 13 (bytes 131072-132095), and, unlike
    // the other descriptions, not a power of two.
    ktarch.memory @l1 {capacity = 196608, alignment = 64, spaces = ["ct_local"], bandwidth = 128}
    ktarch.dma @tile_dma {semaphores = 32, access = [#l2_block, #l1_block]}

    ktarch.link @l2_to_tdma : @l2 -> @tile_dma {bandwidth = 48, latency = 10, granule = 32}
    ktarch.link @tdma_to_l1 : @tile_dma -> @l1 {bandwidth = 48, latency = 2, granule = 32}
    ktarch.link @l1_to_tdma : @l1 -> @tile_dma {bandwidth = 48, latency = 2, granule = 32}
    ktarch.link @tdma_to_l2 : @tile_dma -> @l2 {bandwidth = 48, latency = 10, granule = 32}

    // One sub-core per tile.
    ktarch.group @lane count = 1 {
      // Issue costs (invented, unlike sample's on purpose): 1 for simple
      // lane-wise ops and fma, 2 for a conversion, 8 for division and sqrt
      // (iterative), 6 for the polynomial transcendentals (rsqrt, exp, log,
      // tanh, erf), 12 for pow (exp of y * log x: two of them), 3 for a
      // cross-lane reduction. Integer lanes (invented): i32 as f32, i8 not
      // at all (so a kernel on i8 data is rejected here, not assumed).
      ktarch.compute @vpu {semaphores = 32, vector_registers = 32,
                           lanes = {f32 = 16, f16 = 32, bf16 = 32, i32 = 16},
                           ops = {add = 1, sub = 1, mul = 1, fma = 1, max = 1, min = 1,
                                  neg = 1, abs = 1, cmp = 1, select = 1, cast = 2, copy = 1,
                                  div = 8, sqrt = 8, rsqrt = 6, exp = 6, log = 6, tanh = 6,
                                  erf = 6, pow = 12, reduce = 3},
                           access = [#l1_vector]}
      ktarch.link @l1_to_vpu : @l1 -> @vpu {bandwidth = 64, latency = 3, granule = 64}
      ktarch.link @vpu_to_l1 : @vpu -> @l1 {bandwidth = 64, latency = 3, granule = 64}
    }
  }
}
