// A loop term is counted over its loop's trip count, bounded by its
// modulus: a million pushes rotating over two 64-byte slots stay within
// the scratchpad on every description; the BEYOND twin steps through the
// same loop without the modulus and runs 64 MB past its end.
// RUN: ktflow-opt %s -ktunit-check-capacity=arch=sample | FileCheck %s
// RUN: sed 's/@spad/@lx/' %s | ktflow-opt -ktunit-check-capacity=arch=spyre | FileCheck %s
// RUN: sed 's/@spad/@l1/; s/unit "ld"/unit "vpu"/' %s | ktflow-opt -ktunit-check-capacity=arch=deep | FileCheck %s
// RUN: sed 's/(d0 mod 2)/d0/' %s | not ktflow-opt -ktunit-check-capacity=arch=sample 2>&1 | FileCheck %s --check-prefix=BEYOND
// CHECK: ktunit.program @p
// BEYOND: error: program @p touches bytes [0, 64000000) of @spad (table row 0), outside its usable 253952 bytes
ktunit.bundle @b device "any" {
  ktunit.program @p unit "ld" instances [0] {
    %r = ktunit.vreg : !ktunit.vreg<32xf16>
    ktunit.loop 1000000 {
      ktunit.vload #ktunit.addr<@spad + (d0 mod 2) * 64> -> %r : !ktunit.vreg<32xf16>
    }
  }
}
