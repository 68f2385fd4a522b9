// Negative twin: a replayed plan whose tile does not fit gets a diagnostic
// with the sizes involved, from allocation.
// RUN: not ktflow compile %S/../Inputs/big_rows.mlir --arch sample --plan %S/../Inputs/big_rows_too_big.json 2>&1 | FileCheck %s --check-prefix=SAMPLE
// RUN: not ktflow compile %S/../Inputs/big_rows.mlir --arch spyre --plan %S/../Inputs/big_rows_too_big.json 2>&1 | FileCheck %s --check-prefix=SPYRE
// RUN: not ktflow compile %S/../Inputs/big_rows.mlir --arch deep --plan %S/../Inputs/big_rows_too_big.json 2>&1 | FileCheck %s --check-prefix=DEEP
// SAMPLE: error: group @g0 does not fit @spad: 8388608 bytes of buffers per sub-core x 2 sub-cores = 16777216 bytes, but only 253952 of 262144 bytes are usable (8192 reserved)
// SPYRE: error: group @g0 does not fit @lx: 8388608 bytes of buffers per sub-core x 2 sub-cores = 16777216 bytes, but only 1622016 of 2097152 bytes are usable (475136 reserved)
// DEEP: error: group @g0 does not fit @{{l1|l2}}: 8388608 bytes of buffers per sub-core
