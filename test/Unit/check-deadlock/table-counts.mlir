// A loop whose trip count is a table column (a launch-table entry) runs its
// instance's count: the DMA instances fill 3 and 0 slots, their load units
// drain as many, so the skeleton completes (the per-program balance, which
// cannot count per instance, is left to this execution). Negative twin: a
// load unit whose count says 1 where its DMA's says 0 waits forever.
// RUN: ktflow-opt %s -ktunit-check-deadlock=arch=sample | FileCheck %s
// RUN: sed 's/\[\[3, 0\], \[0, 1\]\]/[[3, 0], [1, 1]]/' %s | not ktflow-opt -ktunit-check-deadlock=arch=sample 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// CHECK: ktunit.bundle
// DEADLOCK: error: deadlock: 1 instance(s) wait forever
ktunit.bundle @b device "sample" {
  ktunit.channel @c {depth = 2, producer = @p, consumer = @q,
                     consumer_ref = #ktunit.node<@ld[t1]>, producer_ref = #ktunit.node<@dma[t1]>}
  ktunit.program @p unit "dma" instances [0, 1] table dense<[[3, 0], [0, 2]]> : tensor<2x2xi64> {
    ktunit.loop 3 attributes {count_column = 0 : i64} {
      ktunit.acquire @c producer
      ktunit.release @c producer
    }
  }
  ktunit.program @q unit "ld" instances [0, 2] table dense<[[3, 0], [0, 1]]> : tensor<2x2xi64> {
    ktunit.loop 3 attributes {count_column = 0 : i64} {
      ktunit.acquire @c consumer
      ktunit.release @c consumer
    }
  }
}
