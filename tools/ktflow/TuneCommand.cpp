//===- TuneCommand.cpp - `ktflow tune KERNEL --arch A -o PLAN.json` -------===//
//
// The autotuner's command line (the search is lib/Tune, Tuner.h): parses
// the kernel and the description, runs tune::tuneKernel on --jobs threads
// (each worker parses the kernel again into its own context), prints what
// it priced and simulated, and writes the fastest plan (-o, --plan-cache).
// A progress line on stderr after each batch: rewritten in place on a
// terminal; with --progress also when stderr is a file or a pipe, one line
// per batch.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "PlanCache.h"

#include "ktflow/InitAll.h"
#include "ktflow/Tune/Tuner.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

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
                                     cl::desc("plans simulated at most, besides the heuristic's "
                                              "(default 16)"),
                                     cl::init(16), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneBatch("batch",
                                   cl::desc("plans simulated per batch (default 4; fixed, so the "
                                            "result does not depend on --jobs)"),
                                   cl::init(4), cl::sub(tuneCmd));
static cl::opt<double> tuneBudget("budget",
                                  cl::desc("seconds after which no new batch starts (default 30)"),
                                  cl::init(30), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneMaxBatches(
    "max-batches", cl::desc("stop after N batches (0: no limit): replays a search the budget cut"),
    cl::init(0), cl::sub(tuneCmd));
static cl::opt<unsigned> tuneJobs("jobs",
                                  cl::desc("threads pricing and simulating plans (default: the "
                                           "machine's hardware threads)"),
                                  cl::value_desc("N"), cl::init(0), cl::sub(tuneCmd));
static cl::opt<bool> tuneProgress("progress",
                                  cl::desc("a progress line per batch on stderr even when it is "
                                           "not a terminal"),
                                  cl::cat(tool::outputCategory()), cl::sub(tuneCmd));
static cl::opt<std::string> tunePlanCache(
    "plan-cache", cl::desc("also store the best plan in DIR, keyed by the specialized kernel and "
                           "the description, for `compile|run --plan-cache DIR`"),
    cl::value_desc("DIR"), cl::cat(tool::outputCategory()), cl::sub(tuneCmd));
static cl::opt<uint64_t> tuneSeed("seed", cl::desc("seed of the search and of the inputs"),
                                  cl::init(1), cl::sub(tuneCmd));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow tune: " << message << "\n";
  return 1;
}

namespace {
/// The progress line: on a terminal one line rewritten after each batch;
/// with --progress elsewhere one line per batch.
class TuneProgressLine {
public:
  TuneProgressLine() : terminal(llvm::sys::Process::StandardErrIsDisplayed()) {}
  ~TuneProgressLine() {
    if (terminal && drawn)
      llvm::errs() << "\r\x1b[K";
  }
  bool enabled() const { return terminal || tuneProgress; }
  void draw(const tune::TuneProgress &p) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "tune: batch " << p.batches << ": " << p.priced << " priced (" << p.rejected
       << " rejected), " << p.simulated << " simulated, best " << p.bestCycles
       << " cycles (heuristic " << p.heuristicCycles << "), "
       << llvm::format("%.1f / %.0f s", p.elapsedSeconds, p.budgetSeconds);
    if (terminal) {
      unsigned columns = llvm::sys::Process::StandardErrColumns();
      if (columns > 1 && text.size() >= columns)
        text.resize(columns - 1);
      llvm::errs() << "\r" << text << "\x1b[K";
    } else {
      llvm::errs() << text << "\n";
    }
    llvm::errs().flush();
    drawn = true;
  }

private:
  const bool terminal;
  bool drawn = false;
};
} // namespace

static bool writeFile(llvm::StringRef path, llvm::StringRef text, std::string &error) {
  std::unique_ptr<llvm::ToolOutputFile> out = mlir::openOutputFile(path, &error);
  if (!out)
    return false;
  out->os() << text;
  out->keep();
  return true;
}

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
  std::string source = file->getBuffer().str();
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tool::parseKernelSource(sourceMgr, context, asmState, tuneInput);
  if (!module)
    return 1;
  interp::SourceNames names = interp::collectSourceNames(asmState);
  // Each worker thread parses its own copy.
  tune::KernelLoader loader = [&](mlir::MLIRContext &workerContext,
                                  interp::SourceNames &workerNames) {
    llvm::SourceMgr workerSourceMgr;
    workerSourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, tuneInput),
                                       llvm::SMLoc());
    mlir::AsmParserState workerState;
    mlir::OwningOpRef<mlir::ModuleOp> parsed =
        tool::parseKernelSource(workerSourceMgr, workerContext, workerState, tuneInput);
    if (parsed)
      workerNames = interp::collectSourceNames(workerState);
    return parsed;
  };

  tune::TuneOptions options;
  options.arch = tuneArch;
  options.args.assign(tuneArgs.begin(), tuneArgs.end());
  options.seed = tuneSeed;
  options.candidates = tuneCandidates;
  options.confirm = tuneConfirm;
  options.batch = tuneBatch;
  options.budgetSeconds = tuneBudget;
  options.maxBatches = tuneMaxBatches;
  options.jobs = tuneJobs;
  mlir::FailureOr<tune::TuneResult> result = mlir::failure();
  {
    TuneProgressLine progress;
    if (progress.enabled())
      options.onProgress = [&](const tune::TuneProgress &p) { progress.draw(p); };
    result = tune::tuneKernel(*module, names, *model, loader, options, error);
  }
  if (mlir::failed(result))
    return failWith(error + " (`ktflow run` says why)");

  llvm::raw_ostream &os = llvm::outs();
  unsigned jobs = tuneJobs ? unsigned(tuneJobs) : 0;
  os << "tuned " << tuneInput << " on " << model->name() << ": " << result->candidates.size()
     << " plans generated, " << result->priced << " priced by the cost model ("
     << result->rejected << " rejected by the scheduler, " << result->duplicates
     << " the same schedule as another), " << result->simulated
     << " simulated in " << result->batches << " batches ("
     << llvm::format("%.1f s", result->seconds);
  if (jobs)
    os << ", " << jobs << " jobs";
  os << ")\n";
  if (result->budgetHit && result->batches == 0)
    os << "stopped by the budget before the first batch\n";
  else if (result->budgetHit)
    os << "stopped by the budget after " << result->batches << " batches (--max-batches "
       << result->batches << " replays this search)\n";
  // The simulated plans, in the order they were simulated.
  std::vector<const tune::TuneCandidate *> simulated;
  for (const tune::TuneCandidate &c : result->candidates)
    if (c.batch)
      simulated.push_back(&c);
  // Batch order, and within a batch generation order (one vector).
  std::sort(simulated.begin(), simulated.end(), [](auto *a, auto *b) {
    return a->batch != b->batch ? a->batch < b->batch : a < b;
  });
  for (const tune::TuneCandidate *c : simulated) {
    os << llvm::format("  batch %3u  %-12s predicted %10.0f  simulated ", c->batch,
                       c->origin.c_str(), c->predicted);
    if (c->simulated >= 0)
      os << llvm::format("%10lld\n", (long long)c->simulated);
    else
      os << "  mismatch or failure\n";
  }
  os << "heuristic: " << result->heuristicCycles << " cycles (predicted "
     << llvm::format("%.0f", result->heuristicPredicted) << "); tuned: " << result->bestCycles
     << " cycles (predicted " << llvm::format("%.0f", result->bestPredicted) << "; "
     << llvm::format("heuristic / tuned %.3f", double(result->heuristicCycles) /
                                                   double(result->bestCycles))
     << ")\n";
  os << "best plan found after batch " << result->bestBatch << " ("
     << llvm::format("%.1f s", result->bestSeconds) << ")\n";
  if (!tunePlanCache.empty()) {
    std::optional<std::string> key =
        tool::planCacheKey(*module, options.args, tuneArch, error);
    if (!key)
      return failWith("plan cache: " + error);
    if (std::error_code ec = llvm::sys::fs::create_directories(tunePlanCache))
      return failWith("cannot create " + tunePlanCache + ": " + ec.message());
    std::string path = tool::planCachePath(tunePlanCache, *key);
    if (!writeFile(path, result->bestPlan, error))
      return failWith(error);
    os << "plan cache: " << path << "\n";
  }
  if (!tuneOutput.empty() && !writeFile(tuneOutput, result->bestPlan, error))
    return failWith(error);
  return 0;
}

static tool::CommandRegistration tuneRegistration(tuneCmd, runTune);
