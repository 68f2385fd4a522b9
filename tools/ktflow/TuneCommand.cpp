//===- TuneCommand.cpp - `ktflow tune KERNEL --arch A -o PLAN.json` -------===//
//
// The autotuner (DESIGN.md, "Cost model and tuner"). It searches the plan
// space around the heuristic's plan, prunes with the cost model and
// confirms in the simulator:
//
//  1. the heuristic's plan is compiled, simulated and checked against the
//     interpreter: the baseline, and the first candidate;
//  2. random variants of it (PlanVariants.h: tiles rescaled by powers of
//     two, depths 1-3), drawn from `--seed`, are scheduled (no lowering)
//     and priced by lib/Cost's prediction; plans the scheduler rejects
//     (too large for the scratchpad, a tile that breaks a rule) drop out;
//  3. the `--confirm` best predicted are simulated and checked; the fastest
//     that matches the interpreter wins, so the tuned plan is never slower
//     than the heuristic's.
//
// `--budget` bounds the wall time of steps 2 and 3 (the search stops
// drawing and confirming when it is spent); a progress line on stderr
// counts the candidates. For a given seed and a budget that is not hit,
// the result is deterministic. The plan written with `-o` replays with
// `ktflow compile|run --plan`.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "PlanCache.h"
#include "PlanVariants.h"

#include "ktflow/Cost/Predict.h"
#include "ktflow/InitAll.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "ktflow/Support/Progress.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <set>

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand tuneCmd("tune", "Search plans: prune with the cost model, confirm the best "
                                      "in the simulator, write the fastest plan");
static cl::opt<std::string> tuneInput(cl::Positional, cl::Required, cl::desc("<kernel.mlir>"),
                                      cl::sub(tuneCmd));
static cl::opt<std::string> tuneArch("arch", cl::Required,
                                     cl::desc("architecture description (name or file)"),
                                     cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::list<std::string> tuneArgs("arg", cl::desc("launch value NAME=VALUE (repeatable)"),
                                      cl::value_desc("NAME=VALUE"),
                                      cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::opt<std::string> tuneOutput("o", cl::desc("write the best plan to FILE"),
                                       cl::value_desc("FILE"), cl::cat(tool::outputCategory()),
                                       cl::sub(tuneCmd));
static cl::opt<unsigned> tuneCandidates("candidates",
                                        cl::desc("random plans drawn and priced (default 64)"),
                                        cl::init(64), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneConfirm("confirm",
                                     cl::desc("best predicted plans simulated (default 4)"),
                                     cl::init(4), cl::sub(tuneCmd));
static cl::opt<double> tuneBudget("budget", cl::desc("seconds for search and confirmation "
                                                     "(default 30)"),
                                  cl::init(30), cl::sub(tuneCmd));
static cl::opt<std::string> tunePlanCache(
    "plan-cache", cl::desc("also store the best plan in DIR, keyed by the specialized kernel and "
                           "the description, for `compile|run --plan-cache DIR`"),
    cl::value_desc("DIR"), cl::cat(tool::outputCategory()), cl::sub(tuneCmd));
static cl::opt<uint64_t> tuneSeed("seed", cl::desc("seed of the search and of the inputs"),
                                  cl::init(1), cl::sub(tuneCmd));

namespace {

struct Candidate {
  std::string plan;
  double predicted = 0;
  int64_t simulated = -1;
};

int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow tune: " << message << "\n";
  return 1;
}

} // namespace

static int runTune() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  std::string error;
  std::shared_ptr<const arch::ArchModel> model = arch::ArchModel::load(context, tuneArch, error);
  if (!model)
    return error.empty() ? 1 : failWith(error);
  auto file = mlir::openInputFile(tuneInput, &error);
  if (!file)
    return failWith(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    module = tool::parseKernelSource(sourceMgr, context, asmState, tuneInput);
  }
  if (!module)
    return 1;
  interp::SourceNames names = interp::collectSourceNames(asmState);

  llvm::SmallString<128> planPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("ktflow-tune", "json", planPath))
    return failWith("cannot create a temporary plan: " + ec.message());
  auto writePlan = [&](llvm::StringRef plan) {
    std::error_code ec;
    llvm::raw_fd_ostream os(planPath, ec);
    os << plan;
    return !ec;
  };
  run::RunOptions runOptions;
  runOptions.arch = tuneArch;
  runOptions.args.assign(tuneArgs.begin(), tuneArgs.end());
  runOptions.seed = tuneSeed;
  // Compiles, simulates and checks one plan (empty: the heuristic's).
  auto simulate = [&](llvm::StringRef plan, std::string *planJson) -> int64_t {
    run::RunOptions options = runOptions;
    if (!plan.empty()) {
      if (!writePlan(plan))
        return -1;
      options.plan = planPath.str().str();
    }
    std::string message;
    mlir::FailureOr<run::RunReport> report =
        run::runKernel(*module, *model, names, options, message);
    if (mlir::failed(report) || !report->match)
      return -1;
    if (planJson)
      *planJson = report->planJson;
    return report->result.totalCycles.count();
  };

  // 1. The heuristic's plan; its diagnostics are the user's to see.
  std::string heuristicPlan;
  int64_t heuristicCycles;
  {
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    heuristicCycles = simulate("", &heuristicPlan);
  }
  if (heuristicCycles < 0)
    return failWith("the kernel does not compile, simulate and match with the heuristic's plan "
                    "(`ktflow run` says why)");

  // Candidates that do not fit are expected: their diagnostics stay quiet.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  auto start = std::chrono::steady_clock::now();
  auto spent = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // 2. Draw and price.
  std::mt19937_64 rng(tuneSeed);
  std::set<std::string> seen = {heuristicPlan};
  std::vector<Candidate> priced;
  unsigned drawn = 0, rejected = 0;
  ProgressLine progress(tuneCandidates);
  for (; drawn < tuneCandidates && spent() < tuneBudget; ++drawn) {
    progress.started("plan " + std::to_string(drawn + 1));
    auto done = llvm::make_scope_exit([&] { progress.finished(); });
    std::optional<std::string> plan = tool::randomPlanVariant(heuristicPlan, rng);
    if (!plan)
      return failWith("the heuristic's plan is not readable");
    if (!seen.insert(*plan).second || !writePlan(*plan)) {
      ++rejected;
      continue;
    }
    mlir::OwningOpRef<mlir::ModuleOp> scheduled(module->clone());
    ktsched::ScheduleOptions options;
    options.arch = tuneArch;
    options.plan = planPath.str().str();
    options.args.assign(tuneArgs.begin(), tuneArgs.end());
    mlir::PassManager pm(&context);
    ktsched::buildSchedulePipeline(pm, options);
    mlir::FailureOr<cost::Prediction> prediction = mlir::failure();
    if (mlir::succeeded(pm.run(*scheduled)))
      prediction = cost::predictCycles(*scheduled, *model);
    if (mlir::failed(prediction)) {
      ++rejected;
      continue;
    }
    priced.push_back({*plan, prediction->cycles});
  }
  std::stable_sort(priced.begin(), priced.end(), [](const Candidate &a, const Candidate &b) {
    return a.predicted < b.predicted;
  });

  // 3. Confirm the best predicted in the simulator.
  std::string bestPlan = heuristicPlan;
  int64_t bestCycles = heuristicCycles;
  unsigned confirmed = 0;
  for (Candidate &c : priced) {
    if (confirmed >= tuneConfirm || spent() >= tuneBudget)
      break;
    ++confirmed;
    std::string replayed;
    c.simulated = simulate(c.plan, &replayed);
    if (c.simulated >= 0 && c.simulated < bestCycles) {
      bestCycles = c.simulated;
      bestPlan = replayed;
    }
  }
  llvm::sys::fs::remove(planPath);

  llvm::raw_ostream &os = llvm::outs();
  os << "tuned " << tuneInput << " on " << model->name() << ": " << drawn << " plans drawn, "
     << priced.size() << " priced by the cost model (" << rejected
     << " repeated or rejected by the scheduler), " << confirmed << " simulated ("
     << llvm::format("%.1f", spent()) << " s)\n";
  // The confirmed plans are the first `confirmed` in predicted order.
  for (const Candidate &c : llvm::ArrayRef(priced).take_front(confirmed))
    os << llvm::format("  predicted %10.0f  simulated %10lld\n", c.predicted,
                       (long long)c.simulated);
  os << "heuristic: " << heuristicCycles << " cycles; tuned: " << bestCycles << " cycles ("
     << llvm::format("heuristic / tuned %.3f", double(heuristicCycles) / double(bestCycles))
     << ")\n";
  if (!tunePlanCache.empty()) {
    std::optional<std::string> key =
        tool::planCacheKey(*module, runOptions.args, tuneArch, error);
    if (!key)
      return failWith("plan cache: " + error);
    if (std::error_code ec = llvm::sys::fs::create_directories(tunePlanCache))
      return failWith("cannot create " + tunePlanCache + ": " + ec.message());
    std::string path = tool::planCachePath(tunePlanCache, *key);
    std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(path, &error);
    if (!out)
      return failWith(error);
    out->os() << bestPlan;
    out->keep();
    os << "plan cache: " << path << "\n";
  }
  if (!tuneOutput.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(tuneOutput, &error);
    if (!out)
      return failWith(error);
    out->os() << bestPlan;
    out->keep();
  }
  return 0;
}

static tool::CommandRegistration tuneRegistration(tuneCmd, runTune);
