// The twin of cycle.mlir: @p hands a @fwd slot on before it waits for
// @back, so the same channels complete.
// RUN: ktflow-opt %s -ktunit-check-deadlock=arch=sample | FileCheck %s
// CHECK: ktunit.program @p
ktunit.bundle @b device "sample" {
  ktunit.channel @fwd {depth = 1, producer = @p, consumer = @q,
                       consumer_ref = #ktunit.node<@ld[0]>, producer_ref = #ktunit.node<@dma[0]>}
  ktunit.channel @back {depth = 1, producer = @q, consumer = @p,
                        consumer_ref = #ktunit.node<@dma[0]>, producer_ref = #ktunit.node<@ld[0]>}
  ktunit.program @p unit "dma" instances [0] {
    ktunit.acquire @fwd producer
    ktunit.release @fwd producer
    ktunit.acquire @back consumer
    ktunit.release @back consumer
  }
  ktunit.program @q unit "ld" instances [0] {
    ktunit.acquire @fwd consumer
    ktunit.acquire @back producer
    ktunit.release @back producer
    ktunit.release @fwd consumer
  }
}
