//===- Plan.h - decisions as a JSON plan file -------------------*- C++ -*-===//
//
// A plan is the set of decision attributes of a schedule, per kernel and
// group: {"kernels": [{"name", "device", "merge": {"dim", "factor"},
// "groups": [{"name", "tile", "depth", "split", "loop_order", "units"}]}]}.
// writePlan dumps it; applyPlan puts the group values back with source
// "plan", diagnosing a plan that does not match the schedule. A kernel's
// `merge` changes the iteration space the group decisions refer to, so the
// merge pass replays it (readPlanMerge) before the split, and applyPlan
// only checks that the schedule carries it.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_PLAN_H
#define KTFLOW_SCHEDULE_PLAN_H

#include "ktflow/Schedule/KTSched.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace ktflow::ktsched {

void writePlan(mlir::ModuleOp module, llvm::raw_ostream &os);
/// `fileName` is used in diagnostics about the JSON itself.
mlir::LogicalResult applyPlan(mlir::ModuleOp module, llvm::StringRef json,
                              llvm::StringRef fileName);

/// A kernel's `merge` decision: `factor` consecutive grid tiles along grid
/// dimension `dim` run as one.
struct PlanMerge {
  int64_t dim = 0, factor = 1;
};
/// The `merge` the plan gives `kernel`, if it names the kernel and gives
/// one; a plan that is not JSON or a malformed entry is diagnosed (the
/// entry's values are checked against the kernel by the merge pass).
mlir::FailureOr<std::optional<PlanMerge>> readPlanMerge(KernelOp kernel, llvm::StringRef json,
                                                        llvm::StringRef fileName);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_PLAN_H
