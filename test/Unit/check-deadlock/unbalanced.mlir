// Per channel the producer's releases must match the consumer's acquires,
// counted through loops: 4 x 2 released against 7 acquired. (The balanced
// pipelines are in completes.mlir.)
// RUN: not ktflow-opt %s -ktunit-check-deadlock=arch=sample 2>&1 | FileCheck %s
// CHECK: error: channel @c: producer @p releases 8 full slot(s) per instance but consumer @q acquires 7
ktunit.bundle @b device "sample" {
  ktunit.channel @c {depth = 2, producer = @p, consumer = @q,
                     consumer_ref = #ktunit.node<@ld[0]>, producer_ref = #ktunit.node<@dma[0]>}
  ktunit.program @p unit "dma" instances [0] {
    ktunit.loop 4 {
      ktunit.acquire @c producer count 2
      ktunit.release @c producer count 2
    }
  }
  ktunit.program @q unit "ld" instances [0] {
    ktunit.loop 7 {
      ktunit.acquire @c consumer
      ktunit.release @c consumer
    }
  }
}
