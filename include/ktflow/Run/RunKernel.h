//===- RunKernel.h - compile, simulate and check one kernel -----*- C++ -*-===//
//
// The end-to-end check behind `ktflow run` and `ktflow fuzz`: bind the
// kernel's inputs as the interpreter does, run the interpreter as the
// oracle, schedule and lower a copy for one description, simulate the
// device code on exactly the interpreter's input bytes and compare every
// output buffer bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_RUN_RUNKERNEL_H
#define KTFLOW_RUN_RUNKERNEL_H

#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Sim/Simulator.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace ktflow::run {

struct RunKernelOptions {
  /// Description name or file, as given to the scheduler.
  std::string arch;
  /// Kernel to launch; empty selects the module's only function.
  std::string funcName;
  /// `NAME=FILE.npy` or `NAME=VALUE` bindings (see `ktflow interp`).
  std::vector<std::string> args;
  /// Seed of the random contents of unbound buffers.
  uint64_t seed = 0;
  /// Record a trace in the simulation result.
  bool trace = false;
  /// Testing only: flip one bit of the first simulated output before
  /// comparing, so the comparison must report a mismatch.
  bool injectFault = false;
};

/// One output buffer compared against the interpreter.
struct OutputComparison {
  std::string name;
  std::string elementType;
  int64_t elements = 0;
  /// First element that differs, if any.
  std::optional<int64_t> firstMismatch;
  double got = 0;
  double expected = 0;
};

struct RunKernelResult {
  lower::LoweredKernel lowered;
  /// Set when the simulation failed (an error or a deadlock); then there is
  /// no simulation result and no comparison.
  std::optional<std::string> simulationError;
  sim::SimResult simulation;
  std::vector<OutputComparison> outputs;

  bool matches() const;
};

/// Runs `module` (left unchanged) end to end on `model`. Errors of parsing
/// arguments, interpreting, scheduling and lowering are diagnostics through
/// the module's context, and the result is failure.
mlir::FailureOr<RunKernelResult> runKernel(mlir::ModuleOp module,
                                           const interp::SourceNames &names,
                                           const arch::ArchModel &model,
                                           const RunKernelOptions &options);

/// Value of element `i` of a raw buffer of `type` (f16, bf16, f32), for
/// printing.
double elementValue(llvm::StringRef type, const std::vector<uint8_t> &bytes, int64_t i);

} // namespace ktflow::run

#endif // KTFLOW_RUN_RUNKERNEL_H
