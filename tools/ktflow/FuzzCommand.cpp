//===- FuzzCommand.cpp - `ktflow fuzz`: differential testing --------------===//
//
// Generates random kernels (lib/Gen; with --matmul, small matmuls with K
// loops and epilogues, gen/MatmulKernel.h; with --gathers, row gathers and
// scatters through i32 index vectors, gen/GatherKernel.h, their indices
// written as .npy files the run binds), runs each end to end on every chosen
// description (lib/Run: interpreter oracle vs. simulated device code) and
// classifies the outcome per description:
//   pass        — every output matches (bit for bit; sum reductions within
//                 the tolerance of docs/run.md);
//   unsupported — the compiler stopped with a clean "not supported" /
//                 "not lowered" diagnostic (coverage still missing) or the
//                 description has no lanes for the element type, counted
//                 by reason;
//   fail        — any other error on this valid input, a simulation error or
//                 deadlock, or a mismatch.
// A failure saves the kernel (--out), reduces it at the KernelSpec level
// while it fails the same way (same description, same kind, same message
// with numbers masked) and writes the reduced kernel as a lit regression
// test (--regressions). Unsupported is a legitimate outcome, but a reason
// nobody can reproduce hides a coverage gap: with --out, the first kernel
// of each (description, reason) is saved and reduced while it stays
// unsupported for that reason, and DIR/unsupported.tsv indexes them. Exit
// status 1 when any program failed, or with --strict was unsupported.
// With --jobs N the programs run N at a time, each thread in its own
// MLIRContext; the bookkeeping (counts, first kernel of each reason,
// reduction, files) then walks the outcomes in seed order on one thread,
// so the output is the serial run's.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Gen/GatherKernel.h"
#include "ktflow/Gen/KernelPrinter.h"
#include "ktflow/Gen/MatmulKernel.h"
#include "ktflow/Gen/RandomKernel.h"
#include "ktflow/Gen/ReduceKernel.h"
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Support/Jobs.h"
#include "ktflow/Support/Progress.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand fuzzCmd("fuzz", "Differential testing: random kernels, simulator vs. "
                                      "interpreter on every description");
static cl::opt<uint64_t> fuzzCount("count", cl::desc("Number of random programs"), cl::init(100),
                                   cl::sub(fuzzCmd));
static cl::opt<uint64_t> fuzzSeed("seed", cl::desc("Seed of the first program (then +1 each)"),
                                  cl::init(1), cl::sub(fuzzCmd));
static cl::list<std::string> fuzzArchs("arch",
                                       cl::desc("Description to test (repeatable; default: "
                                                "sample, spyre, deep)"),
                                       cl::sub(fuzzCmd));
static cl::opt<std::string>
    fuzzOut("out",
            cl::desc("Save every failing kernel as DIR/fuzz-ARCH-seedN.mlir, and a reduced "
                     "reproducer of every unsupported reason as DIR/unsupported-ARCH-N.mlir "
                     "(index: DIR/unsupported.tsv)"),
            cl::value_desc("DIR"), cl::sub(fuzzCmd));
static cl::opt<std::string>
    fuzzRegressions("regressions",
                    cl::desc("Write each reduced failure as a lit test DIR/fuzz-ARCH-seedN.mlir"),
                    cl::value_desc("DIR"), cl::sub(fuzzCmd));
static cl::opt<bool> fuzzInjectFault(
    "inject-fault",
    cl::desc("Testing only: flip one bit of every program's first simulated output, so every "
             "run is a mismatch to report and reduce"),
    cl::sub(fuzzCmd));
static cl::opt<int64_t>
    fuzzMaxTiles("max-tiles",
                 cl::desc("Largest grid of a random kernel (grids larger than a "
                          "description's cores run in rounds)"),
                 cl::init(gen::RandomKernelOptions().maxTiles), cl::sub(fuzzCmd));
static cl::opt<bool> fuzzMath("math",
                              cl::desc("Random kernels use the math ops too (sqrt, rsqrt, log, "
                                       "tanh, erf, pow, fma, cmpf + select)"),
                              cl::sub(fuzzCmd));
static cl::opt<bool> fuzzLoops("loops",
                               cl::desc("Random kernels take launch values and grow loops too "
                                        "(inner accumulating or nested loops, clamped bounds)"),
                               cl::sub(fuzzCmd));
static cl::opt<bool> fuzzPhases("phases",
                                cl::desc("Random kernels are fused multi-phase bodies (row "
                                         "reductions feeding later phases, per-row chains, "
                                         "transcendental ops, f16 data with f32 statistics)"),
                                cl::sub(fuzzCmd));
static cl::opt<bool> fuzzInts("ints",
                              cl::desc("Random kernels compute on i32 data (wrapping add, sub, "
                                       "mul, max, min, signed cmpi + select; no reductions)"),
                              cl::sub(fuzzCmd));
static cl::opt<bool> fuzzMatmul("matmul",
                                cl::desc("Random kernels are matmuls instead (example 10's and "
                                         "20's forms at small sizes: K loops of one to four "
                                         "steps, sums from splat constants, bias + gelu, silu * "
                                         "row or random element-wise epilogues, f16 or f32 "
                                         "results)"),
                                cl::sub(fuzzCmd));
static cl::opt<bool> fuzzGathers("gathers",
                                 cl::desc("Random kernels are row gathers and scatters instead "
                                          "(example 16's form: tables of other row counts, rows "
                                          "of any length, f16, f32 or i32, an element-wise op "
                                          "between load and store; a gather's indices drawn "
                                          "with repeats, a scatter's distinct)"),
                                 cl::sub(fuzzCmd));
static cl::opt<bool> fuzzNoReduce("no-reduce",
                                  cl::desc("Do not reduce failing or unsupported kernels"),
                                  cl::sub(fuzzCmd));
static cl::opt<unsigned> fuzzJobs("jobs",
                                  cl::desc("Run N programs at a time (default: the machine's "
                                           "hardware threads)"),
                                  cl::value_desc("N"), cl::init(0), cl::sub(fuzzCmd));
static cl::opt<bool>
    fuzzStrict("strict",
               cl::desc("Count unsupported kernels as failures (exit status 1), for campaigns "
                        "that track the compiler's coverage"),
               cl::sub(fuzzCmd));

namespace {
/// Removes a directory and what it holds when it goes out of scope.
struct IdsDirectory {
  std::string path;
  explicit IdsDirectory(std::string path) : path(std::move(path)) {}
  ~IdsDirectory() { (void)llvm::sys::fs::remove_directories(path); }
};

enum class Verdict { Pass, Unsupported, Fail };

struct Outcome {
  Verdict verdict = Verdict::Pass;
  /// Why it is unsupported or failed, numbers masked so that the same
  /// failure on a smaller kernel has the same reason.
  std::string reason;
  /// The first message as emitted, for the report.
  std::string detail;
};

struct ArchTarget {
  std::string name;
  std::shared_ptr<const arch::ArchModel> model;
  unsigned pass = 0, unsupported = 0, fail = 0;
  /// Reproducers of unsupported reasons written so far (numbers the files).
  unsigned reproducers = 0;
};

/// One unsupported reason on one description.
struct UnsupportedReason {
  unsigned count = 0;
  /// The reproducer's file name inside --out, and the reduced kernel's size;
  /// empty when none was written.
  std::string file, size;
};
} // namespace

static std::string maskNumbers(llvm::StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (isdigit((unsigned char)text[i])) {
      while (i + 1 < text.size() && isdigit((unsigned char)text[i + 1]))
        ++i;
      out += 'N';
      continue;
    }
    out += text[i];
  }
  return out;
}

/// A clean refusal: a construct the compiler does not cover yet, or an
/// element type the description's compute units have no lanes for.
static bool isUnsupportedDiagnostic(llvm::StringRef message) {
  return message.contains("not supported") || message.contains("not lowered") ||
         message.contains("has no lanes for");
}

/// Parses `text` and runs it on `target`, classifying the result.
static Outcome runOne(mlir::MLIRContext &context, llvm::StringRef text, llvm::StringRef bufferName,
                      const ArchTarget &target, uint64_t seed,
                      const std::vector<std::string> &launchArgs) {
  std::vector<std::string> errors;
  mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      errors.push_back(diag.str());
    return mlir::success();
  });
  auto classifyErrors = [&](llvm::StringRef stage) {
    Outcome outcome;
    outcome.verdict = Verdict::Fail;
    outcome.detail = errors.empty() ? (stage + " failed without a diagnostic").str() : errors[0];
    for (const std::string &error : errors)
      if (isUnsupportedDiagnostic(error)) {
        outcome.verdict = Verdict::Unsupported;
        outcome.detail = error;
        break;
      }
    outcome.reason = maskNumbers(outcome.detail);
    return outcome;
  };

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName),
                               llvm::SMLoc());
  mlir::AsmParserState asmState;
  llvm::StringRef failedStage;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::parseKernelSource(sourceMgr, context, asmState, bufferName, &failedStage);
  if (!module)
    return classifyErrors(failedStage);

  run::RunOptions options;
  options.arch = target.name;
  options.seed = seed;
  options.injectFault = fuzzInjectFault;
  // The launch values a kernel takes bind its compile, interpretation and
  // run alike.
  options.args = launchArgs;
  std::string message;
  mlir::FailureOr<run::RunReport> result = run::runKernel(
      *module, *target.model, interp::collectSourceNames(asmState), options, message);
  Outcome outcome;
  if (mlir::failed(result)) {
    // Diagnostics mean the compiler refused the kernel; a message means a
    // later step (binding, simulation) failed.
    if (message.empty())
      return classifyErrors("compilation");
    outcome.verdict = Verdict::Fail;
    outcome.detail = "simulation: " + message;
    outcome.reason = maskNumbers(outcome.detail);
    return outcome;
  }
  for (const run::OutputComparison &output : result->outputs)
    if (output.firstMismatch >= 0) {
      outcome.verdict = Verdict::Fail;
      outcome.reason = "mismatch";
      llvm::raw_string_ostream os(outcome.detail);
      os << "mismatch in " << output.name << " at element " << output.firstMismatch
         << ": got " << output.got << ", expected " << output.expected;
      return outcome;
    }
  return outcome;
}

static bool writeFile(llvm::StringRef dir, llvm::StringRef name, llvm::StringRef contents,
                      std::string &path) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    llvm::errs() << "ktflow fuzz: cannot create '" << dir << "': " << ec.message() << "\n";
    return false;
  }
  llvm::SmallString<128> p(dir);
  llvm::sys::path::append(p, name);
  path = std::string(p);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "ktflow fuzz: cannot write '" << path << "': " << ec.message() << "\n";
    return false;
  }
  os << contents;
  return true;
}

/// What is left of a reduced kernel, for the report.
static std::string describeSize(const gen::KernelSpec &spec) {
  return std::to_string(spec.nodes.size()) + " nodes, " + std::to_string(spec.rows) + "x" +
         std::to_string(spec.cols);
}

/// `spec` reduced while `keep` holds, as `--no-reduce` allows.
static gen::KernelSpec reduce(gen::KernelSpec spec,
                              const std::function<bool(const gen::KernelSpec &)> &keep) {
  if (fuzzNoReduce)
    return spec;
  spec = gen::reduceKernel(spec, keep);
  spec.origin += " (reduced by ktflow fuzz)";
  return spec;
}

/// A program as reduced: its text, launch values, and what is left of it.
struct ReducedKernel {
  std::string text;
  std::vector<std::string> launchArgs;
  std::string size;
  std::string argText() const {
    std::string out;
    for (const std::string &arg : launchArgs)
      out += " --arg " + arg;
    return out;
  }
};

/// The generator flags of this run, for the comments of saved kernels.
static std::string generatorFlags() {
  return " --max-tiles " + std::to_string(fuzzMaxTiles) + (fuzzMath ? " --math" : "") +
         (fuzzLoops ? " --loops" : "") + (fuzzPhases ? " --phases" : "") +
         (fuzzInts ? " --ints" : "") + (fuzzMatmul ? " --matmul" : "") +
         (fuzzGathers ? " --gathers" : "");
}

/// The reproducer of an unsupported reason: the reduced kernel with the
/// command that shows the diagnostic (what to lower next, not a lit test:
/// it stops being unsupported when the lowering covers it).
static std::string unsupportedReproducer(const ReducedKernel &kernel, const ArchTarget &target,
                                         uint64_t seed, const Outcome &first,
                                         const Outcome &reduced, llvm::StringRef file) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Unsupported on " << target.name << ", found by `ktflow fuzz" << generatorFlags()
     << " --seed " << seed << " --count 1 --arch " << target.name << "`"
     << (fuzzNoReduce ? "" : ", reduced") << ".\n"
     << "// Reason: " << first.reason << "\n"
     << "// It stops with: " << reduced.detail << "\n"
     << "// Reproduce: ktflow run " << file << " --arch " << target.name << " --seed " << seed
     << kernel.argText() << "\n";
  os << kernel.text;
  return text;
}

/// A field of unsupported.tsv: one line, no tabs.
static std::string tsvField(llvm::StringRef text) {
  std::string out = text.str();
  for (char &c : out)
    if (c == '\t' || c == '\n')
      c = ' ';
  return out;
}

/// The lit test of a reduced failure: it passes once the bug is fixed.
static std::string regressionTest(const ReducedKernel &kernel, const ArchTarget &target,
                                  uint64_t seed, const Outcome &outcome) {
  std::string test;
  llvm::raw_string_ostream os(test);
  // Index files written beside the test are named from its directory.
  std::string args = kernel.argText();
  if (!fuzzRegressions.empty())
    for (size_t at; (at = args.find(fuzzRegressions)) != std::string::npos;)
      args.replace(at, fuzzRegressions.size(), "%S");
  os << "// Regression found by `ktflow fuzz" << generatorFlags() << " --seed " << seed
     << " --count 1 --arch " << target.name << "`, reduced.\n"
     << "// It failed with: " << outcome.detail << "\n"
     << "// RUN: ktflow run %s --arch " << target.name << " --seed " << seed << args
     << " | FileCheck %s\n"
     << "// CHECK: comparison:\n"
     << "// CHECK-NOT: MISMATCH\n"
     << "// CHECK: simulated cycles\n";
  os << kernel.text;
  return test;
}

static int runFuzz() {
  if (fuzzMatmul && (fuzzMath || fuzzLoops || fuzzPhases || fuzzInts || fuzzGathers)) {
    llvm::errs() << "ktflow fuzz: --matmul draws matmul kernels; it excludes --math, --loops, "
                    "--phases, --ints and --gathers\n";
    return 1;
  }
  if (fuzzGathers && (fuzzMath || fuzzLoops || fuzzPhases || fuzzInts)) {
    llvm::errs() << "ktflow fuzz: --gathers draws gather and scatter kernels; it excludes "
                    "--math, --loops, --phases and --ints\n";
    return 1;
  }
  // A gather's or scatter's indices, one .npy file per spec and seed, bound
  // as `ids=FILE`: in DIR/ids with --out or --regressions (the reproducers
  // and tests name them), else in a directory of this run, removed at the
  // end.
  llvm::SmallString<128> idsDir;
  std::optional<IdsDirectory> removeIds;
  if (fuzzGathers && (!fuzzOut.empty() || !fuzzRegressions.empty())) {
    idsDir = !fuzzOut.empty() ? fuzzOut : fuzzRegressions;
    llvm::sys::path::append(idsDir, "ids");
    if (std::error_code ec = llvm::sys::fs::create_directories(idsDir)) {
      llvm::errs() << "ktflow fuzz: cannot create '" << idsDir << "': " << ec.message() << "\n";
      return 1;
    }
  } else if (fuzzGathers) {
    if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("ktflow-fuzz-ids", idsDir)) {
      llvm::errs() << "ktflow fuzz: cannot create a directory for index files: " << ec.message()
                   << "\n";
      return 1;
    }
    removeIds.emplace(std::string(idsDir));
  }
  // The launch value that binds the spec's indices (their file written on
  // first use; called on one thread only).
  auto idsArgs = [&](const gen::IndirectRowsSpec &spec,
                     uint64_t seed) -> std::vector<std::string> {
    llvm::SmallString<128> path(idsDir);
    llvm::sys::path::append(path, llvm::formatv("ids-{0}-{1}-{2}-{3}.npy", seed, spec.tableRows,
                                                spec.rows, spec.scatter ? "s" : "g")
                                      .str());
    if (!llvm::sys::fs::exists(path)) {
      interp::NpyArray ids{"i4", {spec.rows}, {}};
      for (int32_t v : gen::indirectRowIds(spec, seed)) {
        const auto *bytes = reinterpret_cast<const uint8_t *>(&v);
        ids.data.insert(ids.data.end(), bytes, bytes + sizeof v);
      }
      if (llvm::Error e = interp::writeNpy(path, ids))
        llvm::errs() << "ktflow fuzz: " << llvm::toString(std::move(e)) << "\n";
    }
    return {("ids=" + path).str()};
  };
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);

  std::vector<ArchTarget> targets;
  std::vector<std::string> names(fuzzArchs.begin(), fuzzArchs.end());
  if (names.empty())
    names = {"sample", "spyre", "deep"};
  for (const std::string &name : names) {
    std::string error;
    ArchTarget target;
    target.name = name;
    target.model = arch::ArchModel::load(context, name, error);
    if (!target.model) {
      llvm::errs() << "ktflow fuzz: " << (error.empty() ? "cannot load '" + name + "'" : error)
                   << "\n";
      return 1;
    }
    targets.push_back(std::move(target));
  }

  // Every program on every description, `jobs` at a time: outcome
  // [i * targets + t] is program i on targets[t].
  struct Program {
    uint64_t seed;
    gen::KernelSpec spec;
    /// With --matmul, the matmul drawn instead of `spec`.
    std::optional<gen::MatmulSpec> matmul;
    std::string text, bufferName;
    /// With --gathers, the gather or scatter drawn instead of `spec`.
    std::optional<gen::IndirectRowsSpec> indirect;
    /// The launch values of `spec`, or the index file of `indirect`.
    std::vector<std::string> args;
    std::vector<std::string> launchArgs() const { return args; }
  };
  std::vector<Program> programs;
  for (uint64_t i = 0; i < fuzzCount; ++i) {
    uint64_t seed = fuzzSeed + i;
    gen::RandomKernelOptions generatorOptions;
    generatorOptions.maxTiles = fuzzMaxTiles;
    generatorOptions.math = fuzzMath;
    generatorOptions.loops = fuzzLoops;
    generatorOptions.phases = fuzzPhases;
    generatorOptions.ints = fuzzInts;
    std::string bufferName = "fuzz-seed" + std::to_string(seed) + ".mlir";
    if (fuzzMatmul) {
      gen::RandomMatmulOptions matmulOptions;
      matmulOptions.maxTiles = fuzzMaxTiles;
      gen::MatmulSpec matmul = gen::randomMatmul(seed, matmulOptions);
      std::string text = gen::matmulKernel(matmul);
      programs.push_back(
          {seed, gen::KernelSpec(), matmul, std::move(text), bufferName, std::nullopt, {}});
      continue;
    }
    if (fuzzGathers) {
      gen::IndirectRowsSpec indirect = gen::randomIndirectRows(seed, fuzzMaxTiles);
      std::string text = gen::indirectRowsKernel(indirect);
      std::vector<std::string> args = idsArgs(indirect, seed);
      programs.push_back({seed, gen::KernelSpec(), std::nullopt, std::move(text), bufferName,
                          indirect, std::move(args)});
      continue;
    }
    gen::KernelSpec spec = gen::randomKernel(seed, generatorOptions);
    std::string text = gen::printKernel(spec);
    std::vector<std::string> args = spec.launchArgs();
    programs.push_back({seed, std::move(spec), std::nullopt, std::move(text), bufferName,
                        std::nullopt, std::move(args)});
  }
  unsigned jobs = fuzzJobs ? unsigned(fuzzJobs) : defaultJobs();
  // Worker 0 runs in this context; the others each in their own, with the
  // descriptions loaded into it (a model holds its context's types). A
  // context's own thread pool would only oversubscribe the machine.
  if (jobs > 1)
    context.disableMultithreading();
  struct Worker {
    std::unique_ptr<mlir::MLIRContext> context;
    std::vector<ArchTarget> targets;
  };
  std::vector<Worker> workers(jobs);
  std::vector<Outcome> outcomes(programs.size() * targets.size());
  {
    ProgressLine progress(outcomes.size());
    runJobs(outcomes.size(), jobs, [&](unsigned w, size_t k) {
      const Program &program = programs[k / targets.size()];
      const ArchTarget &target = targets[k % targets.size()];
      progress.started("seed " + std::to_string(program.seed) + " on " + target.name);
      Worker &worker = workers[w];
      if (w != 0 && !worker.context) {
        worker.context = std::make_unique<mlir::MLIRContext>(
            registry, mlir::MLIRContext::Threading::DISABLED);
        worker.context->loadAllAvailableDialects();
        worker.context->printOpOnDiagnostic(false);
        for (const ArchTarget &shared : targets) {
          ArchTarget own;
          own.name = shared.name;
          std::string error;
          own.model = arch::ArchModel::load(*worker.context, own.name, error);
          worker.targets.push_back(std::move(own));
        }
      }
      const ArchTarget &own = w == 0 ? target : worker.targets[k % targets.size()];
      if (!own.model) {
        outcomes[k] = {Verdict::Fail, "cannot load the description again",
                       "cannot load '" + own.name + "' in a worker's context"};
      } else {
        outcomes[k] = runOne(w == 0 ? context : *worker.context, program.text,
                             program.bufferName, own, program.seed, program.launchArgs());
      }
      progress.finished();
    });
  }

  // A program reduced while `same` holds of its outcome on `target`:
  // KernelSpecs by gen::reduceKernel, matmuls greedily by shrinkMatmul.
  auto reduceProgram = [&](const Program &program, const ArchTarget &target,
                           const std::function<bool(const Outcome &)> &same) {
    auto holds = [&](const std::string &text, const std::vector<std::string> &args) {
      return same(runOne(context, text, program.bufferName, target, program.seed, args));
    };
    if (program.matmul) {
      gen::MatmulSpec spec = *program.matmul;
      for (bool shrunk = !fuzzNoReduce; shrunk;) {
        shrunk = false;
        for (const gen::MatmulSpec &candidate : gen::shrinkMatmul(spec))
          if (holds(gen::matmulKernel(candidate), {})) {
            spec = candidate;
            shrunk = true;
            break;
          }
      }
      return ReducedKernel{gen::matmulKernel(spec), {}, gen::matmulCommand(spec)};
    }
    if (program.indirect) {
      gen::IndirectRowsSpec spec = *program.indirect;
      for (bool shrunk = !fuzzNoReduce; shrunk;) {
        shrunk = false;
        for (const gen::IndirectRowsSpec &candidate : gen::shrinkIndirectRows(spec))
          if (holds(gen::indirectRowsKernel(candidate), idsArgs(candidate, program.seed))) {
            spec = candidate;
            shrunk = true;
            break;
          }
      }
      return ReducedKernel{gen::indirectRowsKernel(spec), idsArgs(spec, program.seed),
                           gen::describeIndirectRows(spec)};
    }
    gen::KernelSpec reduced = reduce(program.spec, [&](const gen::KernelSpec &candidate) {
      return holds(gen::printKernel(candidate), candidate.launchArgs());
    });
    return ReducedKernel{gen::printKernel(reduced), reduced.launchArgs(), describeSize(reduced)};
  };

  // (description, reason) -> count (and reproducer), for the unsupported
  // and failing kinds.
  std::map<std::pair<std::string, std::string>, UnsupportedReason> unsupportedReasons;
  std::map<std::pair<std::string, std::string>, unsigned> failReasons;
  unsigned failures = 0, unsupported = 0;
  for (uint64_t i = 0; i < fuzzCount; ++i) {
    uint64_t seed = programs[i].seed;
    const Program &program = programs[i];
    const std::string &text = programs[i].text;
    const std::string &bufferName = programs[i].bufferName;
    for (size_t t = 0; t < targets.size(); ++t) {
      ArchTarget &target = targets[t];
      const Outcome &outcome = outcomes[i * targets.size() + t];
      if (outcome.verdict == Verdict::Pass) {
        ++target.pass;
        continue;
      }
      if (outcome.verdict == Verdict::Unsupported) {
        ++target.unsupported;
        ++unsupported;
        UnsupportedReason &known = unsupportedReasons[{target.name, outcome.reason}];
        if (known.count++ || fuzzOut.empty())
          continue;
        // The first kernel with this reason: save it and its reduced form,
        // still unsupported for the same reason on the same description.
        std::string stem =
            "unsupported-" + target.name + "-" + std::to_string(++target.reproducers);
        ReducedKernel reduced = reduceProgram(program, target, [&](const Outcome &again) {
          return again.verdict == Verdict::Unsupported && again.reason == outcome.reason;
        });
        Outcome reducedOutcome =
            runOne(context, reduced.text, bufferName, target, seed, reduced.launchArgs);
        std::string path;
        if (!fuzzNoReduce && !writeFile(fuzzOut, stem + "-original.mlir", text, path))
          continue;
        llvm::SmallString<128> file(fuzzOut);
        llvm::sys::path::append(file, stem + ".mlir");
        if (!writeFile(fuzzOut, stem + ".mlir",
                       unsupportedReproducer(reduced, target, seed, outcome, reducedOutcome, file),
                       path))
          continue;
        known.file = stem + ".mlir";
        known.size = reduced.size;
        continue;
      }
      ++target.fail;
      ++failures;
      ++failReasons[{target.name, outcome.reason}];
      llvm::outs() << "FAIL seed " << seed << " on " << target.name << ": " << outcome.detail
                   << "\n";
      std::string path;
      if (!fuzzOut.empty() &&
          writeFile(fuzzOut, "fuzz-" + target.name + "-seed" + std::to_string(seed) + ".mlir",
                    text, path))
        llvm::outs() << "  saved " << path << "\n";
      if (fuzzNoReduce || fuzzRegressions.empty())
        continue;
      ReducedKernel reduced = reduceProgram(program, target, [&](const Outcome &again) {
        return again.verdict == Verdict::Fail && again.reason == outcome.reason;
      });
      if (writeFile(fuzzRegressions,
                    "fuzz-" + target.name + "-seed" + std::to_string(seed) + ".mlir",
                    regressionTest(reduced, target, seed, outcome), path))
        llvm::outs() << "  reduced to " << reduced.size << ": " << path << "\n";
    }
  }

  llvm::outs() << "programs: " << fuzzCount << " (seeds " << fuzzSeed << ".."
               << fuzzSeed + fuzzCount - 1 << ")\n";
  for (const ArchTarget &target : targets)
    llvm::outs() << "  " << target.name << ": " << target.pass << " pass, " << target.unsupported
                 << " unsupported, " << target.fail << " fail\n";
  if (!unsupportedReasons.empty()) {
    llvm::outs() << "unsupported, by reason:\n";
    for (const auto &[key, known] : unsupportedReasons) {
      llvm::outs() << "  " << key.first << " x" << known.count;
      if (!known.file.empty())
        llvm::outs() << " [" << known.size << ": " << known.file << "]";
      llvm::outs() << ": " << key.second << "\n";
    }
  }
  if (!fuzzOut.empty() && unsupported) {
    std::string index, path;
    llvm::raw_string_ostream os(index);
    os << "arch\tcount\treason\tfile\n";
    for (const auto &[key, known] : unsupportedReasons)
      os << key.first << "\t" << known.count << "\t" << tsvField(key.second) << "\t"
         << (known.file.empty() ? "-" : known.file) << "\n";
    if (writeFile(fuzzOut, "unsupported.tsv", index, path))
      llvm::outs() << "unsupported reproducers: " << path << "\n";
  }
  if (!failReasons.empty()) {
    llvm::outs() << "failures, by reason:\n";
    for (const auto &[key, count] : failReasons)
      llvm::outs() << "  " << key.first << " x" << count << ": " << key.second << "\n";
  }
  if (fuzzStrict && unsupported)
    llvm::outs() << "strict: " << unsupported << " unsupported counted as failures\n";
  return failures || (fuzzStrict && unsupported) ? 1 : 0;
}

static ktflow::tool::CommandRegistration fuzzRegistration(fuzzCmd, runFuzz);
