// `deep`'s outer DMA filling a two-slot ring in L2 per tile that each
// tile's DMA drains into its L1: the outer DMA names the tile DMA through
// table column 0 (one row, it runs once), the tile DMAs name it as the
// nearest @l2_dma.
ktunit.bundle @ring device "deep" {
  ktunit.channel @l2 {depth = 2, producer = @outer, consumer = @inner,
                      consumer_ref = #ktunit.node<@tile_dma[t0]>, producer_ref = #ktunit.node<@l2_dma>}
  ktunit.program @outer unit "l2_dma" table dense<[[3]]> : tensor<1x1xi64> {
    ktunit.loop 4 {
      ktunit.acquire @l2 producer
      ktunit.release @l2 producer
    }
  }
  ktunit.program @inner unit "tile_dma" instances [3] {
    ktunit.loop 4 {
      ktunit.acquire @l2 consumer
      ktunit.copy #ktunit.addr<@l1 + (d0 mod 2) * 1024>, #ktunit.addr<@l2 + (d0 mod 2) * 1024> run 1024 dims [] [] []
      ktunit.release @l2 consumer
    }
  }
}
