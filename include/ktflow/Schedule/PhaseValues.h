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
struct ComputeInfo;
}

namespace ktflow::ktsched {

/// The decision on a group of phases: `registers` keeps every vector's
/// per-phase results of a row in registers for the phases after it;
/// `scratchpad` sends them to the store unit, which writes them to a
/// scratchpad slot the load unit reads back in the later phase;
/// `recompute` computes them again from the row in each phase.
inline constexpr llvm::StringLiteral kPhaseValues = "phase_values";
inline constexpr llvm::StringLiteral kPhaseValuesInRegisters = "registers";
inline constexpr llvm::StringLiteral kPhaseValuesInScratchpad = "scratchpad";
inline constexpr llvm::StringLiteral kPhaseValuesRecomputed = "recompute";
/// The `scratchpad` form's slot (allocation): its address (a decision, per
/// sub-core instance, in the memory the load unit reads) and its bytes.
inline constexpr llvm::StringLiteral kPhaseScratchAddress = "phase_scratch_address";
inline constexpr llvm::StringLiteral kPhaseScratchBytes = "phase_scratch_bytes";
inline constexpr llvm::StringLiteral kPhaseScratchValues = "phase_scratch_values";

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
  /// Whether the carried values can go through one scratchpad slot per
  /// row: every phase that carries a value out comes before every phase
  /// that reads one back (the slot is written, then read, once per row).
  bool scratchpadOrdered() const;
};

/// Issue cycles per row of a group of phases' compute unit, by
/// `phase_values` form (the description's per-op pricing): `step`
/// elements a vector, `vectors` a row, `pieceBytes` one load/store unit
/// access, `sendBytesPerCycle` the compute unit's link to its store unit.
/// Counts the per-vector body ops each form computes and, for
/// `scratchpad`, each carried value's slices and sends out and its
/// concatenation back (a receive issues nothing).
double phaseVectorCycles(const PhaseSplit &split, mlir::Block &body,
                         const arch::ComputeInfo &info, llvm::StringRef form, int64_t step,
                         int64_t vectors, int64_t pieceBytes, int64_t sendBytesPerCycle);

/// Bytes of the `scratchpad` form's slot for a row of `vectors` vectors of
/// `step` elements: every carried value's row in its own type.
int64_t phaseScratchBytes(const PhaseSplit &split, int64_t step, int64_t vectors);

/// Splits the body of a group of phases' compute stage; `uniformArgs[i]`
/// says body argument i is the same for every vector (a splat scalar).
/// Fails on the shapes the lowering does not take (with a diagnostic when
/// `diagnose`).
/// `carryOnly` (the scratchpad form) limits the carried values to those
/// it holds: a phase recomputes the others.
mlir::FailureOr<PhaseSplit> splitPhases(mlir::Operation *computeStage,
                                        llvm::ArrayRef<bool> uniformArgs, bool diagnose = true,
                                        const llvm::DenseSet<mlir::Value> *carryOnly = nullptr);

/// The body values `phase_scratch_values` (op indices in body order) names.
llvm::DenseSet<mlir::Value> phaseScratchValues(GroupOp group, mlir::Block &body);

/// The scratchpad form of a group of phases: the values it carries (op
/// indices in body order), its slot's bytes, and the compute unit's issue
/// cycles per row in that form and recomputing. A value is carried where
/// recomputing it costs more than its transfers (a cast of the row is
/// cheaper to redo than to send and join); `forced` (a plan's choice)
/// carries the values of the latest phase carrying any where none is
/// worth it. Fails where the
/// form does not apply: no load unit (two scratchpad levels), a streamed
/// row, nothing carried, or a phase reading a carried value before the
/// last phase writing one.
struct ScratchpadForm {
  llvm::SmallVector<int64_t> ops;
  int64_t bytes = 0;
  double cycles = 0, recomputeCycles = 0;
};
mlir::FailureOr<ScratchpadForm> scratchpadForm(GroupOp group, const arch::ArchModel &model,
                                               bool forced);

/// Which body arguments of a compute stage are splat scalars.
llvm::SmallVector<bool> uniformComputeArguments(StageOp compute);

/// Decides `phase_values` on a group of phases: registers where some
/// phase would recompute earlier results and the resident form's
/// register demand fits the compute unit's registers; else scratchpad
/// where the group has a load unit (one scratchpad level), its carried
/// values are ordered for one slot and their transfers cost the compute
/// unit fewer cycles than recomputing them; else recompute. Allocation
/// then checks the scratchpad slot fits (else recompute).
void decidePhaseValues(GroupOp group, const arch::ArchModel &model);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_PHASEVALUES_H
