// Negative twin: a plan that does not match the kernel is reported, naming
// the plan and what differs.
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %S/../Inputs/plan_wrong_kernel.json 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %S/../Inputs/plan_wrong_group.json 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch sample --plan %S/../Inputs/plan_bad_rank.json 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %S/../Inputs/plan_bad_shares.json 2>&1 | FileCheck %s --check-prefix=SHARES
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch spyre --plan %S/../Inputs/plan_rebind.json 2>&1 | FileCheck %s --check-prefix=REBIND
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch deep --plan %S/../Inputs/plan_truncated.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not ktflow compile %S/../Inputs/odd_rows_loop.mlir --arch deep --plan %t.missing.json 2>&1 | FileCheck %s --check-prefix=MISSING
// KERNEL: plan_wrong_kernel.json:1:1: error: plan kernel 'other_kernel' is not in the input
// GROUP: error: plan {{.*}}plan_wrong_group.json names group 'g7' that kernel 'odd_rows_loop' lacks
// RANK: error: plan {{.*}}plan_bad_rank.json, group 'g0': tile must be 2 integers
// SHARES: error: plan {{.*}}plan_bad_shares.json, group 'g0': split shares must be 2 values summing to 5, got 2 summing to 6
// REBIND: error: plan {{.*}}plan_rebind.json, group 'g0': stage 'compute' is bound to @sfp by the route; rebinding units is not supported
// JSON: plan_truncated.json:1:1: error: invalid plan JSON:
// MISSING: error: cannot read plan '{{.*}}missing.json'
