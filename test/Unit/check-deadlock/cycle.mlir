// Balanced channels can still deadlock: each program first acquires a
// full slot the other only releases later. The report says who waits on
// what; its twin no-cycle.mlir hands @fwd on first and completes.
// RUN: not ktflow-opt %s -ktunit-check-deadlock=arch=sample 2>&1 | FileCheck %s
// CHECK: error: deadlock: 2 instance(s) wait forever
// CHECK: note: @dma[core=0] (program @p) waits for 1 of full slots of channel @back at @dma[core=0], which has 0
// CHECK: note: @ld[core=0,subcore=0] (program @q) waits for 1 of full slots of channel @fwd at @ld[core=0,subcore=0], which has 0
ktunit.bundle @b device "sample" {
  ktunit.channel @fwd {depth = 1, producer = @p, consumer = @q,
                       consumer_ref = #ktunit.node<@ld[0]>, producer_ref = #ktunit.node<@dma[0]>}
  ktunit.channel @back {depth = 1, producer = @q, consumer = @p,
                        consumer_ref = #ktunit.node<@dma[0]>, producer_ref = #ktunit.node<@ld[0]>}
  ktunit.program @p unit "dma" instances [0] {
    ktunit.acquire @back consumer
    ktunit.acquire @fwd producer
    ktunit.release @fwd producer
    ktunit.release @back consumer
  }
  ktunit.program @q unit "ld" instances [0] {
    ktunit.acquire @fwd consumer
    ktunit.acquire @back producer
    ktunit.release @back producer
    ktunit.release @fwd consumer
  }
}
