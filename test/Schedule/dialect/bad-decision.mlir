// Negative twin: a decision must say where it came from, and only
// heuristic, plan and costmodel are sources.
// RUN: ktflow-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{decision source must be heuristic, plan or costmodel, got 'guess'}}
ktsched.kernel @k attributes {grid = array<i64: 1, 1, 1>, num_args = 0 : i64, core_of_tile = #ktsched.decision<"linear", "guess">} {
}
