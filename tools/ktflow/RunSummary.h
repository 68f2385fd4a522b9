//===- RunSummary.h - what `ktflow run` prints ------------------*- C++ -*-===//
//
// The summary `ktflow run` prints after an end-to-end check, kept apart from
// the command's option handling: the comparison of every output, simulated
// time, roofline bound and ratio, the limiting resource, the plan's
// decisions on one line and the verdict; per-unit utilisation only when
// asked (--verbose). docs/run.md shows the output.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TOOLS_KTFLOW_RUNSUMMARY_H
#define KTFLOW_TOOLS_KTFLOW_RUNSUMMARY_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Sim/Simulator.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace ktflow::tool {

struct RunSummaryOptions {
  /// Per-unit utilisation after the summary.
  bool verbose = false;
  /// The report file written for this run, printed as its own line; empty
  /// when none was written (the hook for `ktflow run --report FILE`).
  std::string reportPath;
};

/// Prints the comparison lines, performance, plan and verdict of `report`.
void printRunSummary(llvm::raw_ostream &os, const run::RunReport &report,
                     const arch::ArchModel &model, const RunSummaryOptions &options);

/// Simulated time, the roofline bound of `workload` (when given) and the
/// ratio; per-unit utilisation with `verbose`. Also used for saved device
/// code, which has no workload.
void printPerformance(llvm::raw_ostream &os, const sim::SimResult &result,
                      const arch::ArchModel &model, const arch::Workload *workload, bool verbose);

/// The decisions of a plan (Plan.h's JSON) on one line, e.g. "g0: tile
/// 8x1024, depth 2, split 2 over dim 0, units dma ld sfp st dma"; empty when
/// the JSON has no group.
std::string formatPlanLine(llvm::StringRef planJson);

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_RUNSUMMARY_H
