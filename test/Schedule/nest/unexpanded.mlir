// Negative twin: nesting needs the expanded pipeline; a group still made of
// loads, a compute body and stores is reported.
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-nest 2>&1 | FileCheck %s
// CHECK: error: expected an expanded pipeline
