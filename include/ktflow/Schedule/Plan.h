//===- Plan.h - decisions as a JSON plan file -------------------*- C++ -*-===//
//
// A plan is the set of decision attributes of a schedule, per kernel and
// group: {"kernels": [{"name", "arch", "groups": [{"name", "tile", "depth",
// "split", "loop_order", "units"}]}]}. writePlan dumps it; applyPlan puts
// its values back with source "plan", diagnosing a plan that does not
// match the schedule.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_PLAN_H
#define KTFLOW_SCHEDULE_PLAN_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace ktflow::ktsched {

void writePlan(mlir::ModuleOp module, llvm::raw_ostream &os);
/// `fileName` is used in diagnostics about the JSON itself.
mlir::LogicalResult applyPlan(mlir::ModuleOp module, llvm::StringRef json,
                              llvm::StringRef fileName);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_PLAN_H
