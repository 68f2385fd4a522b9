// A reduction whose per-row result later ops read back along its rows makes
// a group of phases: softmax (example 08) reduces the max in phase 1, the
// sum of exp(x - max) in phase 2, and stores its rows in phase 3; the
// store runs along every dimension of the space. Layernorm (example 09)
// reaches its reductions through tensor.extract and tensor.splat.
// RUN: ktflow-opt %examples/ktir/08_row_softmax.mlir %to_groups | FileCheck %s --check-prefix=SOFTMAX
// RUN: ktflow-opt %examples/ktir/09_layernorm_rows.mlir %to_groups | FileCheck %s --check-prefix=LAYERNORM
// SOFTMAX: ktsched.group @g0 attributes {element_type = f16, phases = 3 : i64, reduce_dims = array<i64: 1>, space = array<i64: 8, 128>}
// SOFTMAX: ktsched.vop "reduce"({{.*}}) {combiner = "max", dim = 1 : i64, phase = 1 : i64}
// SOFTMAX: ktsched.vop "reduce"({{.*}}) {combiner = "add", dim = 1 : i64, phase = 2 : i64}
// SOFTMAX: ktsched.store {{.*}} to @arg1 {dims = array<i64: 0, 1>
// LAYERNORM: ktsched.group @g0 attributes {element_type = f32, loop = {{.*}}, phases = 3 : i64, reduce_dims = array<i64: 1>, space = array<i64: 1, 256>}
// LAYERNORM: ktsched.vop "reduce"({{.*}}) {combiner = "add", dim = 1 : i64, phase = 1 : i64}
// LAYERNORM: ktsched.vop "reduce"({{.*}}) {combiner = "add", dim = 1 : i64, phase = 2 : i64}
// LAYERNORM: ktsched.vop "rsqrt"
// Negative twin: reductions whose results are only stored (example 04)
// form groups of one phase, without the attribute.
// RUN: ktflow-opt %examples/ktir/04_row_sum_and_max.mlir %to_groups | FileCheck %s --check-prefix=ONE
// ONE: ktsched.group @g0 attributes {element_type = f16, reduce_dims = array<i64: 1>
// ONE-NOT: phase
