//===- PhaseValues.h - what each phase of a group of phases computes -*- C++ -*-===//
//
// A group of phases (softmax, layernorm, rmsnorm) visits each row once per
// phase. Its body's values have a level: uniform (the same for every
// vector), per row (a reduction's result and what is computed from such
// values alone) or per vector. This file splits the body into the ops each
// phase computes for every vector, and, for the `phase_values = registers`
// decision, the smaller sets a phase computes when the per-vector results
// of the earlier phases stay in registers (`carried`), with the register
// demand of that form. The schedule decides with it and the lowering
// (lib/Lower/PhaseCompute.cpp) emits from it, so both see the same split.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_PHASEVALUES_H
#define KTFLOW_SCHEDULE_PHASEVALUES_H

#include "ktflow/Schedule/KTSched.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace ktflow::arch {
class ArchModel;
}

namespace ktflow::ktsched {

/// The decision on a group of phases: `registers` keeps every vector's
/// per-phase results of a row in registers for the phases after it;
/// `recompute` computes them again from the row in each phase.
inline constexpr llvm::StringLiteral kPhaseValues = "phase_values";
inline constexpr llvm::StringLiteral kPhaseValuesInRegisters = "registers";
inline constexpr llvm::StringLiteral kPhaseValuesRecomputed = "recompute";

enum class PhaseLevel { Uniform, Row, Vector };

struct PhaseSplit {
  struct Phase {
    /// The reduce ops of the phase (none for the final phase).
    llvm::SmallVector<mlir::Operation *, 2> reductions;
    /// Per-vector ops computed from the row alone (recompute), and the
    /// body arguments they read.
    llvm::DenseSet<mlir::Operation *> vectorOps;
    llvm::SmallVector<bool, 4> argsRead;
    /// The same with the earlier phases' results carried in registers:
    /// the ops still computed, the arguments still read, the earlier
    /// results read (`carriedIn`) and the results of this phase a later
    /// phase reads (`carriedOut`).
    llvm::DenseSet<mlir::Operation *> residentOps;
    llvm::SmallVector<bool, 4> residentArgsRead;
    llvm::SetVector<mlir::Value> carriedIn, carriedOut;
    /// Ops on this phase's per-row results, once per row.
    llvm::DenseSet<mlir::Operation *> rowOps;
  };
  /// The reduction phases in order, then the final phase (the stored rows).
  llvm::SmallVector<Phase, 3> phases;
  llvm::DenseMap<mlir::Value, PhaseLevel> level;
  /// Every value some phase carries (in body order).
  llvm::SetVector<mlir::Value> carried;
  /// Per-row values some per-vector op reads: computed on one element
  /// (the per-row ops cost one issue, not a vector's), then broadcast.
  llvm::SetVector<mlir::Value> broadcastRowValues;
  /// Splat arguments some per-row op reads (each also needs one element).
  llvm::SetVector<mlir::BlockArgument> rowOpArguments;

  const Phase &final() const { return phases.back(); }
  /// Registers a row needs at once when the carried values of its
  /// `vectors` vectors stay in registers: the carried values, the
  /// temporaries of a vector and the per-row values live between their
  /// definition and last use, plus one register per body argument, per
  /// reduction (accumulator, row value, its broadcast, init), per
  /// broadcast per-row value and per splat argument a per-row op reads,
  /// and the lowering's own (scratch, pieces).
  int64_t residentRegisterDemand(mlir::Block &body, int64_t vectors) const;
};

/// Splits the body of a group of phases' compute stage; `uniformArgs[i]`
/// says body argument i is the same for every vector (a splat scalar).
/// Fails on the shapes the lowering does not take (with a diagnostic when
/// `diagnose`).
mlir::FailureOr<PhaseSplit> splitPhases(mlir::Operation *computeStage,
                                        llvm::ArrayRef<bool> uniformArgs, bool diagnose = true);

/// Which body arguments of a compute stage are splat scalars.
llvm::SmallVector<bool> uniformComputeArguments(StageOp compute);

/// Decides `phase_values` on a group of phases: registers where some
/// phase would recompute earlier results and the resident form's
/// register demand fits the compute unit's registers.
void decidePhaseValues(GroupOp group, const arch::ArchModel &model);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_PHASEVALUES_H
