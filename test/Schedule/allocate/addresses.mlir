// Every buffer gets an aligned address; the copies of one buffer are
// consecutive, buffers of a group follow each other, and each sub-core
// sharing the memory gets its own copy of the layout `instance_stride`
// bytes apart. Groups run one after another, so the next group reuses
// the same addresses from 0.
// relu_rows, tiles of 8x256 f16 (4096 bytes) at depth 2 on sample and
// spyre; 16x256 (8192 bytes) on deep, in both L2 and L1.
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=TWO -DSPAD=spad
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=spyre %to_alloc | FileCheck %s --check-prefix=TWO -DSPAD=lx
// RUN: ktflow-opt %S/../Inputs/relu_rows.mlir %to_groups -ktsched-initial-pipeline=arch=deep %to_alloc | FileCheck %s --check-prefix=DEEP
// RUN: ktflow-opt %S/../Inputs/reduce_f32.mlir %to_groups -ktsched-initial-pipeline=arch=sample %to_alloc | FileCheck %s --check-prefix=REUSE
// TWO: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 4096 : i64{{.*}}instance_stride = 32768 : i64{{.*}}memory = "[[SPAD]]"
// TWO: ktsched.buffer {{.*}}address = #ktsched.decision<8192 : i64, "heuristic">, bytes = 4096 : i64
// TWO: ktsched.buffer {{.*}}address = #ktsched.decision<16384 : i64, "heuristic">, bytes = 4096 : i64
// TWO: ktsched.buffer {{.*}}address = #ktsched.decision<24576 : i64, "heuristic">, bytes = 4096 : i64
// DEEP: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 8192 : i64{{.*}}instance_stride = 65536 : i64{{.*}}memory = "l2"
// DEEP: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 8192 : i64{{.*}}instance_stride = 65536 : i64{{.*}}memory = "l1"
// DEEP: ktsched.buffer {{.*}}address = #ktsched.decision<49152 : i64, "heuristic">, bytes = 8192 : i64{{.*}}memory = "l1"
// DEEP: ktsched.buffer {{.*}}address = #ktsched.decision<49152 : i64, "heuristic">, bytes = 8192 : i64{{.*}}memory = "l2"
// REUSE: ktsched.group @g0
// REUSE: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 1024 : i64
// REUSE: ktsched.buffer {{.*}}address = #ktsched.decision<2048 : i64, "heuristic">, bytes = 128 : i64
// REUSE: ktsched.group @g1
// REUSE: ktsched.buffer {{.*}}address = #ktsched.decision<0 : i64, "heuristic">, bytes = 2048 : i64
