//===- Predict.h - a schedule's cycles, without simulating -----*- C++ -*-===//
//
// The cost model of DESIGN.md ("Cost model and tuner"): predicts the
// cycles of a scheduled kernel from the schedule IR and the architecture
// model alone, per group, naming the resource that limits each. It builds
// on the roofline workload (Workload.h): the steady state of a group's
// pipeline runs at its slowest resource, and around it the pipeline fills
// and drains. docs/cost.md gives the model and its measured error.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_COST_PREDICT_H
#define KTFLOW_COST_PREDICT_H

#include "ktflow/Arch/ArchModel.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <string>

namespace ktflow::cost {

/// One group's predicted cycles and where they come from.
struct GroupPrediction {
  std::string group;
  /// The group's roofline: its work at its slowest resource's throughput.
  double bound = 0;
  /// The steady state: the bound, or the DMA's per-transfer latency where
  /// a step's transfers are too short to hide it behind the buffer depth.
  double steady = 0;
  /// Filling and draining the pipeline: the routes' latencies and the
  /// steps the first and last tile spend outside the bottleneck.
  double fill = 0;
  double cycles = 0;
  /// Pipeline steps per instance (tiles, loop trips, rounds of grid tiles).
  int64_t steps = 1;
  /// What limits the steady state: a resource name, or "dma latency".
  std::string limiting;
};

struct Prediction {
  double cycles = 0;
  llvm::SmallVector<GroupPrediction> groups;
};

/// Predicts the cycles of the one ktsched.kernel in `scheduledModule` (the
/// scheduler's output) on `model`. Diagnoses what it cannot read.
mlir::FailureOr<Prediction> predictCycles(mlir::ModuleOp scheduledModule,
                                          const arch::ArchModel &model);

} // namespace ktflow::cost

#endif // KTFLOW_COST_PREDICT_H
