// The verifiers: each rule emission relies on, with the op it is about.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

ktunit.bundle @b device "sample" {
  // expected-error @+1 {{is 100 bytes but its shape holds 512}}
  ktunit.symbol @A : f16 [256] 100 bytes input
}

// -----

ktunit.bundle @b device "sample" {
  // expected-error @+1 {{names consumer @nothing, which is not a program}}
  ktunit.channel @c {depth = 1, producer = @p, consumer = @nothing,
                     consumer_ref = #ktunit.node<@ld>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @p unit "dma" {
  }
}

// -----

ktunit.bundle @b device "sample" {
  // expected-error @+1 {{refers to its consumer as a node @st, but @q runs on @ld}}
  ktunit.channel @c {depth = 1, producer = @p, consumer = @q,
                     consumer_ref = #ktunit.node<@st>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @p unit "dma" {
  }
  ktunit.program @q unit "ld" {
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.channel @c {depth = 1, producer = @p, consumer = @q,
                     consumer_ref = #ktunit.node<@ld>, producer_ref = #ktunit.node<@dma>}
  ktunit.program @p unit "dma" {
  }
  ktunit.program @q unit "ld" {
    // expected-error @+1 {{uses the producer side of @c, but that side is @p, not @q}}
    ktunit.acquire @c producer
  }
}

// -----

ktunit.bundle @b device "sample" {
  // expected-error @+1 {{table has 1 row(s) for 2 instance(s)}}
  ktunit.program @p unit "dma" instances [0, 1] table dense<[[0]]> : tensor<1x1xi64> {
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @p unit "ld" {
    ktunit.loop 2 {
      // expected-error @+1 {{source uses loop index d1 but 1 loop(s) enclose the op}}
      ktunit.push #ktunit.node<@vec>, #ktunit.addr<@spad + d1 * 64>, 64
    }
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @p unit "vec" {
    %a = ktunit.vreg : !ktunit.vreg<32xf16>
    %b = ktunit.vreg : !ktunit.vreg<16xf16>
    // expected-error @+1 {{takes lanes 8..40 of a 16-element register}}
    ktunit.slice %a, %b, 8 : !ktunit.vreg<32xf16>, !ktunit.vreg<16xf16>
  }
}

// -----

// expected-error @+1 {{registers hold f16, bf16, f32, i8, i32 or i64, not 'i16'}}
func.func private @f(!ktunit.vreg<4xi16>)

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @p unit "vec" {
    %a = ktunit.vreg : !ktunit.vreg<16xf32>
    %h = ktunit.vreg : !ktunit.vreg<16xf16>
    // expected-error @+1 {{all of {dst, lhs, rhs, addend} have same type}}
    "ktunit.fma"(%a, %a, %a, %h) : (!ktunit.vreg<16xf32>, !ktunit.vreg<16xf32>, !ktunit.vreg<16xf32>, !ktunit.vreg<16xf16>) -> ()
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @p unit "mxu" {
    %d = ktunit.vreg : !ktunit.vreg<16xf32>
    %a = ktunit.vreg : !ktunit.vreg<32xf16>
    %b = ktunit.vreg : !ktunit.vreg<32xf16>
    // expected-error @+1 {{accumulator of 16 elements is not M x N = 8 x 8}}
    ktunit.mma %d, %a, %b, 4 : !ktunit.vreg<16xf32>, !ktunit.vreg<32xf16>, !ktunit.vreg<32xf16>
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @p unit "mxu" {
    %d = ktunit.vreg : !ktunit.vreg<16xf32>
    %a = ktunit.vreg : !ktunit.vreg<32xf16>
    %b = ktunit.vreg : !ktunit.vreg<32xf16>
    // expected-error @+1 {{depth 5 does not divide the operands' 32 and 32 elements}}
    ktunit.mma %d, %a, %b, 5 : !ktunit.vreg<16xf32>, !ktunit.vreg<32xf16>, !ktunit.vreg<32xf16>
  }
}
