//===- CompileCommand.cpp - `ktflow compile KERNEL --arch A` --------------===//
//
// Runs the scheduler library (ktflow/Schedule/SchedulePipeline.h) on a KTIR
// file for one architecture. `--emit=schedule` prints the schedule IR;
// `--dump-plan FILE` writes its decisions as JSON; `--plan FILE` replays an
// edited plan; `--arg NAME=VALUE` specializes the kernel on a launch value
// (ktsched-specialize), and the bundle records the values. Diagnostics go
// to stderr with locations; exit status 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "PlanCache.h"

#include "ktflow/InitAll.h"
#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Run/LaunchValues.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Plan.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::SubCommand compileCmd("compile", "Schedule a KTIR kernel for an architecture");
static cl::opt<std::string> compileInput(cl::Positional, cl::Required,
                                         cl::desc("<kernel.mlir>"), cl::sub(compileCmd));
static cl::opt<std::string> compileArch("arch",
                                        cl::desc("architecture description (name or file); "
                                                 "default: one embedded in the input"),
                                        cl::cat(ktflow::tool::inputCategory()),
                                        cl::sub(compileCmd));
static cl::opt<std::string> compileEmit("emit",
                                        cl::desc("what to print: schedule, unit (the unit "
                                                 "IR), or asm (the device code's text form)"),
                                        cl::init("schedule"),
                                        cl::cat(ktflow::tool::outputCategory()),
                                        cl::sub(compileCmd));
static cl::opt<std::string> compileDumpPlan("dump-plan",
                                            cl::desc("write the decisions as JSON to FILE"),
                                            cl::value_desc("FILE"),
                                            cl::cat(ktflow::tool::outputCategory()),
                                            cl::sub(compileCmd));
static cl::opt<std::string> compilePlan("plan", cl::desc("replay the decisions of FILE"),
                                        cl::value_desc("FILE"),
                                        cl::cat(ktflow::tool::scheduleCategory()),
                                        cl::sub(compileCmd));
static cl::opt<std::string> compilePlanCache(
    "plan-cache", cl::desc("replay the plan `ktflow tune --plan-cache DIR` stored for this kernel "
                           "and description, if any (else the heuristic's)"),
    cl::value_desc("DIR"), cl::cat(ktflow::tool::scheduleCategory()), cl::sub(compileCmd));
static cl::opt<std::string> compileOutput("o",
                                          cl::desc("lower to device code and write the "
                                                   "binary bundle to FILE"),
                                          cl::value_desc("FILE"),
                                          cl::cat(ktflow::tool::outputCategory()),
                                          cl::sub(compileCmd));
static cl::list<std::string>
    compileScalars("arg",
                   cl::desc("specialize on a launch value: NAME=VALUE, NAME as written in "
                            "the kernel or argN (docs/run.md, \"Launch values\")"),
                   cl::value_desc("NAME=VALUE"), cl::cat(ktflow::tool::inputCategory()),
                   cl::sub(compileCmd));
static cl::opt<int64_t> compileDepth("depth", cl::desc("buffer depth (default 2)"), cl::init(2),
                                     cl::cat(ktflow::tool::scheduleCategory()),
                                     cl::sub(compileCmd));

static int runCompile() {
  if (compileEmit != "schedule" && compileEmit != "unit" && compileEmit != "asm") {
    llvm::errs() << "ktflow compile: --emit=" << compileEmit
                 << " is not supported (supported: schedule, unit, asm)\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // The diagnostics locate the KTIR op; dumping the rewritten op adds noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::openKernelSource(sourceMgr, context, compileInput, "compile");
  if (!module)
    return 1;

  ktflow::ktsched::ScheduleOptions options;
  options.arch = compileArch;
  options.depth = compileDepth;
  options.plan = compilePlan;
  options.args.assign(compileScalars.begin(), compileScalars.end());
  if (!compilePlanCache.empty() && compilePlan.empty())
    if (std::optional<std::string> cached = ktflow::tool::cachedPlan(
            compilePlanCache, *module, options.args, compileArch, "compile"))
      options.plan = *cached;
  mlir::PassManager pm(&context);
  ktflow::ktsched::buildSchedulePipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;

  if (!compileDumpPlan.empty()) {
    auto out = mlir::openOutputFile(compileDumpPlan, &error);
    if (!out) {
      llvm::errs() << "ktflow compile: " << error << "\n";
      return 1;
    }
    ktflow::ktsched::writePlan(*module, out->os());
    out->keep();
  }
  if (compileEmit == "asm" || compileEmit == "unit" || !compileOutput.empty()) {
    std::shared_ptr<const ktflow::arch::ArchModel> model =
        ktflow::ktsched::getArchModel(*module, compileArch);
    if (!model)
      return 1;
    ktflow::lower::LowerOptions lowerOptions;
    mlir::FailureOr<ktflow::lower::LoweredKernel> lowered =
        ktflow::lower::lowerSchedule(*module, *model, lowerOptions);
    if (mlir::failed(lowered))
      return 1;
    ktflow::run::recordLaunchValues(*module, lowered->bundle);
    if (!compileOutput.empty())
      if (llvm::Error err = ktflow::dc::writeBundleFile(compileOutput, lowered->bundle)) {
        llvm::errs() << "ktflow compile: " << llvm::toString(std::move(err)) << "\n";
        return 1;
      }
    if (compileEmit == "asm")
      ktflow::dc::printBundle(lowered->bundle, llvm::outs());
    if (compileEmit == "unit") {
      lowered->unit->print(llvm::outs());
      llvm::outs() << "\n";
    }
    return 0;
  }
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}

static ktflow::tool::CommandRegistration compileRegistration(compileCmd, runCompile);
