// A value that crosses a loop's back-edge is live over the whole loop.
// In @carried the accumulator %acc is read first in each iteration (it
// carries over), so %t, written after %acc's last use in the iteration,
// still cannot take %acc's register. In the @fresh twin %acc is written
// first, its value dies within the iteration, and %t reuses its register.
// RUN: ktflow-opt %s -split-input-file -ktunit-allocate-registers=arch=sample | FileCheck %s
// CHECK-LABEL: ktunit.program @carried
// CHECK-NEXT: ktunit.vreg {phys = 1 : i64}
// CHECK-NEXT: ktunit.vreg {phys = 0 : i64}
// CHECK-NEXT: ktunit.vreg {phys = 2 : i64}
// CHECK-LABEL: ktunit.program @fresh
// CHECK-NEXT: ktunit.vreg {phys = 1 : i64}
// CHECK-NEXT: ktunit.vreg {phys = 0 : i64}
// CHECK-NEXT: ktunit.vreg {phys = 1 : i64}
ktunit.bundle @b device "sample" {
  ktunit.program @carried unit "vec" instances [0] {
    %acc = ktunit.vreg : !ktunit.vreg<16xf32>
    %x = ktunit.vreg : !ktunit.vreg<16xf32>
    %t = ktunit.vreg : !ktunit.vreg<16xf32>
    ktunit.loop 4 {
      ktunit.recv #ktunit.node<@ld> -> %x : !ktunit.vreg<16xf32>
      ktunit.add %acc, %acc, %x : !ktunit.vreg<16xf32>
      ktunit.send #ktunit.node<@st>, %acc : !ktunit.vreg<16xf32>
      ktunit.recv #ktunit.node<@ld> -> %t : !ktunit.vreg<16xf32>
      ktunit.add %t, %t, %x : !ktunit.vreg<16xf32>
      ktunit.send #ktunit.node<@st>, %t : !ktunit.vreg<16xf32>
    }
  }
}

// -----

ktunit.bundle @b device "sample" {
  ktunit.program @fresh unit "vec" instances [0] {
    %acc = ktunit.vreg : !ktunit.vreg<16xf32>
    %x = ktunit.vreg : !ktunit.vreg<16xf32>
    %t = ktunit.vreg : !ktunit.vreg<16xf32>
    ktunit.loop 4 {
      ktunit.recv #ktunit.node<@ld> -> %x : !ktunit.vreg<16xf32>
      ktunit.mov %acc, %x : !ktunit.vreg<16xf32>
      ktunit.send #ktunit.node<@st>, %acc : !ktunit.vreg<16xf32>
      ktunit.recv #ktunit.node<@ld> -> %t : !ktunit.vreg<16xf32>
      ktunit.add %t, %t, %x : !ktunit.vreg<16xf32>
      ktunit.send #ktunit.node<@st>, %t : !ktunit.vreg<16xf32>
    }
  }
}
