// Negative twin: a depth of 0 is refused; a depth at which even the
// smallest tile's buffers overflow the scratchpad budget is reported with
// the sizes (sample: 253952 usable bytes shared by 2 sub-cores).
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest -ktsched-buffer=depth=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest -ktsched-buffer=depth=1000 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_nest -ktsched-buffer=depth=1000 2>&1 | FileCheck %s --check-prefix=DEEP
// ZERO: error: buffer depth must be at least 1, got 0
// SAMPLE: error: buffers of group @g0 at depth 1000 need at least 256000 bytes of @spad per sub-core, but only 126976 bytes are available (253952 usable, shared by 2 sub-cores)
// DEEP: error: buffers of group @g0 at depth 1000 need at least {{[0-9]+}} bytes of @{{l1|l2}} per sub-core
