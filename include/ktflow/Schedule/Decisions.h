//===- Decisions.h - a schedule's decisions as a flat list ------*- C++ -*-===//
//
// Every `#ktsched.decision<value, source>` attribute of a scheduled module,
// with the op it sits on, for readers that show decisions rather than
// replay them (the HTML report, summaries). The plan file (Plan.h) is the
// replayable form of the same decisions; this list adds their sources.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_DECISIONS_H
#define KTFLOW_SCHEDULE_DECISIONS_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace ktflow::ktsched {

struct DecisionRecord {
  /// The kernel's symbol name, and the compute group's (empty for a
  /// kernel-level decision).
  std::string kernel, group;
  /// The op carrying the decision, e.g. `stage dma_load (level 0)` or
  /// `buffer @arg0 in lx (level 0)`.
  std::string where;
  /// The attribute name (tile, depth, split, unit, ...).
  std::string name;
  /// The value as a reader writes it: `[128]`, `2`, `dma`,
  /// `dim=0 instances=2 shares=[128, 128]`.
  std::string value;
  /// heuristic, plan or costmodel.
  std::string source;
};

/// The decisions of `module` in walk (pre-)order: kernel first, then each
/// group's ops as they appear.
std::vector<DecisionRecord> listDecisions(mlir::ModuleOp module);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_DECISIONS_H
