// Addresses, peers, tables, channels and register types print in the
// syntax they are parsed from, and the printed form parses again to the
// same IR.
// RUN: ktflow-opt %s | ktflow-opt | FileCheck %s
// CHECK: ktunit.symbol @A : f16 [16, 16] 512 bytes input output
// CHECK: ktunit.channel @c {consumer = @q, consumer_ref = #ktunit.node<@ld[t1]>, depth = 3 : i64, producer = @p, producer_ref = #ktunit.node<@dma>}
// CHECK: ktunit.program @p unit "dma" instances [0, 1] table dense<{{\[\[}}0, 2], [512, 3]]> : tensor<2x2xi64>
// CHECK: ktunit.copy #ktunit.addr<@spad[t1] - 64 + t0 + (d0 mod 2) * 4096 + d0 * -64>, #ktunit.addr<sym @A + t0> run 64 dims [2] [128] [64]
// CHECK: ktunit.release @c producer count 2
// CHECK: ktunit.acquire @c consumer
// CHECK: %[[R:.*]] = ktunit.vreg {phys = 3 : i64} : !ktunit.vreg<64xbf16>
// CHECK: ktunit.recv #ktunit.node<@dma[1]> -> %[[R]] : !ktunit.vreg<64xbf16>
ktunit.bundle @b device "sample" {
  ktunit.symbol @A : f16 [16, 16] 512 bytes input output
  ktunit.channel @c {depth = 3, producer = @p, consumer = @q,
                     consumer_ref = #ktunit.node<@ld[t1]>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @p unit "dma" instances [0, 1] table dense<[[0, 2], [512, 3]]> : tensor<2x2xi64> {
    ktunit.loop 2 {
      ktunit.copy #ktunit.addr<@spad[t1] - 64 + t0 + (d0 mod 2) * 4096 + d0 * -64>, #ktunit.addr<sym @A + t0> run 64 dims [2] [128] [64]
    }
    ktunit.release @c producer count 2
  }
  ktunit.program @q unit "ld" {
    ktunit.acquire @c consumer
    %r = ktunit.vreg {phys = 3} : !ktunit.vreg<64xbf16>
    ktunit.recv #ktunit.node<@dma[1]> -> %r : !ktunit.vreg<64xbf16>
  }
}
