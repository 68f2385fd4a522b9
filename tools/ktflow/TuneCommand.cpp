//===- TuneCommand.cpp - `ktflow tune KERNEL --arch A -o PLAN.json` -------===//
//
// The autotuner's command line (the search is lib/Tune, Tuner.h). Three
// forms:
//  - `tune KERNEL --arch A`: parses the kernel and the description, runs
//    tune::tuneKernel on --jobs threads (each worker parses the kernel
//    again into its own context), prints what it priced and simulated, and
//    writes the fastest plan (-o, --plan-cache);
//  - `tune --list FILE --shard I/N --plan-cache DIR`: the same for the
//    list's lines I, I+N, I+2N, ... (one kernel, description and launch
//    values a line), into the shard's own plan cache: N processes, on one
//    machine or many, share a list without talking to each other;
//  - `tune merge DIR... -o DIR`: the shards' caches into one, keeping the
//    faster measured plan of a key several hold.
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
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand tuneCmd("tune", "Search plans: prune with the cost model, confirm the best "
                                      "in the simulator, write the fastest plan");
static cl::list<std::string> tuneInputs(cl::Positional,
                                        cl::desc("<kernel.mlir> | merge <cache-dir>..."),
                                        cl::sub(tuneCmd));
static cl::opt<std::string> tuneArch("arch",
                                     cl::desc("architecture description (name or file) of "
                                              "KERNEL"),
                                     cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::opt<std::string> tuneList(
    "list",
    cl::desc("tune the kernels of FILE, one a line: KERNEL.mlir ARCH [NAME=VALUE]... (# starts "
             "a comment; a relative KERNEL is relative to FILE's directory); needs --plan-cache"),
    cl::value_desc("FILE"), cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::opt<std::string> tuneShard(
    "shard", cl::desc("with --list: tune lines I, I+N, I+2N, ... of the list (0 <= I < N)"),
    cl::value_desc("I/N"), cl::init("0/1"), cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::list<std::string> tuneArgs("arg", cl::desc("launch value NAME=VALUE (repeatable)"),
                                      cl::value_desc("NAME=VALUE"),
                                      cl::cat(tool::inputCategory()), cl::sub(tuneCmd));
static cl::opt<std::string> tuneOutput("o", cl::desc("write the best plan to FILE (`tune merge`: "
                                                     "the merged cache DIR)"),
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

/// Tunes one kernel; `planCache` and `output` may be empty. `shardLine`
/// (list mode) prints one summary line instead of the whole table.
static int tuneOne(llvm::StringRef kernelPath, llvm::StringRef archName,
                   llvm::ArrayRef<std::string> args, llvm::StringRef planCache,
                   llvm::StringRef output, bool shardLine) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  std::string error;
  std::shared_ptr<const arch::ArchModel> model = arch::ArchModel::load(context, archName, error);
  if (!model)
    return error.empty() ? 1 : failWith(error);
  auto file = mlir::openInputFile(kernelPath, &error);
  if (!file)
    return failWith(error);
  std::string source = file->getBuffer().str();
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tool::parseKernelSource(sourceMgr, context, asmState, kernelPath);
  if (!module)
    return 1;
  interp::SourceNames names = interp::collectSourceNames(asmState);
  // Each worker thread parses its own copy.
  tune::KernelLoader loader = [&](mlir::MLIRContext &workerContext,
                                  interp::SourceNames &workerNames) {
    llvm::SourceMgr workerSourceMgr;
    workerSourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, kernelPath), llvm::SMLoc());
    mlir::AsmParserState workerState;
    mlir::OwningOpRef<mlir::ModuleOp> parsed =
        tool::parseKernelSource(workerSourceMgr, workerContext, workerState, kernelPath);
    if (parsed)
      workerNames = interp::collectSourceNames(workerState);
    return parsed;
  };

  tune::TuneOptions options;
  options.arch = archName.str();
  options.args.assign(args.begin(), args.end());
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
    return failWith(kernelPath + ": " + error + " (`ktflow run` says why)");

  llvm::raw_ostream &os = llvm::outs();
  double speedup = double(result->heuristicCycles) / double(result->bestCycles);
  if (shardLine) {
    os << kernelPath << " on " << model->name() << ": heuristic " << result->heuristicCycles
       << " cycles, tuned " << result->bestCycles << llvm::format(" (heuristic / tuned %.3f)", speedup)
       << ", " << result->simulated << " simulated in " << result->batches << " batches"
       << (result->budgetHit ? ", stopped by the budget" : "") << "\n";
  } else {
    os << "tuned " << kernelPath << " on " << model->name() << ": "
       << result->candidates.size() << " plans generated, " << result->priced
       << " priced by the cost model (" << result->rejected << " rejected by the scheduler, "
       << result->duplicates << " the same schedule as another), " << result->simulated
       << " simulated in " << result->batches << " batches ("
       << llvm::format("%.1f s", result->seconds);
    if (tuneJobs)
      os << ", " << tuneJobs << " jobs";
    os << ")\n";
    if (result->mismatches)
      os << "warning: " << result->mismatches
         << " plans compiled to wrong results (a compiler bug; see below)\n";
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
        os << "         -  (" << llvm::StringRef(c->problem).split('\n').first << ")\n";
    }
    os << "heuristic: " << result->heuristicCycles << " cycles (predicted "
       << llvm::format("%.0f", result->heuristicPredicted) << "); tuned: " << result->bestCycles
       << " cycles (predicted " << llvm::format("%.0f", result->bestPredicted) << "; "
       << llvm::format("heuristic / tuned %.3f", speedup) << ")\n";
    os << "best plan found after batch " << result->bestBatch << " ("
       << llvm::format("%.1f s", result->bestSeconds) << ")\n";
  }
  if (!planCache.empty()) {
    std::optional<std::string> key = tool::planCacheKey(*module, args, archName, error);
    if (!key)
      return failWith("plan cache: " + error);
    if (std::error_code ec = llvm::sys::fs::create_directories(planCache))
      return failWith("cannot create " + planCache + ": " + ec.message());
    tool::TuneRecord record;
    record.cycles = result->bestCycles;
    record.heuristicCycles = result->heuristicCycles;
    record.predicted = result->bestPredicted;
    record.seed = tuneSeed;
    record.kernel = kernelPath.str();
    record.arch = model->name().str();
    std::optional<std::string> entry = tool::withTuneRecord(result->bestPlan, record);
    std::string path = tool::planCachePath(planCache, *key);
    if (!entry || !writeFile(path, *entry, error))
      return failWith(entry ? error : "the best plan is not JSON");
    if (!shardLine)
      os << "plan cache: " << path << "\n";
  }
  if (!output.empty() && !writeFile(output, result->bestPlan, error))
    return failWith(error);
  return 0;
}

/// One line of a --list file.
struct ListEntry {
  std::string kernel;
  std::string arch;
  std::vector<std::string> args;
};

/// Reads a --list file; std::nullopt after a diagnostic.
static std::optional<std::vector<ListEntry>> readList(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    failWith("cannot read " + path + ": " + file.getError().message());
    return std::nullopt;
  }
  llvm::StringRef dir = llvm::sys::path::parent_path(path);
  std::vector<ListEntry> entries;
  llvm::SmallVector<llvm::StringRef> lines;
  (*file)->getBuffer().split(lines, '\n');
  for (auto [number, line] : llvm::enumerate(lines)) {
    llvm::StringRef text = line.split('#').first.trim();
    if (text.empty())
      continue;
    llvm::SmallVector<llvm::StringRef> fields;
    text.split(fields, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef &f : fields)
      f = f.trim();
    if (fields.size() < 2) {
      failWith(path + ":" + llvm::Twine(number + 1) +
               ": expected KERNEL.mlir ARCH [NAME=VALUE]...");
      return std::nullopt;
    }
    ListEntry entry;
    llvm::SmallString<256> kernel(fields[0]);
    if (llvm::sys::path::is_relative(kernel) && !dir.empty()) {
      kernel = dir;
      llvm::sys::path::append(kernel, fields[0]);
    }
    entry.kernel = kernel.str().str();
    entry.arch = fields[1].str();
    for (llvm::StringRef arg : llvm::ArrayRef(fields).drop_front(2)) {
      if (!arg.contains('=')) {
        failWith(path + ":" + llvm::Twine(number + 1) + ": '" + arg +
                 "' is not a launch value NAME=VALUE");
        return std::nullopt;
      }
      entry.args.push_back(arg.str());
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

static int runShard() {
  unsigned index = 0, count = 0;
  auto [i, n] = llvm::StringRef(tuneShard).split('/');
  if (i.getAsInteger(10, index) || n.getAsInteger(10, count) || count == 0 || index >= count)
    return failWith("--shard must be I/N with 0 <= I < N, got '" + tuneShard + "'");
  if (tunePlanCache.empty())
    return failWith("--list writes into a plan cache: give --plan-cache DIR");
  if (!tuneInputs.empty() || !tuneArch.empty() || !tuneArgs.empty() || !tuneOutput.empty())
    return failWith("--list takes the kernels, descriptions and launch values from the list; "
                    "no KERNEL, --arch, --arg or -o");
  std::optional<std::vector<ListEntry>> entries = readList(tuneList);
  if (!entries)
    return 1;
  unsigned tuned = 0, failed = 0;
  for (size_t line = index; line < entries->size(); line += count) {
    const ListEntry &entry = (*entries)[line];
    if (tuneOne(entry.kernel, entry.arch, entry.args, tunePlanCache, "", /*shardLine=*/true))
      ++failed;
    else
      ++tuned;
  }
  llvm::outs() << "shard " << index << "/" << count << " of " << tuneList << ": " << tuned
               << " tuned, " << failed << " failed, into " << tunePlanCache << "\n";
  return failed ? 1 : 0;
}

static int runMerge() {
  std::vector<std::string> inputs(tuneInputs.begin() + 1, tuneInputs.end());
  if (inputs.empty() || tuneOutput.empty())
    return failWith("usage: ktflow tune merge DIR... -o DIR");
  tool::MergeSummary summary;
  std::string error;
  if (!tool::mergePlanCaches(inputs, tuneOutput, summary, error))
    return failWith("merge: " + error);
  llvm::outs() << "merged " << summary.entries << " entries of " << inputs.size()
               << " caches into " << tuneOutput << ": " << summary.keys << " keys, "
               << summary.replaced << " held more than once (the faster plan kept)\n";
  return 0;
}

static int runTune() {
  if (!tuneInputs.empty() && tuneInputs[0] == "merge")
    return runMerge();
  if (!tuneList.empty())
    return runShard();
  if (tuneInputs.size() != 1)
    return failWith("expected one KERNEL.mlir (or --list FILE, or merge DIR... -o DIR)");
  if (tuneArch.empty())
    return failWith("--arch is required with a KERNEL");
  std::vector<std::string> args(tuneArgs.begin(), tuneArgs.end());
  return tuneOne(tuneInputs[0], tuneArch, args, tunePlanCache, tuneOutput, /*shardLine=*/false);
}

static tool::CommandRegistration tuneRegistration(tuneCmd, runTune);
