// Negative twin: a compute stage bound to a unit the description lacks
// (here written by hand, as a plan or an older schedule could) cannot be
// routed.
// RUN: not ktflow-opt %s -ktsched-expand-paths=arch=sample 2>&1 | FileCheck %s
// CHECK: [[@LINE+7]]:{{[0-9]+}}: error: compute stage is not bound to a compute unit of @sample
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
