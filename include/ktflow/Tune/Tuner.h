//===- Tuner.h - search plans: cost model first, simulator last -*- C++ -*-===//
//
// The autotuner of DESIGN.md ("Cost model and tuner") as a library call, for
// `ktflow tune` (one kernel, or a shard of a list) and `ktflow bench
// --tune`. It searches the plan space around the heuristic's plan
// (PlanSpace.h), prices every candidate with lib/Cost's prediction (the
// scheduler alone, no lowering), and confirms the best predicted in the
// simulator, checked against the interpreter, on `jobs` threads. The
// heuristic's plan is the baseline and the first candidate, so the result
// is never slower than it.
//
// Determinism: the work is cut into batches whose contents depend only on
// the seed, the options and the results of earlier batches (never on the
// number of threads or which thread finishes first); the budget and
// `maxBatches` are checked only between batches. For a given seed and
// options the plan found after K batches is always the same: a search the
// budget did not cut always ends on the same plan, and one it cut after K
// batches is replayed exactly by `maxBatches = K`.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TUNE_TUNER_H
#define KTFLOW_TUNE_TUNER_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Interp/Interpreter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ktflow::tune {

/// Parses the kernel again into `context` (a worker thread's own) and fills
/// `names` with its source names; null on failure.
using KernelLoader = std::function<mlir::OwningOpRef<mlir::ModuleOp>(
    mlir::MLIRContext &context, interp::SourceNames &names)>;

/// Where the search is, after each batch.
struct TuneProgress {
  unsigned priced = 0;
  unsigned rejected = 0;
  unsigned simulated = 0;
  unsigned batches = 0;
  int64_t heuristicCycles = 0;
  int64_t bestCycles = 0;
  double elapsedSeconds = 0;
  double budgetSeconds = 0;
};

struct TuneOptions {
  /// Description name or file (as `--arch`), loaded again by each worker.
  std::string arch;
  /// Launch values NAME=VALUE.
  std::vector<std::string> args;
  /// Seed of the random draws and of the inputs.
  uint64_t seed = 1;
  /// Random plans drawn around the heuristic's.
  unsigned candidates = 64;
  /// Plans simulated at most, besides the heuristic's.
  unsigned confirm = 16;
  /// Plans simulated per batch: fixed, so the search does not depend on
  /// the number of threads.
  unsigned batch = 4;
  /// Wall-clock seconds after which no new batch starts.
  double budgetSeconds = 30;
  /// Stop after this many batches (0: no limit): replays a cut search.
  unsigned maxBatches = 0;
  /// Threads (each with its own MLIRContext); 0: the hardware threads.
  unsigned jobs = 0;
  /// Called on the calling thread after each batch.
  std::function<void(const TuneProgress &)> onProgress;
};

/// A plan the search priced.
struct TuneCandidate {
  /// Plan JSON, derived decisions dropped (PlanSpace.h).
  std::string plan;
  /// How it was reached: "random", "heuristic+1" (a neighbour of the
  /// heuristic's plan), "predicted+1" (of the best predicted), "best+1"
  /// (of the best simulated so far).
  std::string origin;
  /// Predicted cycles; negative when the scheduler rejected the plan or
  /// its schedule is an earlier candidate's.
  double predicted = -1;
  /// Simulated cycles; -1 when not simulated, -2 when the run failed or
  /// did not match the interpreter.
  int64_t simulated = -1;
  /// The batch that simulated it (0: not simulated).
  unsigned batch = 0;
  /// Why a simulated plan has no cycles: the first diagnostic of its run
  /// (the lowering rejected what the scheduler accepted), or "MISMATCH
  /// against the interpreter" (a wrong result: a compiler bug).
  std::string problem;
};

struct TuneResult {
  /// The heuristic's plan as the schedule wrote it, and its cycles.
  std::string heuristicPlan;
  int64_t heuristicCycles = 0;
  double heuristicPredicted = 0;
  /// The fastest plan that matched (the heuristic's if none was faster), as
  /// its schedule wrote it: replays with `--plan`.
  std::string bestPlan;
  int64_t bestCycles = 0;
  double bestPredicted = 0;
  /// Every candidate, in the order it was generated.
  std::vector<TuneCandidate> candidates;
  unsigned priced = 0;
  unsigned rejected = 0;
  /// Plans whose schedule is an earlier candidate's (the scheduler clamped
  /// a tile): not priced again.
  unsigned duplicates = 0;
  unsigned simulated = 0;
  /// Simulated plans whose run failed, and whose results were wrong.
  unsigned failures = 0;
  unsigned mismatches = 0;
  unsigned batches = 0;
  /// The batch after which the best plan was known (0: the heuristic's),
  /// and the seconds it took to get there.
  unsigned bestBatch = 0;
  double bestSeconds = 0;
  /// Whether the budget (not the options' limits) ended the search.
  bool budgetHit = false;
  double seconds = 0;
};

/// Tunes `module` (parsed in `module`'s context, with `names`) for `model`
/// (loaded in the same context). The heuristic's plan runs there first,
/// its diagnostics going to the context's handlers: when it fails, so does
/// the call (`message` says why, or is empty when diagnostics did). The
/// search's own diagnostics are not shown (candidates that do not fit are
/// expected). With more than one job the context's own multithreading is
/// switched off and the other workers load the kernel with `loader`.
mlir::FailureOr<TuneResult> tuneKernel(mlir::ModuleOp module, const interp::SourceNames &names,
                                       const arch::ArchModel &model, const KernelLoader &loader,
                                       const TuneOptions &options, std::string &message);

} // namespace ktflow::tune

#endif // KTFLOW_TUNE_TUNER_H
