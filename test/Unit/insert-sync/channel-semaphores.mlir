// A channel becomes a "full" semaphore in the consumer's unit and a "free"
// one in the producer's: the producer credits itself the depth first,
// waits on free to acquire, signals the consumer's full to release, and
// drains the depth at its end; the consumer waits on full and signals the
// producer's free. Numbers are per unit, in channel order (@in and @out
// both live in the DMA: free 0 and full 1).
// RUN: ktflow-opt %S/../Inputs/add_pipeline.mlir -ktunit-insert-sync=arch=sample | FileCheck %s --check-prefix=SAMPLE
// RUN: ktflow-opt %S/../Inputs/ring_spyre.mlir -ktunit-insert-sync=arch=spyre | FileCheck %s --check-prefix=SPYRE
// RUN: ktflow-opt %S/../Inputs/ring_deep.mlir -ktunit-insert-sync=arch=deep | FileCheck %s --check-prefix=DEEP
// SAMPLE-NOT: ktunit.channel
// SAMPLE-LABEL: ktunit.program @dma0
// SAMPLE-NEXT: ktunit.credit sem 0, 2
// SAMPLE-NEXT: ktunit.wait sem 0, 1
// SAMPLE: ktunit.signal #ktunit.node<@ld[0]>, sem 0
// SAMPLE: ktunit.wait sem 1, 1
// SAMPLE: ktunit.signal #ktunit.node<@st[0]>, sem 0
// SAMPLE: ktunit.wait sem 0, 2
// SAMPLE-NEXT: }
// SAMPLE-LABEL: ktunit.program @ld0
// SAMPLE: ktunit.wait sem 0, 1
// SAMPLE: ktunit.signal #ktunit.node<@dma[0]>, sem 0
// SAMPLE-LABEL: ktunit.program @st0
// SAMPLE-NEXT: ktunit.credit sem 0, 2
// SAMPLE: ktunit.signal #ktunit.node<@dma[0]>, sem 1
// SAMPLE: ktunit.wait sem 0, 2
// SPYRE-LABEL: ktunit.program @dma0
// SPYRE-NEXT: ktunit.credit sem 0, 3
// SPYRE: ktunit.signal #ktunit.node<@ld[t0]>, sem 0
// SPYRE: ktunit.wait sem 0, 3
// SPYRE-LABEL: ktunit.program @ld0
// SPYRE: ktunit.signal #ktunit.node<@dma>, sem 0
// DEEP-LABEL: ktunit.program @outer
// DEEP-NEXT: ktunit.credit sem 0, 2
// DEEP: ktunit.signal #ktunit.node<@tile_dma[t0]>, sem 0
// DEEP-LABEL: ktunit.program @inner
// DEEP: ktunit.wait sem 0, 1
// DEEP: ktunit.signal #ktunit.node<@l2_dma>, sem 0
