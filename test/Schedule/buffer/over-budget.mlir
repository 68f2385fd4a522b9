// Negative twin: a depth at which even the smallest tile's buffers (one
// vector of each of relu_rows' 4 buffers) overflow a memory's per-sub-core
// budget is reported with the sizes, and the budget is the description's:
// depth 1000 needs 1000 x 4 x 64 bytes on sample (32 f16 lanes) and deep,
// more than sample's 126976 bytes per sub-core (253952 usable, shared by 2)
// and deep's 196608 bytes of L1; on spyre (64 lanes, 128-byte vectors) it
// needs 512000 bytes of its 811008 and fits, and depth 2000 does not.
// A depth of 0 is refused before any description is read.
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest -ktsched-buffer=depth=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest -ktsched-buffer=depth=1000 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_nest -ktsched-buffer=depth=1000 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_nest -ktsched-buffer=depth=1000 | FileCheck %s --check-prefix=SPYRE-FITS
// RUN: not ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_nest -ktsched-buffer=depth=2000 2>&1 | FileCheck %s --check-prefix=SPYRE
// ZERO: error: buffer depth must be at least 1, got 0
// SAMPLE: relu_rows.mlir:27:5: error: buffers of group @g0 at depth 1000 need at least 256000 bytes of @spad per sub-core, but only 126976 bytes are available (253952 usable, shared by 2 sub-cores)
// DEEP: relu_rows.mlir:27:5: error: buffers of group @g0 at depth 1000 need at least 256000 bytes of @l1 per sub-core, but only 196608 bytes are available (196608 usable, shared by 1 sub-cores)
// SPYRE-FITS-COUNT-4: ktsched.buffer {{.*}}depth = #ktsched.decision<1000 : i64, "heuristic">
// SPYRE-FITS-NOT: ktsched.buffer
// SPYRE: relu_rows.mlir:27:5: error: buffers of group @g0 at depth 2000 need at least 1024000 bytes of @lx per sub-core, but only 811008 bytes are available (1622016 usable, shared by 2 sub-cores)
