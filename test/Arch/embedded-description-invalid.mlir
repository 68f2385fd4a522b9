// A broken description inside a test's module is reported by the verifier.
// RUN: ktflow-opt %s -verify-diagnostics -split-input-file

module {
  ktarch.device @inline clock_mhz = 500 {
    ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["global", "ct_local"]}
    ktarch.dma @dma {semaphores = 32, access = [#ktarch.access<memory = @ddr, min_size = 16, max_size = 256, size_multiple = 16, alignment = 16>]}
    // expected-error @+1 {{compute unit @vec has no route for its results back to global memory}}
    ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {add = 1}}
    ktarch.link @ddr_to_dma : @ddr -> @dma {bandwidth = 16, latency = 10, granule = 16}
    ktarch.link @dma_to_vec : @dma -> @vec {bandwidth = 16, latency = 1, granule = 16, fifo_depth = 2}
    ktarch.link @dma_to_ddr : @dma -> @ddr {bandwidth = 16, latency = 10, granule = 16}
  }
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{unknown KTIR memory space 'hbm'}}
  ktarch.memory @ddr {capacity = 1024, alignment = 16, spaces = ["hbm"]}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{unknown op class 'addd'}}
  ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f32 = 4}, ops = {addd = 1}}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{lanes: 'float' is not a scalar element type}}
  ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {float = 4}, ops = {add = 1}}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{a matrix unit must list the op class 'matmul'}}
  ktarch.compute @pt {semaphores = 32, vector_registers = 32, lanes = {f16 = 4}, ops = {add = 1}, matrix = array<i64: 8, 8>}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{op class 'matmul' needs a matrix shape}}
  ktarch.compute @vec {semaphores = 32, vector_registers = 32, lanes = {f16 = 4}, ops = {matmul = 1}}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{access rule for @ddr: min_size and max_size must be multiples of size_multiple}}
  ktarch.dma @dma {semaphores = 32, access = [#ktarch.access<memory = @ddr, min_size = 24, max_size = 256, size_multiple = 16, alignment = 16>]}
}

// -----

ktarch.device @ops clock_mhz = 500 {
  // expected-error @+1 {{reserved must be in [0, capacity), got 1024}}
  ktarch.memory @ddr {capacity = 1024, reserved = 1024, alignment = 16, spaces = ["global"]}
}

// -----

// expected-error @+1 {{clock_mhz must be positive, got 0}}
ktarch.device @ops clock_mhz = 0 {
}
