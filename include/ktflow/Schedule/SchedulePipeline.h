//===- SchedulePipeline.h - KTIR to schedule, as a library ------*- C++ -*-===//
#ifndef KTFLOW_SCHEDULE_SCHEDULEPIPELINE_H
#define KTFLOW_SCHEDULE_SCHEDULEPIPELINE_H

#include "mlir/Pass/PassManager.h"

#include <string>
#include <vector>

namespace ktflow::ktsched {

struct ScheduleOptions {
  /// Description name or file; empty to use one embedded in the module.
  std::string arch;
  int64_t depth = 2;
  /// A plan file to replay; empty for none.
  std::string plan;
  /// Launch values `NAME=VALUE` the kernel is specialized for
  /// (ktsched-specialize).
  std::vector<std::string> args;
};

/// Adds the whole scheduler, input check to allocation, to `pm`.
void buildSchedulePipeline(mlir::OpPassManager &pm, const ScheduleOptions &options);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_SCHEDULEPIPELINE_H
