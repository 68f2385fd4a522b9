// Nesting takes no description (no arch option): it reads only the
// `level` that path expansion put on every stage, buffer and FIFO, so the
// description reaches it through its input (levels.mlir runs the three).
// Negative twin: nesting needs the expanded pipeline; a group still made
// of loads, a compute body and stores is reported, and so is the initial
// pipeline, whose logical stages carry no level (it would otherwise pass
// as one flat level). One description suffices for the latter: the check
// reads no description.
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-nest 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep -ktsched-nest 2>&1 | FileCheck %s --check-prefix=INITIAL
// GROUPS: relu_rows.mlir:27:5: error: expected an expanded pipeline{{$}}
// INITIAL: relu_rows.mlir:27:5: error: expected an expanded pipeline (run -ktsched-expand-paths first)
