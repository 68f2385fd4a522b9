// C = A + B (1024 f16 each) on one sub-core of `sample`, in four tiles of
// 512 bytes: the DMA loads tiles into a two-slot ring (@in), the load unit
// pushes vectors to the vector unit, which adds them and sends them to the
// store unit, which pops them into a two-slot ring (@out) the DMA stores
// from. The DMA loads tile k+1 before storing tile k: the first load and
// the last store are peeled, so tile d0+1's slot is 1024 - (d0 mod 2)*1024.
ktunit.bundle @add device "sample" {
  ktunit.symbol @A : f16 [1024] 2048 bytes input
  ktunit.symbol @B : f16 [1024] 2048 bytes input
  ktunit.symbol @C : f16 [1024] 2048 bytes output
  ktunit.channel @in {depth = 2, producer = @dma0, consumer = @ld0,
                      consumer_ref = #ktunit.node<@ld[0]>, producer_ref = #ktunit.node<@dma[0]>}
  ktunit.channel @out {depth = 2, producer = @st0, consumer = @dma0,
                       consumer_ref = #ktunit.node<@dma[0]>, producer_ref = #ktunit.node<@st[0]>}

  ktunit.program @dma0 unit "dma" instances [0] {
    ktunit.acquire @in producer
    ktunit.copy #ktunit.addr<@spad>, #ktunit.addr<sym @A> run 512 dims [] [] []
    ktunit.copy #ktunit.addr<@spad + 512>, #ktunit.addr<sym @B> run 512 dims [] [] []
    ktunit.release @in producer
    ktunit.loop 3 {
      ktunit.acquire @in producer
      ktunit.copy #ktunit.addr<@spad + 1024 + (d0 mod 2) * -1024>, #ktunit.addr<sym @A + 512 + d0 * 512> run 512 dims [] [] []
      ktunit.copy #ktunit.addr<@spad + 1536 + (d0 mod 2) * -1024>, #ktunit.addr<sym @B + 512 + d0 * 512> run 512 dims [] [] []
      ktunit.release @in producer
      ktunit.acquire @out consumer
      ktunit.copy #ktunit.addr<sym @C + d0 * 512>, #ktunit.addr<@spad + 2048 + (d0 mod 2) * 512> run 512 dims [] [] []
      ktunit.release @out consumer
    }
    ktunit.acquire @out consumer
    ktunit.copy #ktunit.addr<sym @C + 1536>, #ktunit.addr<@spad + 2560> run 512 dims [] [] []
    ktunit.release @out consumer
  }

  ktunit.program @ld0 unit "ld" instances [0] {
    ktunit.loop 4 {
      ktunit.acquire @in consumer
      ktunit.loop 8 {
        ktunit.push #ktunit.node<@vec>, #ktunit.addr<@spad + (d0 mod 2) * 1024 + d1 * 64>, 64
        ktunit.push #ktunit.node<@vec>, #ktunit.addr<@spad + 512 + (d0 mod 2) * 1024 + d1 * 64>, 64
      }
      ktunit.release @in consumer
    }
  }

  ktunit.program @vec0 unit "vec" instances [0] {
    %a = ktunit.vreg : !ktunit.vreg<32xf16>
    %b = ktunit.vreg : !ktunit.vreg<32xf16>
    %c = ktunit.vreg : !ktunit.vreg<32xf16>
    ktunit.loop 32 {
      ktunit.recv #ktunit.node<@ld> -> %a : !ktunit.vreg<32xf16>
      ktunit.recv #ktunit.node<@ld> -> %b : !ktunit.vreg<32xf16>
      ktunit.compute {
        ktunit.add %c, %a, %b : !ktunit.vreg<32xf16>
      }
      ktunit.send #ktunit.node<@st>, %c : !ktunit.vreg<32xf16>
    }
  }

  ktunit.program @st0 unit "st" instances [0] {
    ktunit.loop 4 {
      ktunit.acquire @out producer
      ktunit.loop 8 {
        ktunit.pop #ktunit.node<@vec>, #ktunit.addr<@spad + 2048 + (d0 mod 2) * 512 + d1 * 64>, 64
      }
      ktunit.release @out producer
    }
  }
}
