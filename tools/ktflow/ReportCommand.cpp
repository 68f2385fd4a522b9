//===- ReportCommand.cpp - `ktflow report KERNEL.mlir --arch A -o F.html` -===//
//
// `ktflow run` with the HTML report as its product: compiles (replaying
// --plan if given), simulates with the trace on, checks every output
// against the interpreter, writes the self-contained page (lib/Report)
// and prints a three-line summary. The page is written on a mismatch too
// (it shows the mismatch); the exit status is then 1, as for `run`.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/InitAll.h"
#include "ktflow/Report/HtmlReport.h"
#include "ktflow/Run/RunKernel.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand reportCmd("report", "Compile, simulate and check a kernel; write an HTML "
                                          "report (timeline, roofline, links, decisions)");
static cl::opt<std::string> reportInput(cl::Positional, cl::Required, cl::desc("<kernel.mlir>"),
                                        cl::sub(reportCmd));
static cl::opt<std::string> reportArch("arch", cl::Required,
                                       cl::desc("Architecture description (name or file)"),
                                       cl::sub(reportCmd));
static cl::opt<std::string> reportFunc("func", cl::desc("Kernel function to launch"),
                                       cl::value_desc("NAME"), cl::sub(reportCmd));
static cl::list<std::string> reportArgs("arg",
                                        cl::desc("Bind an argument: NAME=FILE.npy or NAME=VALUE"),
                                        cl::value_desc("NAME=FILE.npy|NAME=VALUE"),
                                        cl::sub(reportCmd));
static cl::opt<uint64_t> reportSeed("seed", cl::desc("Seed for random buffer contents"),
                                    cl::init(0), cl::sub(reportCmd));
static cl::opt<std::string> reportPlan("plan", cl::desc("Replay the decisions of a plan file"),
                                       cl::value_desc("FILE"), cl::sub(reportCmd));
static cl::opt<size_t> reportTimelineEvents(
    "timeline-events",
    cl::desc("Draw at most N trace events one by one; a longer trace is drawn in bins"),
    cl::value_desc("N"), cl::init(report::TimelineLimits().maxExactEvents), cl::sub(reportCmd));
static cl::opt<std::string> reportOutput("o", cl::Required, cl::desc("Write the report to FILE"),
                                         cl::value_desc("FILE.html"), cl::sub(reportCmd));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow report: " << message << "\n";
  return 1;
}

/// The command as a reader would retype it, shown in the page.
static std::string commandLine() {
  std::string text = "ktflow report " + reportInput + " --arch " + reportArch;
  if (!reportFunc.empty())
    text += " --func " + reportFunc;
  for (const std::string &arg : reportArgs)
    text += " --arg " + arg;
  if (reportSeed != 0)
    text += " --seed " + std::to_string(reportSeed);
  if (!reportPlan.empty())
    text += " --plan " + reportPlan;
  if (reportTimelineEvents.getNumOccurrences())
    text += " --timeline-events " + std::to_string(reportTimelineEvents);
  return text + " -o " + reportOutput;
}

static int runReport() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::shared_ptr<const arch::ArchModel> model =
      arch::ArchModel::load(context, reportArch, error);
  if (!model)
    return error.empty() ? 1 : failWith(error);
  auto file = mlir::openInputFile(reportInput, &error);
  if (!file)
    return failWith(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tool::parseKernelSource(sourceMgr, context, asmState, reportInput);
  if (!module)
    return 1;

  run::RunOptions options;
  options.arch = reportArch;
  options.funcName = reportFunc;
  options.args.assign(reportArgs.begin(), reportArgs.end());
  options.seed = reportSeed;
  options.plan = reportPlan;
  options.trace = true;
  std::string message;
  mlir::FailureOr<run::RunReport> run =
      run::runKernel(*module, *model, interp::collectSourceNames(asmState), options, message);
  if (mlir::failed(run))
    return message.empty() ? 1 : failWith(message);
  report::ReportInput input = report::reportOfRun(*run, *model, reportInput, commandLine());
  input.timelineLimits.maxExactEvents = reportTimelineEvents;
  if (llvm::Error e = report::writeHtmlReportFile(input, reportOutput))
    return failWith(llvm::toString(std::move(e)));

  size_t mismatches = llvm::count_if(
      run->outputs, [](const run::OutputComparison &o) { return o.firstMismatch >= 0; });
  if (mismatches)
    llvm::outs() << "MISMATCH in " << mismatches << " of " << run->outputs.size()
                 << " outputs (see the report)\n";
  else
    llvm::outs() << "match: " << run->outputs.size() << " outputs\n";
  llvm::outs() << "simulated cycles: " << run->result.totalCycles.count();
  llvm::Expected<arch::RooflineBound> bound = model->roofline(run->workload);
  if (!bound)
    llvm::consumeError(bound.takeError());
  else if (bound->limiting)
    llvm::outs() << ", " << llvm::format("%.2f", run->result.totalCycles.count() /
                                                     std::max(1.0, bound->cycles))
                 << " x the roofline bound (limited by "
                 << model->resourceName(bound->loads[*bound->limiting].resource) << ")";
  llvm::outs() << "\nreport: " << reportOutput << "\n";
  return mismatches ? 1 : 0;
}

static ktflow::tool::CommandRegistration reportRegistration(reportCmd, runReport);
