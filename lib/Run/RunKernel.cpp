//===- RunKernel.cpp - schedule, lower, simulate and check a kernel -------===//
//
// The interpreter binds the arguments (--arg files, scalars, seeded random
// fill) in a bind-only run, so the simulator receives exactly the bytes the
// oracle run starts from. The scheduler rewrites the module, so it works on
// a clone. Outputs are compared bit for bit: the lowering keeps the
// interpreter's order of operations (elementwise bodies, one rounding per
// op), so the tolerance of ktir.md §7.3 is never needed for what it lowers.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Run/RunKernel.h"

#include "ktflow/Interp/Float16.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Twine.h"

#include <chrono>
#include <cstring>
#include <map>

using namespace ktflow;
using namespace ktflow::run;

/// Value of element `i` of a raw buffer, for printing.
static double elementValue(llvm::StringRef type, const std::vector<uint8_t> &bytes, int64_t i) {
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

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

mlir::FailureOr<RunReport> ktflow::run::runKernel(mlir::ModuleOp module,
                                                  const arch::ArchModel &model,
                                                  const interp::SourceNames &names,
                                                  const RunOptions &options,
                                                  std::string &message) {
  message.clear();
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
  auto compileStart = std::chrono::steady_clock::now();
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
  RunReport report;
  report.compileMs = millisecondsSince(compileStart);
  report.bundle = std::move(lowered->bundle);
  report.workload = std::move(lowered->workload);
  dc::Bundle &bundle = report.bundle;

  // 4. Bind the symbols to the interpreter's buffers.
  sim::SymbolData inputs;
  std::map<std::string, const interp::Buffer *> expected;
  for (size_t s = 0; s < bundle.symbols.size(); ++s) {
    int64_t arg = lowered->symbolArgs[s];
    if (arg < 0 || arg >= (int64_t)bindings.size() || !bindings[arg].buffer) {
      message = ("kernel argument " + llvm::Twine(arg) + " is not a buffer").str();
      return mlir::failure();
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
  auto simulateStart = std::chrono::steady_clock::now();
  llvm::Expected<sim::SimResult> result = sim::simulate(bundle, model, inputs, simOptions);
  report.simulateMs = millisecondsSince(simulateStart);
  if (!result) {
    message = llvm::toString(result.takeError());
    return mlir::failure();
  }
  if (result->deadlock) {
    message = *result->deadlock;
    return mlir::failure();
  }
  report.result = std::move(*result);

  // 6. Compare every output buffer, bit for bit.
  bool injected = false;
  for (const dc::Symbol &symbol : bundle.symbols) {
    if (!symbol.isOutput)
      continue;
    std::vector<uint8_t> got = report.result.buffers.at(symbol.name);
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
    for (int64_t i = 0; i < comparison.elements && comparison.firstMismatch < 0; ++i)
      if (memcmp(&got[i * esize], &want[i * esize], esize) != 0)
        comparison.firstMismatch = i;
    if (comparison.firstMismatch >= 0) {
      report.match = false;
      comparison.got = elementValue(symbol.elementType, got, comparison.firstMismatch);
      comparison.expected = elementValue(symbol.elementType, want, comparison.firstMismatch);
    }
    report.outputs.push_back(std::move(comparison));
  }
  return report;
}
