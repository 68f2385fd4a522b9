// Each transfer takes the cheapest route in the architecture model; every
// unit on it becomes a stage bound to it. sample and spyre: five stages
// (DMA load, scratchpad load, compute, scratchpad store, DMA store) with
// FIFOs into and out of the compute unit. deep: two DMA hops each way
// through L2 and L1 and a compute unit that reads and writes L1 itself.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_expand | FileCheck %s --check-prefix=SAMPLE
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_expand | FileCheck %s --check-prefix=SPYRE
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_expand | FileCheck %s --check-prefix=DEEP

// SAMPLE: load_route = "@ddr -> @dma -> @spad -> @ld -> @vec"
// SAMPLE-SAME: store_route = "@vec -> @st -> @spad -> @dma -> @ddr"
// SAMPLE: %[[DMA:[0-9]+]]:3 = ktsched.stage "dma_load" {{.*}}unit = #ktsched.decision<"dma", "heuristic">
// SAMPLE: %[[TILE:[0-9]+]] = ktsched.buffer %[[DMA]]#0 {{{.*}}memory = "spad"
// SAMPLE: %[[LD:[0-9]+]]:3 = ktsched.stage "load"(%[[TILE]], {{.*}}unit = #ktsched.decision<"ld", "heuristic">
// SAMPLE: %[[IN:[0-9]+]] = ktsched.fifo %[[LD]]#0 {depth = 4 : i64, {{.*}}link = "ld_to_vec"}
// SAMPLE: %[[RES:[0-9]+]] = ktsched.stage "compute"(%[[IN]],
// SAMPLE: %[[OUT:[0-9]+]] = ktsched.fifo %[[RES]] {{{.*}}link = "vec_to_st"}
// SAMPLE: %[[ST:[0-9]+]] = ktsched.stage "store"(%[[OUT]]) {{.*}}unit = #ktsched.decision<"st", "heuristic">
// SAMPLE: %[[OUTTILE:[0-9]+]] = ktsched.buffer %[[ST]] {{{.*}}memory = "spad"
// SAMPLE: ktsched.stage "dma_store"(%[[OUTTILE]]) {{.*}}unit = #ktsched.decision<"dma", "heuristic">

// SPYRE: ktsched.stage "dma_load" {{.*}}unit = #ktsched.decision<"dma", "heuristic">
// SPYRE: ktsched.buffer {{.*}}memory = "lx"
// SPYRE: ktsched.stage "load"{{.*}}unit = #ktsched.decision<"ld", "heuristic">
// SPYRE: ktsched.fifo {{.*}}link = "ld_to_sfp"
// SPYRE: ktsched.stage "compute"{{.*}}unit = #ktsched.decision<"sfp", "heuristic">
// SPYRE: ktsched.fifo {{.*}}link = "sfp_to_st"
// SPYRE: ktsched.stage "store"{{.*}}unit = #ktsched.decision<"st", "heuristic">
// SPYRE: ktsched.buffer {{.*}}memory = "lx"
// SPYRE: ktsched.stage "dma_store"{{.*}}unit = #ktsched.decision<"dma", "heuristic">

// DEEP: ktsched.stage "dma_load" {{.*}}unit = #ktsched.decision<"l2_dma", "heuristic">
// DEEP: ktsched.buffer {{.*}}memory = "l2"
// DEEP: ktsched.stage "dma_load"{{.*}}unit = #ktsched.decision<"tile_dma", "heuristic">
// DEEP: %[[L1:[0-9]+]] = ktsched.buffer {{.*}}memory = "l1"
// DEEP-NOT: ktsched.fifo
// DEEP: %[[RES:[0-9]+]] = ktsched.stage "compute"(%[[L1]],{{.*}}unit = #ktsched.decision<"vpu", "heuristic">
// DEEP: ktsched.buffer %[[RES]] {{{.*}}memory = "l1"
// DEEP: ktsched.stage "dma_store"{{.*}}unit = #ktsched.decision<"tile_dma", "heuristic">
// DEEP: ktsched.buffer {{.*}}memory = "l2"
// DEEP: ktsched.stage "dma_store"{{.*}}unit = #ktsched.decision<"l2_dma", "heuristic">
