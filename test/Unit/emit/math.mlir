// The math ops are one device-code instruction each: sqrt, rsqrt, log,
// tanh and erf unary, pow binary, fma ternary (lhs * rhs + addend), the
// written register first, as for every vector op.
// RUN: ktflow-opt %s -ktunit-emit | FileCheck %s
// CHECK-LABEL: program @vec
// CHECK-NEXT: instances 0
// CHECK-NEXT: recv v0, f32, 16, @ld
// CHECK-NEXT: recv v1, f32, 16, @ld
// CHECK-NEXT: sqrt v2, v0
// CHECK-NEXT: rsqrt v2, v2
// CHECK-NEXT: log v2, v2
// CHECK-NEXT: tanh v2, v2
// CHECK-NEXT: erf v2, v2
// CHECK-NEXT: pow v2, v0, v2
// CHECK-NEXT: fma v2, v0, v1, v2
// CHECK-NEXT: send @st, v2
ktunit.bundle @b device "sample" {
  ktunit.program @vec unit "vec" instances [0] {
    %x = ktunit.vreg {phys = 0} : !ktunit.vreg<16xf32>
    %y = ktunit.vreg {phys = 1} : !ktunit.vreg<16xf32>
    %r = ktunit.vreg {phys = 2} : !ktunit.vreg<16xf32>
    ktunit.recv #ktunit.node<@ld> -> %x : !ktunit.vreg<16xf32>
    ktunit.recv #ktunit.node<@ld> -> %y : !ktunit.vreg<16xf32>
    ktunit.compute "math" {
      ktunit.sqrt %r, %x : !ktunit.vreg<16xf32>
      ktunit.rsqrt %r, %r : !ktunit.vreg<16xf32>
      ktunit.log %r, %r : !ktunit.vreg<16xf32>
      ktunit.tanh %r, %r : !ktunit.vreg<16xf32>
      ktunit.erf %r, %r : !ktunit.vreg<16xf32>
      ktunit.pow %r, %x, %r : !ktunit.vreg<16xf32>
      ktunit.fma %r, %x, %y, %r : !ktunit.vreg<16xf32>
    }
    ktunit.send #ktunit.node<@st>, %r : !ktunit.vreg<16xf32>
  }
}
