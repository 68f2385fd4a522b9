//===- RunCommand.cpp - `ktflow run KERNEL.mlir --arch A` -----------------===//
//
// The end-to-end check: schedules and lowers the kernel, simulates the
// device code, runs the reference interpreter on the same inputs (the
// interpreter binds the arguments — --arg files, scalars, seeded random
// fill — and the simulator receives exactly those bytes), and compares
// every output buffer. Then prints cycles, the roofline bound of the
// schedule's workload, their ratio, the limiting resource and per-unit
// utilisation. docs/run.md describes the output and the comparison rules.
// Exit status 1 on a mismatch or any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "ktflow/InitAll.h"
#include "ktflow/Interp/Float16.h"
#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/Sim/Simulator.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand runCmd("run", "Compile, simulate and check a kernel against the interpreter");
static cl::opt<std::string> runInput(cl::Positional, cl::Required,
                                     cl::desc("<kernel.mlir|bundle.kbin>"), cl::sub(runCmd));
static cl::opt<std::string> runArch("arch", cl::Required,
                                    cl::desc("Architecture description (name or file)"),
                                    cl::sub(runCmd));
static cl::opt<std::string> runFunc("func", cl::desc("Kernel function to launch"),
                                    cl::value_desc("NAME"), cl::sub(runCmd));
static cl::list<std::string> runArgs("arg",
                                     cl::desc("Bind an argument: NAME=FILE.npy or NAME=VALUE"),
                                     cl::value_desc("NAME=FILE.npy|NAME=VALUE"), cl::sub(runCmd));
static cl::opt<uint64_t> runSeed("seed", cl::desc("Seed for random buffer contents"),
                                 cl::init(0), cl::sub(runCmd));
static cl::opt<std::string> runOut("out", cl::desc("Write the simulated buffers as DIR/NAME.npy"),
                                   cl::value_desc("DIR"), cl::sub(runCmd));
static cl::opt<std::string> runTrace("trace", cl::desc("Write a Chrome trace JSON"),
                                     cl::value_desc("FILE"), cl::sub(runCmd));
static cl::opt<bool> runInjectFault(
    "inject-fault",
    cl::desc("Testing only: flip one bit of the first simulated output before comparing, "
             "so the comparison must report a mismatch"),
    cl::sub(runCmd));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow run: " << message << "\n";
  return 1;
}

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

static void printPerformance(const sim::SimResult &result, const arch::ArchModel &model,
                             const arch::Workload *workload) {
  llvm::outs() << "simulated cycles: " << result.totalCycles.count() << "\n";
  if (workload) {
    llvm::Expected<arch::RooflineBound> bound = model.roofline(*workload);
    if (!bound) {
      llvm::outs() << "roofline bound: unavailable (" << llvm::toString(bound.takeError())
                   << ")\n";
    } else if (bound->limiting) {
      const arch::ResourceLoad &limit = bound->loads[*bound->limiting];
      double cycles = std::max(1.0, bound->cycles);
      llvm::outs() << "roofline bound: " << llvm::format("%.0f", bound->cycles)
                   << " cycles, limited by " << model.resourceName(limit.resource) << "\n";
      llvm::outs() << "cycles / bound: "
                   << llvm::format("%.2f", double(result.totalCycles.count()) / cycles) << "\n";
    }
  }
  llvm::outs() << "unit utilisation (busy / total cycles):\n";
  double total = std::max<int64_t>(1, result.totalCycles.count());
  for (const sim::UnitStats &unit : result.units)
    llvm::outs() << "  " << unit.name << ": "
                 << llvm::format("%.1f%%", 100.0 * unit.busy.count() / total) << " busy, "
                 << unit.stall.count() << " stall cycles\n";
}

static int writeOutputs(const dc::Bundle &bundle, const sim::SimResult &result) {
  if (runOut.empty())
    return 0;
  if (std::error_code ec = llvm::sys::fs::create_directories(runOut))
    return failWith("cannot create '" + runOut + "': " + ec.message());
  for (const dc::Symbol &s : bundle.symbols) {
    if (!s.isOutput)
      continue;
    interp::NpyArray array;
    array.dtype = s.elementType == "f16" ? "<f2" : s.elementType == "f32" ? "<f4" : "|u1";
    array.shape = s.shape;
    array.data = result.buffers.at(s.name);
    llvm::SmallString<128> path(runOut);
    llvm::sys::path::append(path, s.name + ".npy");
    if (llvm::Error e = interp::writeNpy(path, array))
      return failWith(llvm::toString(std::move(e)));
  }
  return 0;
}

/// `ktflow run K.kbin`: simulate saved device code with its inputs bound
/// from --arg NAME=FILE.npy (unbound inputs start zeroed); no comparison.
static int runBundle(const arch::ArchModel &model) {
  llvm::Expected<dc::Bundle> bundle = dc::loadBundleFile(runInput);
  if (!bundle)
    return failWith(llvm::toString(bundle.takeError()));
  sim::SymbolData inputs;
  for (const std::string &arg : runArgs) {
    auto [name, file] = llvm::StringRef(arg).split('=');
    llvm::Expected<interp::NpyArray> array = interp::readNpy(file);
    if (!array)
      return failWith(llvm::toString(array.takeError()));
    inputs[name.str()] = std::move(array->data);
  }
  sim::SimOptions options;
  options.trace = !runTrace.empty();
  llvm::Expected<sim::SimResult> result = sim::simulate(*bundle, model, inputs, options);
  if (!result)
    return failWith(llvm::toString(result.takeError()));
  if (result->deadlock)
    return failWith(*result->deadlock);
  llvm::outs() << "comparison: none (device code only)\n";
  printPerformance(*result, model, nullptr);
  if (!runTrace.empty())
    if (llvm::Error e = sim::writeChromeTrace(*result, runTrace))
      return failWith(llvm::toString(std::move(e)));
  return writeOutputs(*bundle, *result);
}

static int runKernel() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::shared_ptr<const arch::ArchModel> model = arch::ArchModel::load(context, runArch, error);
  if (!model)
    return error.empty() ? 1 : failWith(error);
  if (llvm::StringRef(runInput).ends_with(".kbin") ||
      llvm::StringRef(runInput).ends_with(".kasm"))
    return runBundle(*model);

  auto file = mlir::openInputFile(runInput, &error);
  if (!file)
    return failWith(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::Block block;
  mlir::ParserConfig config(&context);
  if (mlir::failed(mlir::parseAsmSourceFile(sourceMgr, &block, config, &asmState)))
    return 1;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::hasSingleElement(block) && mlir::isa<mlir::ModuleOp>(block.front())) {
    module = mlir::cast<mlir::ModuleOp>(block.front());
    module->getOperation()->remove();
  } else {
    module = mlir::ModuleOp::create(mlir::FileLineColLoc::get(&context, runInput, 1, 1));
    auto &ops = module->getBody()->getOperations();
    ops.splice(ops.end(), block.getOperations());
  }
  if (mlir::failed(mlir::verify(*module)))
    return 1;

  // 1. The inputs, bound exactly as `ktflow interp` binds them.
  interp::InterpOptions interpOptions;
  interpOptions.funcName = runFunc;
  interpOptions.args.assign(runArgs.begin(), runArgs.end());
  interpOptions.seed = runSeed;
  interp::SourceNames names = interp::collectSourceNames(asmState);
  interp::InterpOptions bindOptions = interpOptions;
  bindOptions.bindOnly = true;
  interp::Interpreter initial(*module, bindOptions, names);
  if (mlir::failed(initial.run()))
    return 1;
  // 2. The oracle.
  interp::Interpreter oracle(*module, interpOptions, names);
  if (mlir::failed(oracle.run()))
    return 1;

  // 3. Schedule and lower a copy (the scheduler rewrites the module).
  mlir::OwningOpRef<mlir::ModuleOp> scheduled = module->clone();
  if (!runFunc.empty())
    for (auto func : llvm::make_early_inc_range(scheduled->getOps<mlir::func::FuncOp>()))
      if (func.getName() != runFunc)
        func.erase();
  ktsched::ScheduleOptions scheduleOptions;
  scheduleOptions.arch = runArch;
  mlir::PassManager pm(&context);
  ktsched::buildSchedulePipeline(pm, scheduleOptions);
  if (mlir::failed(pm.run(*scheduled)))
    return 1;
  lower::LowerOptions lowerOptions;
  const auto &bindings = initial.bindings();
  for (size_t i = 0; i < bindings.size(); ++i)
    if (bindings[i].kind == interp::ArgumentBinding::Kind::Scalar) {
      double value = 0;
      if (!llvm::StringRef(bindings[i].value).getAsDouble(value))
        lowerOptions.scalarArgs[i] = value;
    }
  mlir::FailureOr<lower::LoweredKernel> lowered =
      lower::lowerSchedule(*scheduled, *model, lowerOptions);
  if (mlir::failed(lowered))
    return 1;
  dc::Bundle &bundle = lowered->bundle;

  // 4. Bind the symbols to the interpreter's buffers.
  sim::SymbolData inputs;
  std::map<std::string, const interp::Buffer *> expected;
  for (size_t s = 0; s < bundle.symbols.size(); ++s) {
    int64_t arg = lowered->symbolArgs[s];
    if (arg < 0 || arg >= (int64_t)bindings.size() || !bindings[arg].buffer)
      return failWith("kernel argument " + llvm::Twine(arg) + " is not a buffer");
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
  simOptions.trace = !runTrace.empty();
  llvm::Expected<sim::SimResult> result = sim::simulate(bundle, *model, inputs, simOptions);
  if (!result)
    return failWith(llvm::toString(result.takeError()));
  if (result->deadlock)
    return failWith(*result->deadlock);
  if (!runTrace.empty())
    if (llvm::Error e = sim::writeChromeTrace(*result, runTrace))
      return failWith(llvm::toString(std::move(e)));

  // 6. Compare every output buffer, bit for bit: the lowering keeps the
  // interpreter's order of operations (elementwise bodies, one rounding per
  // op), so the tolerance of ktir.md §7.3 is never needed for what it lowers.
  bool injected = false;
  bool match = true;
  llvm::outs() << "comparison: bit-exact (same order of operations)\n";
  for (const dc::Symbol &symbol : bundle.symbols) {
    if (!symbol.isOutput)
      continue;
    std::vector<uint8_t> got = result->buffers.at(symbol.name);
    if (runInjectFault && !injected && !got.empty()) {
      got[0] ^= 1;
      injected = true;
    }
    const std::vector<uint8_t> &want = expected[symbol.name]->bytes;
    int64_t esize = dc::elementSizeOf(symbol.elementType)->bytes.count();
    int64_t count = std::min(got.size(), want.size()) / esize;
    int64_t bad = -1;
    for (int64_t i = 0; i < count && bad < 0; ++i)
      if (memcmp(&got[i * esize], &want[i * esize], esize) != 0)
        bad = i;
    if (bad >= 0) {
      match = false;
      llvm::outs() << "MISMATCH in " << symbol.name << " at element " << bad << ": got "
                   << elementValue(symbol.elementType, got, bad) << ", expected "
                   << elementValue(symbol.elementType, want, bad) << "\n";
    } else {
      llvm::outs() << "match: " << symbol.name << " (" << count << " elements)\n";
    }
  }
  printPerformance(*result, *model, &lowered->workload);
  if (int rc = writeOutputs(bundle, *result))
    return rc;
  return match ? 0 : 1;
}

static ktflow::tool::CommandRegistration runRegistration(runCmd, runKernel);
