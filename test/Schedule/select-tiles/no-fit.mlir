// Negative twin: a reduced dimension is never cut, so a row that alone
// overflows the budget has no tile; the sizes are reported per memory of
// the description (spyre's budget is half of LX's usable 1622016 bytes;
// deep's L2 and L1 both overflow). (Run without buffering, which would
// reject the same kernel earlier.)
// RUN: not ktflow-opt %S/../Inputs/wide_reduce.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_nest -ktsched-split -ktsched-select-tiles 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not ktflow-opt %S/../Inputs/wide_reduce.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_nest -ktsched-split -ktsched-select-tiles 2>&1 | FileCheck %s --check-prefix=SPYRE
// RUN: not ktflow-opt %S/../Inputs/wide_reduce.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_nest -ktsched-split -ktsched-select-tiles 2>&1 | FileCheck %s --check-prefix=DEEP
// SAMPLE: error: no tile of group @g0 fits the scratchpad budget; smallest tile 1x262144: @spad: need 1048640 bytes, budget 126976;
// SPYRE: error: no tile of group @g0 fits the scratchpad budget; smallest tile 1x262144: @lx: need 1048704 bytes, budget 811008;
// DEEP: error: no tile of group @g0 fits the scratchpad budget; smallest tile 1x262144: @l2: need 1048608 bytes, budget 1032192; @l1: need 1048640 bytes, budget 196608;
