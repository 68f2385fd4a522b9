//===- RunCommand.cpp - `ktflow run KERNEL.mlir --arch A` -----------------===//
//
// The end-to-end check: schedules and lowers the kernel, simulates the
// device code, runs the reference interpreter on the same inputs (the
// interpreter binds the arguments — --arg files, scalars, seeded random
// fill — and the simulator receives exactly those bytes), and compares
// every output buffer. Then prints cycles, the roofline bound of the
// schedule's workload, their ratio, the limiting resource and per-unit
// utilisation. `--plan FILE` replays a plan, `--dump-plan FILE` writes the
// schedule's decisions. docs/run.md describes the output and the comparison rules.
// Exit status 1 on a mismatch or any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/InitAll.h"
#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Run/SymbolFiles.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/Sim/Simulator.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
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
static cl::opt<std::string> runPlan("plan", cl::desc("Replay the decisions of FILE"),
                                    cl::value_desc("FILE"), cl::sub(runCmd));
static cl::opt<std::string> runDumpPlan("dump-plan",
                                        cl::desc("Write the schedule's decisions to FILE"),
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

static void printPerformance(const sim::SimResult &result, const arch::ArchModel &model,
                             const arch::Workload *workload) {
  llvm::outs() << "simulated cycles: " << result.totalCycles.count() << " ("
               << sim::formatCycleTime(result.totalCycles, model) << ")\n";
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

/// --out: the simulated outputs, as `ktflow sim --out` writes them.
static int writeOutputs(mlir::MLIRContext &context, const dc::Bundle &bundle,
                        const sim::SimResult &result) {
  if (runOut.empty())
    return 0;
  if (llvm::Error e = run::writeOutputSymbols(context, bundle, result, runOut))
    return failWith(llvm::toString(std::move(e)));
  return 0;
}

/// `ktflow run K.kbin`: simulate saved device code with its inputs bound
/// from --arg NAME=FILE.npy (unbound inputs start zeroed); no comparison.
static int runBundle(mlir::MLIRContext &context, const arch::ArchModel &model) {
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
  return writeOutputs(context, *bundle, *result);
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
      llvm::StringRef(runInput).ends_with(".kasm")) {
    if (!runPlan.empty() || !runDumpPlan.empty())
      return failWith("--plan and --dump-plan need a KTIR kernel, not device code");
    return runBundle(context, *model);
  }

  auto file = mlir::openInputFile(runInput, &error);
  if (!file)
    return failWith(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::parseKernelSource(sourceMgr, context, asmState, runInput);
  if (!module)
    return 1;

  run::RunOptions options;
  options.arch = runArch;
  options.funcName = runFunc;
  options.args.assign(runArgs.begin(), runArgs.end());
  options.seed = runSeed;
  options.trace = !runTrace.empty();
  options.injectFault = runInjectFault;
  options.plan = runPlan;
  std::string message;
  mlir::FailureOr<run::RunReport> report =
      run::runKernel(*module, *model, interp::collectSourceNames(asmState), options, message);
  if (mlir::failed(report))
    return message.empty() ? 1 : failWith(message);
  if (!runTrace.empty())
    if (llvm::Error e = sim::writeChromeTrace(report->result, runTrace))
      return failWith(llvm::toString(std::move(e)));
  if (!runDumpPlan.empty()) {
    auto out = mlir::openOutputFile(runDumpPlan, &error);
    if (!out)
      return failWith(error);
    out->os() << report->plan;
    out->keep();
  }

  bool anyTolerance = llvm::any_of(report->outputs, [](const run::OutputComparison &o) {
    return o.tolerance;
  });
  if (anyTolerance)
    llvm::outs() << "comparison: bit-exact, except outputs of sum reductions: |got - ref| <= "
                    "eps*|ref| + 4*eps*sum|terms| (ktir.md 7.3; reordered sums)\n";
  else
    llvm::outs() << "comparison: bit-exact (same order of operations)\n";
  for (const run::OutputComparison &output : report->outputs) {
    if (output.firstMismatch >= 0)
      llvm::outs() << "MISMATCH in " << output.name << " at element " << output.firstMismatch
                   << ": got " << output.got << ", expected " << output.expected
                   << (output.tolerance ? " (beyond the sum tolerance)" : "") << "\n";
    else
      llvm::outs() << "match: " << output.name << " (" << output.elements << " elements)";
    if (output.tolerance)
      llvm::outs() << (output.firstMismatch >= 0 ? "  " : " ") << "tolerance: sum of "
                   << output.reductionLength << " terms, max error "
                   << llvm::format("%.3g", output.maxError) << " ("
                   << llvm::formatv("{0:f2}", output.maxBoundFraction) << " of the bound)\n";
    else if (output.firstMismatch < 0)
      llvm::outs() << "\n";
  }
  printPerformance(report->result, *model, &report->workload);
  if (int rc = writeOutputs(context, report->bundle, report->result))
    return rc;
  return report->match ? 0 : 1;
}

static ktflow::tool::CommandRegistration runRegistration(runCmd, runKernel);
