// Every op becomes its device-code instruction with its operands as given:
// peers with their instance selectors, addresses with table columns and
// loop terms, register numbers from `phys`, the program's table as rows.
// RUN: ktflow-opt %s -ktunit-emit | FileCheck %s
// CHECK-LABEL: program @vec
// CHECK-NEXT: instances 0 2
// CHECK-NEXT: table 2
// CHECK-NEXT: row 5 64
// CHECK-NEXT: row 7 128
// CHECK-NEXT: credit 3, 2
// CHECK-NEXT: loop 4
// CHECK-NEXT: recv v1, f32, 16, @ld[t0]
// CHECK-NEXT: vload v0, f32, 16, @spad[1]+64+t1+i0*64
// CHECK-NEXT: max v2, v1, v0
// CHECK-NEXT: cmp.ge v3, v1, v0
// CHECK-NEXT: select v2, v3, v1, v0
// CHECK-NEXT: reduce.max v4, v2
// CHECK-NEXT: slide v5, v4
// CHECK-NEXT: ext v2, v1, v0, t1
// CHECK-NEXT: bcast v2, v4, 0, 16
// CHECK-NEXT: end
// CHECK-NEXT: cast v6, f16, v5
// CHECK-NEXT: vconst v5, f32, 16, 0.5
// CHECK-NEXT: concat v7, v5, v5
// CHECK-NEXT: slice v5, v7, 16, 16
// CHECK-NEXT: exp v5, v5
// CHECK-NEXT: vstore $X+t1, v6
// CHECK-NEXT: signal @st, 1
// CHECK-NEXT: wait 2, 1
ktunit.bundle @b device "sample" {
  ktunit.symbol @X : f16 [256] 512 bytes output
  ktunit.program @vec unit "vec" instances [0, 2] table dense<[[5, 64], [7, 128]]> : tensor<2x2xi64> {
    %a = ktunit.vreg {phys = 0} : !ktunit.vreg<16xf32>
    %r = ktunit.vreg {phys = 1} : !ktunit.vreg<16xf32>
    %m = ktunit.vreg {phys = 2} : !ktunit.vreg<16xf32>
    %k = ktunit.vreg {phys = 3} : !ktunit.vreg<16xf32>
    %s = ktunit.vreg {phys = 4} : !ktunit.vreg<1xf32>
    %col = ktunit.vreg {phys = 5} : !ktunit.vreg<16xf32>
    %h = ktunit.vreg {phys = 6} : !ktunit.vreg<16xf16>
    %w = ktunit.vreg {phys = 7} : !ktunit.vreg<32xf32>
    ktunit.credit sem 3, 2
    ktunit.loop 4 {
      ktunit.recv #ktunit.node<@ld[t0]> -> %r : !ktunit.vreg<16xf32>
      ktunit.vload #ktunit.addr<@spad[1] + 64 + t1 + d0 * 64> -> %a : !ktunit.vreg<16xf32>
      ktunit.compute "fold" {
        ktunit.max %m, %r, %a : !ktunit.vreg<16xf32>
        ktunit.cmp ge %k, %r, %a : !ktunit.vreg<16xf32>
        ktunit.select %m, %k, %r, %a : !ktunit.vreg<16xf32>
        ktunit.reduce max %s, %m : !ktunit.vreg<1xf32>, !ktunit.vreg<16xf32>
        ktunit.slide %col, %s : !ktunit.vreg<16xf32>, !ktunit.vreg<1xf32>
        ktunit.ext %m, %r, %a, column 1 : !ktunit.vreg<16xf32>
        ktunit.bcast %m, %s, 0 : !ktunit.vreg<16xf32>, !ktunit.vreg<1xf32>
      }
    }
    ktunit.cast %h, %col : !ktunit.vreg<16xf16>, !ktunit.vreg<16xf32>
    ktunit.vconst %col, 5.000000e-01 : !ktunit.vreg<16xf32>
    ktunit.concat %w, %col, %col : !ktunit.vreg<32xf32>, !ktunit.vreg<16xf32>, !ktunit.vreg<16xf32>
    ktunit.slice %col, %w, 16 : !ktunit.vreg<16xf32>, !ktunit.vreg<32xf32>
    ktunit.exp %col, %col : !ktunit.vreg<16xf32>
    ktunit.vstore #ktunit.addr<sym @X + t1>, %h : !ktunit.vreg<16xf16>
    ktunit.signal #ktunit.node<@st>, sem 1
    ktunit.wait sem 2, 1
  }
}
