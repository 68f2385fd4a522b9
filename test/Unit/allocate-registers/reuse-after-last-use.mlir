// A register is handed out again once its value's last use has passed:
// %b is written after %a's last read, so it gets %a's register; %c is
// written while %a is still read and gets another. The same program on
// each description's vector unit.
// RUN: ktflow-opt %s -ktunit-allocate-registers=arch=sample | FileCheck %s
// RUN: sed 's/unit "vec"/unit "sfp"/' %s | ktflow-opt -ktunit-allocate-registers=arch=spyre | FileCheck %s
// RUN: sed 's/unit "vec"/unit "vpu"/' %s | ktflow-opt -ktunit-allocate-registers=arch=deep | FileCheck %s
// CHECK: %[[A:.*]] = ktunit.vreg {phys = 0 : i64}
// CHECK-NEXT: %[[B:.*]] = ktunit.vreg {phys = 0 : i64}
// CHECK-NEXT: %[[C:.*]] = ktunit.vreg {phys = 1 : i64}
ktunit.bundle @b device "any" {
  ktunit.program @p unit "vec" instances [0] {
    %a = ktunit.vreg : !ktunit.vreg<16xf32>
    %b = ktunit.vreg : !ktunit.vreg<16xf32>
    %c = ktunit.vreg : !ktunit.vreg<16xf32>
    ktunit.vconst %a, 1.0 : !ktunit.vreg<16xf32>
    ktunit.vconst %c, 2.0 : !ktunit.vreg<16xf32>
    ktunit.add %c, %a, %c : !ktunit.vreg<16xf32>
    ktunit.vconst %b, 3.0 : !ktunit.vreg<16xf32>
    ktunit.add %b, %b, %c : !ktunit.vreg<16xf32>
  }
}
