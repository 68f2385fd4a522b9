// A group of phases whose row's per-phase results fit the compute unit's
// registers keeps them there (`phase_values = registers`): on spyre a row
// of 1024 f16 is 16 vectors, and softmax's carried exp(x - max) of each
// with the temporaries and per-row values needs fewer than @sfp's 32.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x1024.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=FITS
// FITS: ktsched.group {{.*}}phase_values = #ktsched.decision<"registers", "heuristic">
// A row of 2048 (32 vectors) does not fit them: its exp(x - max) goes
// through a scratchpad slot instead (`scratchpad`), as its transfers (2
// slices and sends out, a concat back: 6 issue cycles a vector) cost @sfp
// less than the cast, sub and exp they save (12). The slot holds one row
// of it in f32 (8192 bytes) after the buffers (2 x 8192 in, 2 x 8192 out);
// of the carried values only the exp (body op 5) is worth it: the cast is
// cheaper to redo.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x2048.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=LONG
// LONG: ktsched.group {{.*}}phase_scratch_address = #ktsched.decision<32768 : i64, "heuristic">, phase_scratch_bytes = 8192 : i64, phase_scratch_values = array<i64: 5>, phase_values = #ktsched.decision<"scratchpad", "heuristic">
// LONG: instance_stride = 40960
// Negative twins: layernorm's carried x - mean costs a cast and a sub to
// recompute (4 cycles), less than its transfers: each phase recomputes.
// RUN: ktflow-opt %S/../../Run/Inputs/layernorm_rows_8x2048.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=CHEAP
// CHEAP: ktsched.group {{.*}}phase_values = #ktsched.decision<"recompute", "heuristic">
// CHEAP-NOT: phase_scratch
// On deep the compute unit reads its L1 slots itself: there is no load
// unit to read a slot back, so softmax's long row recomputes there.
// RUN: ktflow-opt %S/../../Run/Inputs/softmax_rows_8x2048.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=DEEP
// DEEP: ktsched.group {{.*}}phase_values = #ktsched.decision<"recompute", "heuristic">
// DEEP-NOT: phase_scratch
