//===- Workload.h - the roofline's work, from the schedule ------*- C++ -*-===//
//
// The seed of the cost model (DESIGN.md, "Cost model and tuner"): what a
// scheduled kernel must do, as totals over the device, read from the
// schedule IR (ktsched ops and their recorded decisions) and the
// architecture model alone. The bytes each load and store moves along the
// routes the schedule takes, the compute work per unit and op class, and
// the instances the kernel's grid keeps busy: arch::ArchModel::roofline
// turns that into the lower bound every simulated run is measured against.
// docs/cost.md says what is counted and why.
//
// Nothing here knows how the schedule becomes device code: the lowering
// (ktflow/Lower) and the simulator (ktflow/Sim) are neither included nor
// linked, so a tuner can price a plan without lowering it.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_COST_WORKLOAD_H
#define KTFLOW_COST_WORKLOAD_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/KTSched.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace ktflow::cost {

/// The roofline workload of the one ktsched.kernel in `scheduledModule`
/// (the scheduler's output: every group tiled, split, buffered, allocated
/// and classified) on `model`. A schedule this cannot read (no kernel, a
/// group without its pipeline, a missing decision, a unit the description
/// lacks) is a diagnostic at the op, and failure.
mlir::FailureOr<arch::Workload> computeWorkload(mlir::ModuleOp scheduledModule,
                                                const arch::ArchModel &model);

/// Loop trips of `group` on each grid tile (linear id order; 1 each without
/// a loop); std::nullopt when its loop lacks bounds or a positive step.
std::optional<llvm::SmallVector<int64_t>> loopTripsPerGridTile(ktsched::KernelOp kernel,
                                                               ktsched::GroupOp group);

/// The one ktsched.kernel of `scheduledModule`, or a diagnostic.
mlir::FailureOr<ktsched::KernelOp> scheduledKernel(mlir::ModuleOp scheduledModule);

/// The roofline work of one contraction alone (what computeWorkload charges
/// for it).
mlir::FailureOr<arch::Workload> computeContractionWorkload(ktsched::KernelOp kernel,
                                                           ktsched::ContractionOp op,
                                                           const arch::ArchModel &model);

/// The roofline workload of one group of `kernel` alone (groups run one
/// after the other, so a kernel's workload is the sum over its groups).
mlir::FailureOr<arch::Workload> computeGroupWorkload(ktsched::KernelOp kernel,
                                                     ktsched::GroupOp group,
                                                     const arch::ArchModel &model);

} // namespace ktflow::cost

#endif // KTFLOW_COST_WORKLOAD_H
