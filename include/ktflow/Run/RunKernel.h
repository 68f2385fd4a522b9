//===- RunKernel.h - schedule, lower, simulate and check a kernel -*- C++ -*-===//
//
// The end-to-end check of `ktflow run` as a library call, so `ktflow bench`
// runs it in-process per kernel: binds the inputs as the interpreter does,
// runs the interpreter as the oracle, schedules and lowers a copy of the
// module, simulates the device code on the same bytes and compares every
// output buffer bit for bit, or within ktir.md §7.3's tolerance where the
// lowering reorders a sum.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_RUN_RUNKERNEL_H
#define KTFLOW_RUN_RUNKERNEL_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Cost/Predict.h"
#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Schedule/Decisions.h"
#include "ktflow/Sim/Simulator.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <string>
#include <vector>

namespace ktflow::run {

struct RunOptions {
  /// Architecture name or file, as given to the scheduling pipeline.
  std::string arch;
  /// Kernel function to launch (empty: the only one).
  std::string funcName;
  /// Argument bindings NAME=FILE.npy or NAME=VALUE (see `ktflow interp`).
  std::vector<std::string> args;
  uint64_t seed = 0;
  /// A plan file to replay (empty: the scheduler's own decisions).
  std::string plan;
  bool trace = false;
  /// Testing only: flip one bit of the first simulated output before comparing.
  bool injectFault = false;
  /// Keep every buffer's simulated contents in RunReport::buffers (for
  /// `ktflow run --out`; off by default: `ktflow bench` has no use for a
  /// second copy of every buffer).
  bool keepBuffers = false;
  /// Device code to run instead of compiling the kernel (`--device-code
  /// K.kbin`): compiled once, possibly with launch values left unbound,
  /// which `args` then give. Its outputs are compared bit for bit.
  std::string deviceCode;
};

/// The comparison of one output buffer.
struct OutputComparison {
  std::string name;
  std::string elementType;
  int64_t elements = 0;
  /// First differing element (beyond the tolerance, if one applies), or -1
  /// when the buffers match.
  int64_t firstMismatch = -1;
  double got = 0;
  double expected = 0;
  /// Outputs of a sum reduction are compared within the tolerance of
  /// ktir.md §7.3 (see docs/run.md), everything else bit for bit.
  bool tolerance = false;
  /// The output of a group of phases (softmax, layernorm): compared within
  /// §7.3's composite-kernel tolerance instead.
  bool composite = false;
  /// Terms folded into each element (tolerance comparisons).
  int64_t reductionLength = 0;
  /// Largest |got - expected| seen, and its largest share of the
  /// element's bound (tolerance comparisons; 1 = at the bound).
  double maxError = 0;
  double maxBoundFraction = 0;
};

/// Tolerance of ktir.md §7.3 for one element of a reduction's result:
/// |got - ref| <= eps_out * |ref| + 4 * eps_acc * magnitude, `magnitude`
/// being the reduction evaluated on the absolute values of its terms. NaN
/// must meet NaN and infinities must be equal. Returns whether `got` is
/// within it; `bound` receives the bound (0 for non-finite references).
bool withinReductionTolerance(double got, double ref, double magnitude, double epsOut,
                              double epsAcc, double &bound);

/// Machine epsilon of a float element type name ("f16" 2^-10, "bf16" 2^-7,
/// "f32" 2^-23); 0 for other types.
double machineEpsilon(llvm::StringRef elementType);

struct RunReport {
  dc::Bundle bundle;
  arch::Workload workload;
  /// The cost model's predicted cycles of the schedule (Predict.h).
  cost::Prediction prediction;
  /// The schedule's decisions as plan JSON (Plan.h), as `ktflow compile
  /// --dump-plan` writes them.
  std::string planJson;
  sim::SimResult result;
  /// Every decision of the schedule, with its source.
  std::vector<ktsched::DecisionRecord> decisions;
  std::vector<OutputComparison> outputs;
  /// With RunOptions::keepBuffers: every buffer of the interpreter's global
  /// memory, inputs and outputs, in its order, each in the kernel's own
  /// shape and dtype, holding the simulated contents (a buffer the device
  /// code has no symbol for keeps its bound contents). These are the arrays
  /// `ktflow interp --out` writes, so the two compare file for file.
  std::vector<std::pair<std::string, interp::NpyArray>> buffers;
  bool match = true;
  /// Wall-clock milliseconds of scheduling + lowering, and of simulation.
  double compileMs = 0;
  double simulateMs = 0;
};

/// Runs `module` end to end for `model`. On failure either diagnostics were
/// emitted (`message` left empty) or `message` says what went wrong.
/// Gives the interpreter `model`'s scratchpad: the usable bytes of the
/// memory backing ct_local (the interpreter's 2 MiB default is for runs
/// without a description). `ktflow run` and `ktflow interp --arch` use it.
void useDescriptionScratchpad(interp::InterpOptions &options, const arch::ArchModel &model);

mlir::FailureOr<RunReport> runKernel(mlir::ModuleOp module, const arch::ArchModel &model,
                                     const interp::SourceNames &names,
                                     const RunOptions &options, std::string &message);

} // namespace ktflow::run

#endif // KTFLOW_RUN_RUNKERNEL_H
