// A fence (a DMA's later transfer reads what an earlier one of the same
// program wrote) becomes a signal to the instance itself, delivered once
// its writes have landed, and a wait for it; every fence of a program
// shares one semaphore, above those the program's channels use. The
// gather keeps its index address, index type and bound, and emits as the
// device's `gather`.
// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s --check-prefix=ROUND
// RUN: ktflow-opt %s -ktunit-insert-sync=arch=sample | FileCheck %s
// RUN: ktflow-opt %s -ktunit-insert-sync=arch=sample -ktunit-emit | FileCheck %s --check-prefix=ASM
// ROUND: ktunit.fence #ktunit.node<@dma[t2]>
// ROUND: ktunit.gather #ktunit.addr<@spad + 128>, #ktunit.addr<sym @T + t1> run 64 dims [8] [64] [64] index #ktunit.addr<@spad + t0> type i32 bound 64
// CHECK-LABEL: ktunit.program @dma
// CHECK: ktunit.copy
// CHECK-NEXT: ktunit.signal #ktunit.node<@dma[t2]>, sem 0
// CHECK-NEXT: ktunit.wait sem 0, 1
// CHECK-NEXT: ktunit.gather
// CHECK-NEXT: ktunit.signal #ktunit.node<@dma[t2]>, sem 0
// CHECK-NEXT: ktunit.wait sem 0, 1
// CHECK-NOT: ktunit.fence
// ASM: gather @spad+128, $T+t1, run 64, dim 8 64 64, index @spad+t0, i32, bound 64
// ASM-NEXT: signal @dma[t2], 0
// ASM-NEXT: wait 0, 1
ktunit.bundle @b device "sample" {
  ktunit.symbol @T : f16 [64, 32] 4096 bytes input
  ktunit.symbol @I : i32 [16] 64 bytes input
  ktunit.symbol @O : f16 [8, 32] 512 bytes output
  ktunit.program @dma unit "dma" instances [0, 1] table dense<[[0, 0, 0], [32, 2048, 1]]> : tensor<2x3xi64> {
    ktunit.copy #ktunit.addr<@spad>, #ktunit.addr<sym @I> run 64 dims [] [] []
    ktunit.fence #ktunit.node<@dma[t2]>
    ktunit.gather #ktunit.addr<@spad + 128>, #ktunit.addr<sym @T + t1> run 64 dims [8] [64] [64] index #ktunit.addr<@spad + t0> type i32 bound 64
    ktunit.fence #ktunit.node<@dma[t2]>
    ktunit.copy #ktunit.addr<sym @O>, #ktunit.addr<@spad + 128> run 512 dims [] [] []
  }
}
