//===- ScheduleContraction.h - the contraction schedule's parts -*- C++ -*-===//
//
// Internal to lib/Schedule: ktsched-schedule-contraction binds a
// contraction to a matrix unit (ScheduleContraction.cpp) or, where the
// description has none or a plan says so, to a vector unit
// (ScheduleVectorContraction.cpp); both decide the merge of column tiles
// the same way.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_SCHEDULE_SCHEDULECONTRACTION_H
#define KTFLOW_LIB_SCHEDULE_SCHEDULECONTRACTION_H

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"

namespace ktflow::ktsched::detail {

/// Decides `merge` (or checks and applies a plan's): where `rowsWhole(N)`
/// is false for the tile's N columns, consecutive grid tiles along the
/// grid dimension that steps N become one, the smallest number that makes
/// the rows whole. Rewrites B, C and the epilogue's row operands, sets the
/// contraction's `grid` and returns the merged N; diagnoses at `op` (rows
/// of `accessBytes`-byte accesses) when no merge helps.
mlir::FailureOr<int64_t> decideContractionMerge(ContractionOp op, KernelOp kernel, int64_t n,
                                                llvm::function_ref<bool(int64_t)> rowsWhole,
                                                int64_t accessBytes);

/// Schedules `op` on a vector unit (`compute = vector`); `whyNotMatrix`
/// ends the diagnostic where no vector unit can run it ("no matrix unit
/// can either (...)", "the plan chose ...").
mlir::LogicalResult scheduleVectorContraction(ContractionOp op, KernelOp kernel,
                                              const arch::ArchModel &model,
                                              const Placement &placement,
                                              llvm::StringRef whyNotMatrix);

} // namespace ktflow::ktsched::detail

#endif // KTFLOW_LIB_SCHEDULE_SCHEDULECONTRACTION_H
