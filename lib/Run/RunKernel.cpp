//===- RunKernel.cpp - compile, simulate and check one kernel -------------===//
//
// Strategy: the interpreter binds the arguments (--arg files, scalars,
// seeded random fill) once in bind-only mode, so the simulator receives
// exactly the bytes the oracle starts from; the oracle then runs to the end.
// A clone of the module is scheduled and lowered (the scheduler rewrites
// it), the bundle's symbols are widened to cover the lowering's alignment
// padding (zeroed) and simulated, and every output is compared bit for bit:
// the lowering keeps the interpreter's order of operations (one rounding
// per op), so the tolerance of ktir.md §7.3 is never needed.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Run/RunKernel.h"

#include "ktflow/Interp/Float16.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <cstring>
#include <map>

using namespace ktflow;
using namespace ktflow::run;

bool RunKernelResult::matches() const {
  if (simulationError)
    return false;
  for (const OutputComparison &output : outputs)
    if (output.firstMismatch)
      return false;
  return true;
}

double run::elementValue(llvm::StringRef type, const std::vector<uint8_t> &bytes, int64_t i) {
  if (type == "f16") {
    uint16_t h = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    return interp::halfBitsToFloat(h);
  }
  if (type == "bf16") {
    uint16_t h = bytes[2 * i] | (bytes[2 * i + 1] << 8);
    return interp::bf16BitsToFloat(h);
  }
  if (type == "f32") {
    uint32_t w;
    memcpy(&w, &bytes[4 * i], 4);
    return interp::bitsToFloat(w);
  }
  return bytes[i];
}

mlir::FailureOr<RunKernelResult> run::runKernel(mlir::ModuleOp module,
                                                const interp::SourceNames &names,
                                                const arch::ArchModel &model,
                                                const RunKernelOptions &options) {
  // 1. The inputs, bound exactly as `ktflow interp` binds them.
  interp::InterpOptions interpOptions;
  interpOptions.funcName = options.funcName;
  interpOptions.args = options.args;
  interpOptions.seed = options.seed;
  interp::InterpOptions bindOptions = interpOptions;
  bindOptions.bindOnly = true;
  interp::Interpreter initial(module, bindOptions, names);
  if (mlir::failed(initial.run()))
    return mlir::failure();
  // 2. The oracle.
  interp::Interpreter oracle(module, interpOptions, names);
  if (mlir::failed(oracle.run()))
    return mlir::failure();

  // 3. Schedule and lower a copy (the scheduler rewrites the module).
  mlir::OwningOpRef<mlir::ModuleOp> scheduled = module.clone();
  if (!options.funcName.empty())
    for (auto func : llvm::make_early_inc_range(scheduled->getOps<mlir::func::FuncOp>()))
      if (func.getName() != options.funcName)
        func.erase();
  ktsched::ScheduleOptions scheduleOptions;
  scheduleOptions.arch = options.arch;
  mlir::PassManager pm(module.getContext());
  ktsched::buildSchedulePipeline(pm, scheduleOptions);
  if (mlir::failed(pm.run(*scheduled)))
    return mlir::failure();
  lower::LowerOptions lowerOptions;
  const auto &bindings = initial.bindings();
  for (size_t i = 0; i < bindings.size(); ++i)
    if (bindings[i].kind == interp::ArgumentBinding::Kind::Scalar) {
      double value = 0;
      if (!llvm::StringRef(bindings[i].value).getAsDouble(value))
        lowerOptions.scalarArgs[i] = value;
    }
  mlir::FailureOr<lower::LoweredKernel> lowered =
      lower::lowerSchedule(*scheduled, model, lowerOptions);
  if (mlir::failed(lowered))
    return mlir::failure();
  RunKernelResult result;
  result.lowered = std::move(*lowered);
  dc::Bundle &bundle = result.lowered.bundle;

  // 4. Bind the symbols to the interpreter's buffers.
  sim::SymbolData inputs;
  std::map<std::string, const interp::Buffer *> expected;
  for (size_t s = 0; s < bundle.symbols.size(); ++s) {
    int64_t arg = result.lowered.symbolArgs[s];
    if (arg < 0 || arg >= (int64_t)bindings.size() || !bindings[arg].buffer) {
      result.simulationError = "kernel argument " + std::to_string(arg) + " is not a buffer";
      return result;
    }
    dc::Symbol &symbol = bundle.symbols[s];
    const interp::Buffer &buffer = *bindings[arg].buffer;
    // The symbol covers the buffer and the alignment padding the lowering
    // may read (zeroed); only the buffer's own bytes are compared.
    auto esize = dc::elementSizeOf(symbol.elementType);
    symbol.name = bindings[arg].name;
    symbol.size = std::max(symbol.size, buffer.size());
    symbol.shape = {symbol.size.count() / esize->bytes.count()};
    std::vector<uint8_t> data = buffer.bytes;
    data.resize(symbol.size.count(), 0);
    inputs[symbol.name] = std::move(data);
    expected[symbol.name] = oracle.bindings()[arg].buffer;
  }

  // 5. Simulate.
  sim::SimOptions simOptions;
  simOptions.trace = options.trace;
  llvm::Expected<sim::SimResult> simulated = sim::simulate(bundle, model, inputs, simOptions);
  if (!simulated) {
    result.simulationError = llvm::toString(simulated.takeError());
    return result;
  }
  result.simulation = std::move(*simulated);
  if (result.simulation.deadlock) {
    result.simulationError = *result.simulation.deadlock;
    return result;
  }

  // 6. Compare every output buffer, bit for bit.
  bool injected = false;
  for (const dc::Symbol &symbol : bundle.symbols) {
    if (!symbol.isOutput)
      continue;
    std::vector<uint8_t> got = result.simulation.buffers.at(symbol.name);
    if (options.injectFault && !injected && !got.empty()) {
      got[0] ^= 1;
      injected = true;
    }
    const std::vector<uint8_t> &want = expected[symbol.name]->bytes;
    int64_t esize = dc::elementSizeOf(symbol.elementType)->bytes.count();
    OutputComparison comparison;
    comparison.name = symbol.name;
    comparison.elementType = symbol.elementType;
    comparison.elements = std::min(got.size(), want.size()) / esize;
    for (int64_t i = 0; i < comparison.elements; ++i)
      if (memcmp(&got[i * esize], &want[i * esize], esize) != 0) {
        comparison.firstMismatch = i;
        comparison.got = elementValue(symbol.elementType, got, i);
        comparison.expected = elementValue(symbol.elementType, want, i);
        break;
      }
    result.outputs.push_back(std::move(comparison));
  }
  return result;
}
