// A group of phases reads its tile's rows once per phase: the buffers its
// load unit (sample, spyre) or its compute unit (deep, which reads L1
// directly) drains get `phase_residency = resident`, the slot filled once
// and read by every phase.
// RUN: ktflow-opt %examples/ktir/08_row_softmax.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=SAMPLE
// RUN: ktflow-opt %examples/ktir/08_row_softmax.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=DEEP
// SAMPLE: ktsched.buffer {{.*}}phase_residency = #ktsched.decision<"resident", "heuristic">{{.*}}tensor = @arg0
// SAMPLE-NOT: phase_residency
// DEEP: ktsched.buffer {{.*}}memory = "l2"
// DEEP-NOT: phase_residency
// DEEP: ktsched.buffer {{.*}}memory = "l1", phase_residency = #ktsched.decision<"resident", "heuristic">, tensor = @arg0
// DEEP-NOT: phase_residency
// Negative twin: a group of one phase (example 04's reductions) reads its
// rows once and gets no such decision.
// RUN: ktflow-opt %examples/ktir/04_row_sum_and_max.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=ONE
// ONE: ktsched.buffer
// ONE-NOT: phase_residency
