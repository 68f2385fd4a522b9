//===- RunCommand.cpp - `ktflow run KERNEL.mlir --arch A` -----------------===//
//
// The end-to-end check: schedules and lowers the kernel, simulates the
// device code, runs the reference interpreter on the same inputs (the
// interpreter binds the arguments — --arg files, scalars, seeded random
// fill — and the simulator receives exactly those bytes), and compares
// every output buffer. Then prints the summary of RunSummary.h (cycles, the
// roofline bound of the schedule's workload, their ratio, the limiting
// resource, the plan; per-unit utilisation with --verbose). `--plan FILE`
// replays a plan, `--dump-plan FILE` writes the schedule's decisions.
// docs/run.md describes the output and the comparison rules.
// Exit status 1 on a mismatch or any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "PlanCache.h"
#include "RunSummary.h"

#include "ktflow/InitAll.h"
#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Report/HtmlReport.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Run/LaunchValues.h"
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
                                    cl::cat(ktflow::tool::inputCategory()), cl::sub(runCmd));
static cl::opt<std::string> runFunc("func", cl::desc("Kernel function to launch"),
                                    cl::value_desc("NAME"), cl::cat(ktflow::tool::inputCategory()),
                                    cl::sub(runCmd));
static cl::list<std::string> runArgs("arg",
                                     cl::desc("Bind an argument: NAME=FILE.npy or NAME=VALUE"),
                                     cl::value_desc("NAME=FILE.npy|NAME=VALUE"),
                                     cl::cat(ktflow::tool::inputCategory()), cl::sub(runCmd));
static cl::opt<uint64_t> runSeed("seed", cl::desc("Seed for random buffer contents"), cl::init(0),
                                 cl::cat(ktflow::tool::inputCategory()), cl::sub(runCmd));
static cl::opt<std::string>
    runOut("out",
           cl::desc("Write every buffer, inputs and outputs, as DIR/NAME.npy in the kernel's "
                    "shapes (as `ktflow interp --out`; outputs of a .kbin: flat)"),
           cl::value_desc("DIR"), cl::cat(ktflow::tool::outputCategory()), cl::sub(runCmd));
static cl::opt<bool> runVerbose("verbose", cl::desc("Also print per-unit utilisation"),
                                cl::cat(ktflow::tool::outputCategory()), cl::sub(runCmd));
static cl::opt<std::string> runTrace("trace", cl::desc("Write a Chrome trace JSON"),
                                     cl::value_desc("FILE"),
                                     cl::cat(ktflow::tool::outputCategory()), cl::sub(runCmd));
static cl::opt<std::string> runReport("report",
                                      cl::desc("Write an HTML report (lib/Report, docs/run.md)"),
                                      cl::value_desc("FILE.html"),
                                      cl::cat(ktflow::tool::outputCategory()), cl::sub(runCmd));
static cl::opt<std::string> runPlan("plan", cl::desc("Replay the decisions of FILE"),
                                    cl::value_desc("FILE"),
                                    cl::cat(ktflow::tool::scheduleCategory()), cl::sub(runCmd));
static cl::opt<std::string> runPlanCache(
    "plan-cache", cl::desc("replay the plan `ktflow tune --plan-cache DIR` stored for this kernel "
                           "and description, if any (else the heuristic's)"),
    cl::value_desc("DIR"), cl::cat(ktflow::tool::scheduleCategory()), cl::sub(runCmd));
static cl::opt<std::string> runDeviceCode(
    "device-code",
    cl::desc("Run this device code (.kbin/.kasm, compiled from the kernel, launch values "
             "possibly left unbound) instead of compiling; compare it with the interpreter"),
    cl::value_desc("K.kbin"), cl::cat(ktflow::tool::scheduleCategory()), cl::sub(runCmd));
static cl::opt<std::string> runDumpPlan("dump-plan",
                                        cl::desc("Write the schedule's decisions to FILE"),
                                        cl::value_desc("FILE"),
                                        cl::cat(ktflow::tool::scheduleCategory()),
                                        cl::sub(runCmd));
static cl::opt<bool> runInjectFault(
    "inject-fault",
    cl::desc("Testing only: flip one bit of the first simulated output before comparing, "
             "so the comparison must report a mismatch"),
    cl::cat(ktflow::tool::limitsCategory()), cl::sub(runCmd));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow run: " << message << "\n";
  return 1;
}

/// --report: the HTML page of this run (`input` says what it shows).
static int writeReport(report::ReportInput input) {
  if (runReport.empty())
    return 0;
  input.command = "ktflow run " + runInput + " --arch " + runArch + " --report " + runReport;
  if (llvm::Error e = report::writeHtmlReportFile(input, runReport))
    return failWith(llvm::toString(std::move(e)));
  return 0;
}

/// --out for saved device code: the simulated outputs, as `ktflow sim --out`
/// writes them (a bundle carries no kernel shapes).
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
    if (const dc::LaunchValue *launch = run::findLaunchValue(*bundle, name)) {
      if (llvm::Error e = run::checkLaunchValue(*launch, file))
        return failWith(llvm::toString(std::move(e)));
      continue;
    }
    llvm::Expected<interp::NpyArray> array = interp::readNpy(file);
    if (!array)
      return failWith(llvm::toString(array.takeError()));
    inputs[name.str()] = std::move(array->data);
  }
  if (llvm::Error e = run::bindRunTimeLaunchValues(*bundle, runArgs))
    return failWith(llvm::toString(std::move(e)));
  sim::SimOptions options;
  options.trace = !runTrace.empty() || !runReport.empty();
  llvm::Expected<sim::SimResult> result = sim::simulate(*bundle, model, inputs, options);
  if (!result)
    return failWith(llvm::toString(result.takeError()));
  if (result->deadlock)
    return failWith(*result->deadlock);
  llvm::outs() << "comparison: none (device code only)\n";
  tool::printPerformance(llvm::outs(), *result, model, nullptr, runVerbose);
  report::ReportInput reportInput;
  reportInput.title = runInput;
  reportInput.model = &model;
  reportInput.result = &*result;
  if (int rc = writeReport(reportInput))
    return rc;
  if (!runReport.empty())
    llvm::outs() << "report: " << runReport << "\n";
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
  options.trace = !runTrace.empty() || !runReport.empty();
  options.injectFault = runInjectFault;
  options.keepBuffers = !runOut.empty();
  options.plan = runPlan;
  if (!runPlanCache.empty() && runPlan.empty())
    if (std::optional<std::string> cached =
            tool::cachedPlan(runPlanCache, *module, options.args, runArch, "run"))
      options.plan = *cached;
  options.deviceCode = runDeviceCode;
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
    out->os() << report->planJson;
    out->keep();
  }

  if (int rc = writeReport(report::reportOfRun(*report, *model, runInput, "")))
    return rc;
  tool::RunSummaryOptions summary;
  summary.verbose = runVerbose;
  summary.reportPath = runReport;
  tool::printRunSummary(llvm::outs(), *report, *model, summary);
  if (!runOut.empty())
    if (llvm::Error e = run::writeArrays(report->buffers, runOut))
      return failWith(llvm::toString(std::move(e)));
  return report->match ? 0 : 1;
}

static ktflow::tool::CommandRegistration runRegistration(runCmd, runKernel);
