//===- RunKernel.cpp - schedule, lower, simulate and check a kernel -------===//
//
// The interpreter binds the arguments (--arg files, scalars, seeded random
// fill) in a bind-only run, so the simulator receives exactly the bytes the
// oracle run starts from. The scheduler rewrites the module, so it works on
// a clone. Outputs are compared bit for bit where the lowering keeps the
// interpreter's order of operations (element-wise bodies, one rounding per
// op; max/min reductions, which are exact in any order). A sum reduction is
// folded in another order (lane-wise partial sums, then across lanes), so
// its outputs are compared within ktir.md §7.3's reduction tolerance,
// eps * |ref| + 4 * eps * M, where M — the sum of the terms' absolute
// values — comes from the interpreter itself: it runs once more on the
// kernel with every sum reduction's input wrapped in math.absf and summed
// in f64 (edited in place, then restored, so argument bindings and names
// stay the same).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Run/RunKernel.h"

#include "ktflow/DeviceCode/LaunchTable.h"
#include "ktflow/DeviceCode/TextForm.h"

#include "ktflow/Cost/Predict.h"
#include "ktflow/Cost/Workload.h"
#include "ktflow/Interp/Float16.h"
#include "ktflow/KTDP/LaunchArgs.h"
#include "ktflow/Run/LaunchValues.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Schedule/Plan.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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
  if (type == "i32") {
    int32_t v;
    memcpy(&v, &bytes[4 * i], 4);
    return v;
  }
  if (type == "i64") {
    int64_t v;
    memcpy(&v, &bytes[8 * i], 8);
    return double(v);
  }
  if (type == "i8")
    return int8_t(bytes[i]);
  return bytes[i];
}

double ktflow::run::machineEpsilon(llvm::StringRef elementType) {
  if (elementType == "f16")
    return std::ldexp(1.0, -10);
  if (elementType == "bf16")
    return std::ldexp(1.0, -7);
  if (elementType == "f32")
    return std::ldexp(1.0, -23);
  return 0;
}

bool ktflow::run::withinReductionTolerance(double got, double ref, double magnitude,
                                           double epsOut, double epsAcc, double &bound) {
  bound = 0;
  if (std::isnan(ref))
    return std::isnan(got);
  if (std::isinf(ref))
    return got == ref;
  if (!std::isfinite(got))
    return false;
  bound = epsOut * std::fabs(ref) + 4 * epsAcc * std::fabs(magnitude);
  return std::fabs(got - ref) <= bound;
}

/// Whether a linalg.reduce folds with one arith.addf (a sum).
static bool isSum(mlir::linalg::ReduceOp reduce) {
  mlir::Block &body = reduce.getCombiner().front();
  return reduce.getInputs().size() == 1 && llvm::hasSingleElement(body.without_terminator()) &&
         llvm::isa<mlir::arith::AddFOp>(body.front());
}

/// The interpreter run on `module` with every sum reduction evaluated in
/// f64 (its input and init widened, the result narrowed once): sums as
/// close to exact as the interpreter gets. A sequential fold in the output
/// type can be off by up to n * eps * M (many equal terms all round the same
/// way), so a device sum is also accepted within the bound of this value.
/// With `absolute`, the terms are wrapped in math.absf first: the sums are
/// §7.3's M = sum |x|, which a fold in the output type would underestimate
/// by the same n * eps * M (1.2% for 240 equal f16 terms), shrinking the
/// bound exactly where the fold errors are largest.
static std::unique_ptr<interp::Interpreter>
runOnAccurateSums(mlir::ModuleOp module, const interp::InterpOptions &options,
                  const interp::SourceNames &names, bool absolute) {
  struct Edit {
    mlir::linalg::ReduceOp original;
    llvm::SmallVector<mlir::Operation *, 4> added;
    mlir::Value narrowed;
  };
  llvm::SmallVector<Edit> edits;
  module.walk([&](mlir::linalg::ReduceOp reduce) {
    if (!isSum(reduce) || reduce->getNumResults() != 1)
      return;
    auto inputType = llvm::dyn_cast<mlir::RankedTensorType>(reduce.getInputs()[0].getType());
    auto initType = llvm::dyn_cast<mlir::RankedTensorType>(reduce.getInits()[0].getType());
    if (!inputType || !initType || !llvm::isa<mlir::FloatType>(inputType.getElementType()))
      return;
    mlir::OpBuilder b(reduce);
    mlir::Location loc = reduce.getLoc();
    mlir::Type f64 = b.getF64Type();
    mlir::Value terms = reduce.getInputs()[0];
    mlir::Operation *abs = nullptr;
    if (absolute) {
      abs = mlir::math::AbsFOp::create(b, loc, terms);
      terms = abs->getResult(0);
    }
    auto wideInput = mlir::arith::ExtFOp::create(b, loc, inputType.clone(f64), terms);
    auto wideInit = mlir::arith::ExtFOp::create(b, loc, initType.clone(f64), reduce.getInits()[0]);
    auto wide = mlir::linalg::ReduceOp::create(
        b, loc, mlir::ValueRange{wideInput}, mlir::ValueRange{wideInit},
        reduce.getDimensions(), [](mlir::OpBuilder &nb, mlir::Location nl, mlir::ValueRange args) {
          mlir::Value sum = mlir::arith::AddFOp::create(nb, nl, args[0], args[1]);
          mlir::linalg::YieldOp::create(nb, nl, sum);
        });
    auto narrow = mlir::arith::TruncFOp::create(b, loc, initType, wide->getResult(0));
    reduce->getResult(0).replaceAllUsesWith(narrow.getResult());
    edits.push_back({reduce, {narrow, wide, wideInit, wideInput}, narrow.getResult()});
    if (abs)
      edits.back().added.push_back(abs);
  });
  auto accurate = std::make_unique<interp::Interpreter>(module, options, names);
  bool ok = mlir::succeeded(accurate->run());
  for (Edit &edit : edits) {
    edit.narrowed.replaceAllUsesWith(edit.original->getResult(0));
    for (mlir::Operation *op : edit.added)
      op->erase();
  }
  return ok ? std::move(accurate) : nullptr;
}

/// Binds the bundle's launch values to the scalars the interpreter ran
/// with: an unbound one's launch-table entries are computed from its
/// value; a bound one must have been compiled for it.
static mlir::LogicalResult bindLaunchValuesOfRun(dc::Bundle &bundle,
                                                 const std::vector<interp::ArgumentBinding> &bindings,
                                                 std::string &message) {
  std::map<std::string, std::string> given;
  for (const dc::LaunchValue &v : bundle.launchValues) {
    if (v.arg >= bindings.size() || bindings[v.arg].kind == interp::ArgumentBinding::Kind::Buffer) {
      message = "launch value '" + v.name + "' is not a scalar argument of the kernel";
      return mlir::failure();
    }
    const std::string &value = bindings[v.arg].value;
    if (v.bound) {
      if (llvm::Error e = run::checkLaunchValue(v, value)) {
        message = llvm::toString(std::move(e));
        return mlir::failure();
      }
      continue;
    }
    given[v.name] = value;
  }
  if (llvm::Error e = dc::bindLaunchValues(bundle, given)) {
    message = llvm::toString(std::move(e));
    return mlir::failure();
  }
  return mlir::success();
}

/// `--device-code`: the saved bundle replaces compilation; its symbols
/// (`argN`, as the lowering names them) say which kernel argument each is.
static mlir::LogicalResult loadDeviceCode(const run::RunOptions &options,
                                          const std::vector<interp::ArgumentBinding> &bindings,
                                          run::RunReport &report,
                                          std::vector<int64_t> &symbolArgs,
                                          std::string &message) {
  llvm::Expected<dc::Bundle> bundle = dc::loadBundleFile(options.deviceCode);
  if (!bundle) {
    message = llvm::toString(bundle.takeError());
    return mlir::failure();
  }
  for (const dc::Symbol &symbol : bundle->symbols) {
    llvm::StringRef name = symbol.name;
    int64_t arg = -1;
    if (!name.consume_front("arg") || name.getAsInteger(10, arg)) {
      message = options.deviceCode + ": symbol $" + symbol.name +
                " does not name a kernel argument (argN)";
      return mlir::failure();
    }
    symbolArgs.push_back(arg);
  }
  report.bundle = std::move(*bundle);
  return bindLaunchValuesOfRun(report.bundle, bindings, message);
}

static double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void ktflow::run::useDescriptionScratchpad(interp::InterpOptions &options,
                                           const arch::ArchModel &model) {
  const arch::Node &memory = model.node(model.ctLocalMemory());
  options.scratchpadCapacity = memory.memory.usable();
  options.scratchpadSource =
      ("the usable bytes of @" + memory.name + " on '" + model.name() + "'").str();
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
  useDescriptionScratchpad(interpOptions, model);
  interp::InterpOptions bindOptions = interpOptions;
  bindOptions.bindOnly = true;
  interp::Interpreter initial(module, bindOptions, names);
  if (mlir::failed(initial.run()))
    return mlir::failure();
  // 2. The oracle.
  interp::Interpreter oracle(module, interpOptions, names);
  if (mlir::failed(oracle.run()))
    return mlir::failure();

  // 3. Schedule and lower a copy (the scheduler rewrites the module), or
  // take the device code given.
  RunReport report;
  std::vector<int64_t> symbolArgs;
  std::vector<lower::LoweredKernel::ReducedOutput> reducedOutputs;
  const auto &bindings = initial.bindings();
  if (!options.deviceCode.empty()) {
    if (mlir::failed(loadDeviceCode(options, bindings, report, symbolArgs, message)))
      return mlir::failure();
  } else {
    auto compileStart = std::chrono::steady_clock::now();
    mlir::OwningOpRef<mlir::ModuleOp> scheduled = module.clone();
    if (!options.funcName.empty())
      for (auto func : llvm::make_early_inc_range(scheduled->getOps<mlir::func::FuncOp>()))
        if (func.getName() != options.funcName)
          func.erase();
    ktsched::ScheduleOptions scheduleOptions;
    scheduleOptions.arch = options.arch;
    scheduleOptions.plan = options.plan;
    // The scalars bound on the command line are launch values the compiled
    // code is specialized on, as `ktflow compile --arg` does; by position,
    // so a module without source names resolves them the same way.
    {
      std::vector<std::string> names;
      for (const interp::ArgumentBinding &b : bindings)
        names.push_back(b.name);
      for (const std::string &text : options.args) {
        std::optional<ktdp::ArgBinding> binding = ktdp::splitArgBinding(text);
        std::optional<unsigned> index =
            binding ? ktdp::resolveArgumentName(names, binding->name) : std::nullopt;
        if (index && bindings[*index].kind != interp::ArgumentBinding::Kind::Buffer)
          scheduleOptions.args.push_back("arg" + std::to_string(*index) + "=" + binding->value);
      }
    }
    mlir::PassManager pm(module.getContext());
    ktsched::buildSchedulePipeline(pm, scheduleOptions);
    if (mlir::failed(pm.run(*scheduled)))
      return mlir::failure();
    std::string planJson;
    llvm::raw_string_ostream planStream(planJson);
    ktsched::writePlan(*scheduled, planStream);
    lower::LowerOptions lowerOptions;
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
    report.compileMs = millisecondsSince(compileStart);
    report.decisions = ktsched::listDecisions(*scheduled);
    report.bundle = std::move(lowered->bundle);
    symbolArgs = lowered->symbolArgs;
    reducedOutputs = lowered->reducedOutputs;
    recordLaunchValues(*scheduled, report.bundle);
    // A value the compilation left unbound is the interpreter's at launch.
    if (dc::hasUnboundLaunchValues(report.bundle) &&
        mlir::failed(bindLaunchValuesOfRun(report.bundle, bindings, message)))
      return mlir::failure();
    // The roofline's work, from the schedule alone (docs/cost.md).
    mlir::FailureOr<arch::Workload> workload = cost::computeWorkload(*scheduled, model);
    if (mlir::failed(workload))
      return mlir::failure();
    report.workload = std::move(*workload);
    // The cost model's prediction, for `ktflow cost eval` to compare with
    // the simulated cycles.
    mlir::FailureOr<cost::Prediction> prediction = cost::predictCycles(*scheduled, model);
    if (mlir::failed(prediction))
      return mlir::failure();
    report.prediction = std::move(*prediction);
    report.planJson = std::move(planJson);
  }
  dc::Bundle &bundle = report.bundle;

  // 4. Bind the symbols to the interpreter's buffers.
  sim::SymbolData inputs;
  std::map<std::string, const interp::Buffer *> expected;
  for (size_t s = 0; s < bundle.symbols.size(); ++s) {
    int64_t arg = symbolArgs[s];
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
  if (options.keepBuffers)
    for (const std::unique_ptr<interp::Buffer> &buffer : initial.memory().buffers()) {
      interp::NpyArray array;
      array.dtype = interp::npyDtypeOf(buffer->kind);
      array.shape = buffer->shape;
      array.data = buffer->bytes;
      // The symbol may be longer (alignment padding); the buffer's own bytes
      // come first.
      auto simulated = report.result.buffers.find(buffer->name);
      if (simulated != report.result.buffers.end())
        std::copy_n(simulated->second.begin(),
                    std::min(simulated->second.size(), array.data.size()), array.data.begin());
      report.buffers.emplace_back(buffer->name, std::move(array));
    }

  // 6. Compare every output buffer: bit for bit, or (sum reductions) within
  // the tolerance, with M from a second interpreter run.
  std::map<int64_t, const lower::LoweredKernel::ReducedOutput *> sums, composites;
  for (const lower::LoweredKernel::ReducedOutput &r : reducedOutputs)
    if (r.combiner == "add")
      sums[r.arg] = &r;
    else if (r.combiner == "phases")
      composites[r.arg] = &r;
  std::unique_ptr<interp::Interpreter> magnitudes, accurate;
  if (!sums.empty()) {
    magnitudes = runOnAccurateSums(module, interpOptions, names, /*absolute=*/true);
    accurate = runOnAccurateSums(module, interpOptions, names, /*absolute=*/false);
    if (!magnitudes || !accurate)
      return mlir::failure();
  }
  bool injected = false;
  for (const dc::Symbol &symbol : bundle.symbols) {
    if (!symbol.isOutput)
      continue;
    std::vector<uint8_t> got = report.result.buffers.at(symbol.name);
    int64_t arg = symbolArgs[&symbol - bundle.symbols.data()];
    auto sum = sums.find(arg);
    auto composite = composites.find(arg);
    bool tolerance = sum != sums.end() || composite != composites.end();
    int64_t esize = dc::elementSizeOf(symbol.elementType)->bytes.count();
    if (options.injectFault && !injected && !got.empty()) {
      if (tolerance) {
        // A flipped low bit may be within the tolerance: make it NaN.
        std::fill(got.begin(), got.begin() + esize, 0xff);
      } else {
        got[0] ^= 1;
      }
      injected = true;
    }
    const std::vector<uint8_t> &want = expected[symbol.name]->bytes;
    OutputComparison comparison;
    comparison.name = symbol.name;
    comparison.elementType = symbol.elementType;
    comparison.elements = std::min(got.size(), want.size()) / esize;
    if (composite != composites.end()) {
      // A composite kernel of phases (softmax, layernorm, rmsnorm): §7.3's
      // rtol 1e-2 and atol 1e-3 for f16 outputs; about 10 and 1 machine
      // epsilons of the output type for the others.
      comparison.tolerance = true;
      comparison.composite = true;
      comparison.reductionLength = composite->second->length;
      double eps = machineEpsilon(symbol.elementType);
      bool f16 = symbol.elementType == "f16";
      double rtol = f16 ? 1e-2 : 10 * eps, atol = f16 ? 1e-3 : eps;
      for (int64_t i = 0; i < comparison.elements; ++i) {
        double g = elementValue(symbol.elementType, got, i);
        double r = elementValue(symbol.elementType, want, i);
        double bound = atol + rtol * std::fabs(r);
        bool ok = std::isnan(r) ? std::isnan(g)
                  : std::isinf(r) ? g == r
                                  : std::isfinite(g) && std::fabs(g - r) <= bound;
        if (std::isfinite(r) && std::isfinite(g)) {
          comparison.maxError = std::max(comparison.maxError, std::fabs(g - r));
          comparison.maxBoundFraction =
              std::max(comparison.maxBoundFraction, std::fabs(g - r) / bound);
        }
        if (!ok && comparison.firstMismatch < 0)
          comparison.firstMismatch = i;
      }
    } else if (tolerance) {
      comparison.tolerance = true;
      comparison.reductionLength = sum->second->length;
      const std::vector<uint8_t> &magnitude = magnitudes->bindings()[arg].buffer->bytes;
      const std::vector<uint8_t> &exact = accurate->bindings()[arg].buffer->bytes;
      // Both sides accumulate in the output's type (the lowering converts
      // no element types), so eps_acc = eps_out.
      double eps = machineEpsilon(symbol.elementType);
      for (int64_t i = 0; i < comparison.elements; ++i) {
        double g = elementValue(symbol.elementType, got, i);
        double r = elementValue(symbol.elementType, want, i);
        double m = elementValue(symbol.elementType, magnitude, i);
        // Against the closer of two references: the interpreter's fold and
        // the f64 sum (see runOnAccurateSums).
        double a = elementValue(symbol.elementType, exact, i);
        double bound, exactBound;
        bool okRef = withinReductionTolerance(g, r, m, eps, eps, bound);
        bool okExact = withinReductionTolerance(g, a, m, eps, eps, exactBound);
        bool ok = okRef || okExact;
        if (std::isfinite(r) && std::isfinite(g)) {
          double error = std::fabs(g - r), fraction = bound > 0 ? error / bound : 0;
          if (std::isfinite(a) && exactBound > 0 && std::fabs(g - a) / exactBound < fraction) {
            error = std::fabs(g - a);
            fraction = error / exactBound;
          }
          comparison.maxError = std::max(comparison.maxError, error);
          comparison.maxBoundFraction = std::max(comparison.maxBoundFraction, fraction);
        }
        if (!ok && comparison.firstMismatch < 0)
          comparison.firstMismatch = i;
      }
    } else {
      for (int64_t i = 0; i < comparison.elements && comparison.firstMismatch < 0; ++i)
        if (memcmp(&got[i * esize], &want[i * esize], esize) != 0)
          comparison.firstMismatch = i;
    }
    if (comparison.firstMismatch >= 0) {
      report.match = false;
      comparison.got = elementValue(symbol.elementType, got, comparison.firstMismatch);
      comparison.expected = elementValue(symbol.elementType, want, comparison.firstMismatch);
    }
    report.outputs.push_back(std::move(comparison));
  }
  return report;
}
