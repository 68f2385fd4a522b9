// Negative twin: the compute stage's unit comes from the initial pipeline,
// a plan or an older schedule (here written by hand); path expansion routes
// only to a unit of the description that can run the body, on each
// description: a unit none of them has (sample), one of its own units that
// is not a compute unit (a DMA or a load unit), and spyre's matrix unit
// @pt, which has no neg.
// RUN: not ktflow-opt %s -ktsched-expand-paths=arch=sample 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: sed -e 's/"tensor_core"/"dma"/' %s | not ktflow-opt -ktsched-expand-paths=arch=sample 2>&1 | FileCheck %s --check-prefix=MOVER -DUNIT=dma
// RUN: sed -e 's/"tensor_core"/"ld"/' %s | not ktflow-opt -ktsched-expand-paths=arch=spyre 2>&1 | FileCheck %s --check-prefix=MOVER -DUNIT=ld
// RUN: sed -e 's/"tensor_core"/"tile_dma"/' %s | not ktflow-opt -ktsched-expand-paths=arch=deep 2>&1 | FileCheck %s --check-prefix=MOVER -DUNIT=tile_dma
// RUN: sed -e 's/"tensor_core"/"pt"/' %s | not ktflow-opt -ktsched-expand-paths=arch=spyre 2>&1 | FileCheck %s --check-prefix=MATRIX
// MISSING: [[@LINE+9]]:{{[0-9]+}}: error: compute stage is not bound to a compute unit of @sample (bound to @tensor_core)
// MOVER: [[@LINE+8]]:{{[0-9]+}}: error: compute stage is bound to @[[UNIT]], which cannot run this group (@[[UNIT]] is not a compute unit)
// MATRIX: [[@LINE+7]]:{{[0-9]+}}: error: compute stage is bound to @pt, which cannot run this group (@pt is a matrix unit)
ktsched.kernel @k attributes {grid = array<i64: 1, 1, 1>, num_args = 1 : i64} {
  ktsched.tensor @arg0 {arg = 0 : i64, element_type = f16, lower_corner = array<i64: 0>, offset = 0 : i64, shape = array<i64: 64>, strides = array<i64: 1>}
  ktsched.group @g0 attributes {element_type = f16, reduce_dims = array<i64>, space = array<i64: 64>} {
    ktsched.pipeline attributes {level = 0 : i64, moves = "vector"} {
      %0 = ktsched.stage "load" attributes {transfers = [{dims = array<i64: 0>, element_type = f16, origin = affine_map<(d0, d1, d2, d3) -> (0)>, shape = array<i64: 64>, tensor = @arg0}]} -> !ktsched.channel
      %1 = ktsched.fifo %0
      %2 = ktsched.stage "compute"(%1) attributes {unit = #ktsched.decision<"tensor_core", "plan">, vector = #ktsched.decision<32 : i64, "heuristic">} -> !ktsched.channel {
      ^bb0(%a: f16):
        %n = ktsched.vop "neg"(%a) : (f16) -> f16
        ktsched.yield %n : f16
      }
      %3 = ktsched.fifo %2
      ktsched.stage "store"(%3) attributes {transfers = [{dims = array<i64: 0>, element_type = f16, origin = affine_map<(d0, d1, d2, d3) -> (0)>, shape = array<i64: 64>, tensor = @arg0}]}
    }
  }
}
