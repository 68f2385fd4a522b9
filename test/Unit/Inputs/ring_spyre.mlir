// A DMA filling a three-slot ring that the load unit of corelet 0 drains,
// on two cores of `spyre`: one DMA program serves both cores, each naming
// its load unit through table column 0; the load units name their DMA the
// nearest way.
ktunit.bundle @ring device "spyre" {
  ktunit.channel @in {depth = 3, producer = @dma0, consumer = @ld0,
                      consumer_ref = #ktunit.node<@ld[t0]>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @dma0 unit "dma" instances [0, 1] table dense<[[0], [2]]> : tensor<2x1xi64> {
    ktunit.loop 5 {
      ktunit.acquire @in producer
      ktunit.copy #ktunit.addr<@lx + (d0 mod 3) * 2048>, #ktunit.addr<@lx + 8192> run 2048 dims [] [] []
      ktunit.release @in producer
    }
  }
  ktunit.program @ld0 unit "ld" instances [0, 2] {
    ktunit.loop 5 {
      ktunit.acquire @in consumer
      ktunit.release @in consumer
    }
  }
}
