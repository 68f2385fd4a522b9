// IBM Spyre, from the public figures collected in ../shared/docs/spyre.md.
// Values marked "published" or "measured" come from that page; every value
// marked "ASSUMED" is not public and was chosen by ktflow, with the reason.
//
// Shape: global LPDDR5 -> ring -> per-core DMA -> LX scratchpad (per core,
// shared by 2 corelets) -> per-corelet load unit -> FIFO -> SFP vector unit or
// PT matrix unit -> FIFO -> store unit -> LX -> DMA -> ring -> LPDDR5.

// DMA moves whole 128-byte sticks (published granule) in blocks up to
// 1 MiB (ASSUMED: a single descriptor limit, not published).
#dma_ddr = #ktarch.access<memory = @ddr, min_size = 128, max_size = 1048576, size_multiple = 128, alignment = 128>
#dma_lx = #ktarch.access<memory = @lx, min_size = 128, max_size = 1048576, size_multiple = 128, alignment = 128>
// Load/store units move one stick per access (published stick size; one
// stick per access is ASSUMED, matching one stick per cycle of compute).
#stick_lx = #ktarch.access<memory = @lx, min_size = 128, max_size = 128, size_multiple = 128, alignment = 128>

// Clock not published: ASSUMED 1.5 GHz, chosen so that the published ring
// width and the measured stream rate both hold. The ring carries 128
// bytes/cycle per direction (published) and a read-only stream reaches about
// 150 GB/s (measured), so the clock is at least 150 / 128 = 1.17 GHz (at the
// former 1 GHz assumption the ring capped reads at 128 GB/s). The published
// 200 GB/s nominal into the ring would be one direction's 128 bytes/cycle at
// 1.5625 GHz; 1.5 GHz (ring 192 GB/s, 4% under that nominal) keeps every
// measured rate a whole number of bytes/cycle: 150 GB/s = 100 B/cycle,
// 105 GB/s = 70 B/cycle. At 1.5 GHz, B/cycle = GB/s / 1.5.
ktarch.device @spyre clock_mhz = 1500 {
  // 128 GB LPDDR5 per card, about 112 GB usable after ECC (published); the
  // 16 GB difference is the reserve (GB read as GiB: ASSUMED).
  // Port: 100 B/cycle = the measured 150 GB/s for read-only or write-only
  // streams at the assumed 1.5 GHz, shared by all cores (measured); reads
  // and writes share it. mixed_bandwidth 70 B/cycle = the measured 105 GB/s
  // for a balanced read+write stream (the read/write turnaround cost);
  // between the two the cost interpolates as docs/arch.md describes
  // (ASSUMED: only the two end points are measured).
  ktarch.memory @ddr {capacity = 137438953472, reserved = 17179869184, alignment = 128,
                      spaces = ["global"], bandwidth = 100, mixed_bandwidth = 70}

  // The on-chip ring, 128 B/cycle per direction (published), is one link
  // each way shared by all 32 cores: it is declared outside @core (192 GB/s
  // at the assumed clock, above the 150 GB/s the DDR port serves, so the
  // port, not the ring, bounds a 32-core stream). Latency ASSUMED 100
  // cycles (ring hops plus DRAM access; not published).
  ktarch.link @ring_read : @ddr -> @dma {bandwidth = 128, latency = 100, granule = 128}
  ktarch.link @ring_write : @dma -> @ddr {bandwidth = 128, latency = 100, granule = 128}

  // 32 cores per card (published).
  ktarch.group @core count = 32 {
    // LX: 2 MiB per core shared by its two corelets (published). About
    // 1.55 MiB is usable by a compiler (published): 64 KiB program/debug
    // plus a backend reserve; 464 KiB reserved leaves 1622016 B = 1.547 MiB.
    // Port bandwidth ASSUMED 512 B/cycle: enough for both corelets' load
    // and store streams (4 x 128) so that it is not a limit by itself.
    ktarch.memory @lx {capacity = 2097152, reserved = 475136, alignment = 128,
                       spaces = ["ct_local"], bandwidth = 512}
    // issue_cost ASSUMED 64 cycles (43 ns) per descriptor: DMA set-up is not
    // published, but torch-spyre's fitted cost model derates short per-core
    // tiles. The engine sets up one descriptor per 64 cycles, overlapped
    // with the previous one's data, so copies of 4 KiB and more (64 cycles
    // on the core's 64 B/cycle path) hide it and a stream of 256-byte copies
    // runs at 4 B/cycle per core.
    // Semaphores per unit instance: ASSUMED 32 (not published; the figure
    // ktflow's device code used before descriptions gave it; the DMA needs
    // 2 per corelet). The same holds for the load and store units below.
    ktarch.dma @dma {semaphores = 32, access = [#dma_ddr, #dma_lx], issue_cost = 64}

    // A core's DMA path: ASSUMED 64 B/cycle (96 GB/s) each way, so one core
    // alone is bound by its DMA path (as measured: "a single core cannot use
    // all of the bandwidth") while 32 cores are bound by the DDR port.
    // Latency ASSUMED 4 cycles.
    ktarch.link @dma_to_lx : @dma -> @lx {bandwidth = 64, latency = 4, granule = 128}
    ktarch.link @lx_to_dma : @lx -> @dma {bandwidth = 64, latency = 4, granule = 128}

    // 2 corelets per core (published).
    ktarch.group @corelet count = 2 {
      ktarch.load_unit @ld {semaphores = 32, access = [#stick_lx]}
      // SFP vector unit: one 128-byte stick per cycle, 64 fp16 lanes
      // (published stick, lanes/cycle the common modelling assumption);
      // fp8/int8 at 128 lanes and fp32 at 32 lanes (ASSUMED: the same
      // 128-byte stick holds 32 fp32 values; fp32 arithmetic on the SFP is
      // not in the public figures, ktflow assumes it for f32 statistics and
      // accumulators); i32 at 32 lanes (ASSUMED like fp32: int8/int4 are
      // the published integer types, i32 lanes are what index and count
      // data need; integer add/sub/mul/max/min/cmp/select/cast ASSUMED to
      // pay their float twins' op classes). Issue costs
      // ASSUMED: 1 cycle for simple elementwise ops and fma, 4 for
      // transcendental (sqrt, rsqrt, exp, log, tanh, erf) and division
      // (software-like sequences on the SFU), 8 for pow (exp of y * log x:
      // two such sequences), 2 for a reduction.
      // 32 semaphores and 32 vector registers: ASSUMED (not published; the
      // figures ktflow's device code used before descriptions gave them).
      ktarch.compute @sfp {semaphores = 32, vector_registers = 32,
                           lanes = {f16 = 64, f32 = 32, f8E4M3FN = 128, i8 = 128, i32 = 32},
                           ops = {add = 1, sub = 1, mul = 1, fma = 1, max = 1, min = 1,
                                  neg = 1, abs = 1, cmp = 1, select = 1, cast = 1, copy = 1,
                                  div = 4, sqrt = 4, rsqrt = 4, exp = 4, log = 4, tanh = 4,
                                  erf = 4, pow = 8, reduce = 2}}
      // PT matrix unit: an 8x8 systolic PE array (published). Lanes = MACs
      // per PE per issue: 8 for fp16 (ASSUMED, so that 2 corelets x 8 x 8 x
      // 8 = 1024 MAC/cycle per core matches the datasheet's 1536 MAC/ns at
      // the assumed 1.5 GHz; the measured sustained figure is 1140), 16 for
      // fp8/int8 (ASSUMED: twice fp16). Semaphores and registers
      // ASSUMED as for the SFP.
      ktarch.compute @pt {semaphores = 32, vector_registers = 32,
                          lanes = {f16 = 8, f8E4M3FN = 16, i8 = 16},
                          ops = {matmul = 1}, matrix = array<i64: 8, 8>}
      ktarch.store_unit @st {semaphores = 32, access = [#stick_lx]}

      // Per corelet: LX ports of one stick per cycle (ASSUMED, matching the
      // compute rate), FIFOs of 4 sticks (ASSUMED), latencies ASSUMED.
      ktarch.link @lx_to_ld : @lx -> @ld {bandwidth = 128, latency = 2, granule = 128}
      ktarch.link @ld_to_sfp : @ld -> @sfp {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      ktarch.link @ld_to_pt : @ld -> @pt {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      ktarch.link @sfp_to_st : @sfp -> @st {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      ktarch.link @pt_to_st : @pt -> @st {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      // PT accumulators to and from the SFP without a trip through LX: the
      // SFP presets them and takes the results for the epilogue
      // (activation, scaling, casts). ASSUMED, as the FIFOs above.
      ktarch.link @pt_to_sfp : @pt -> @sfp {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      ktarch.link @sfp_to_pt : @sfp -> @pt {bandwidth = 128, latency = 1, granule = 128, fifo_depth = 4}
      ktarch.link @st_to_lx : @st -> @lx {bandwidth = 128, latency = 2, granule = 128}
    }
  }
}
