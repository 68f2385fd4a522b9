//===- BenchCommand.cpp - `ktflow bench [--arch A]... [--filter RE]` ------===//
//
// The benchmark suite of issue 7, generated, compiled, simulated and checked
// in one process: for each architecture, every suite kernel (lib/Gen
// benchKernel) whose grid fits the architecture's cores and whose input size
// is within --max-bytes goes through run::runKernel, the same path as
// `ktflow run`. Each row reports the roofline bound of the schedule's
// workload, the simulated cycles, their ratio, the limiting resource and
// the wall-clock time of compiling and simulating. A kernel the compiler
// rejects (a diagnostic) is listed as "unsupported: <first diagnostic>"; a
// wrong result or a simulator failure is an error, counted, shown and
// turned into exit status 1. Progress goes to stderr (one updating line,
// on a terminal only). With --jobs N, N benchmarks run at a time, each
// thread with its own MLIRContext (and the descriptions loaded into it);
// rows keep the suite's order.
//
// `--v1` also runs each kernel with the seed's V1 choices replayed as a
// plan (tiles of at most 2 vectors, depth 2: v1Plan) and adds its cycles
// and their ratio to the heuristic's, so a timing model that made tile
// size irrelevant would show as v1/heur near 1.
//
// `--tune` also tunes each kernel (lib/Tune, one thread per kernel: the
// kernels already run --jobs at a time) and adds the tuned cycles, the
// tuned ratio (to the heuristic's schedule's bound), tuned / heuristic and
// the cost model's error on the tuned plan.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "ktflow/Tune/PlanSpace.h"

#include "ktflow/Gen/BenchKernel.h"
#include "ktflow/Gen/MatmulKernel.h"
#include "ktflow/Gen/GatherKernel.h"
#include "ktflow/Gen/TransposeKernel.h"
#include "ktflow/Gen/KernelPrinter.h"
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Support/Jobs.h"
#include "ktflow/Support/Progress.h"
#include "ktflow/Tune/Tuner.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand benchCmd("bench",
                               "Compile, simulate and check the benchmark suite; print a table");
static cl::list<std::string> benchArchs("arch",
                                        cl::desc("Architecture (name or file); repeatable, "
                                                 "default spyre"),
                                        cl::sub(benchCmd));
static cl::opt<std::string>
    benchFilter("filter",
                cl::desc("Run only benchmarks whose name KIND-DTYPE-RxC-gG (e.g. "
                         "add-f16-32x1024-g1) matches REGEX"),
                cl::value_desc("REGEX"), cl::sub(benchCmd));
static cl::opt<std::string> benchMaxBytes("max-bytes",
                                          cl::desc("Largest input tensor, e.g. 1M, 64K "
                                                   "(default 64M: the whole suite)"),
                                          cl::value_desc("N[K|M]"), cl::init("64M"),
                                          cl::sub(benchCmd));
static cl::opt<std::string> benchJson("json", cl::desc("Also write the results as JSON"),
                                      cl::value_desc("FILE"), cl::sub(benchCmd));
static cl::opt<std::string> benchCsv("csv", cl::desc("Also write the results as CSV"),
                                     cl::value_desc("FILE"), cl::sub(benchCmd));
static cl::opt<bool> benchV1("v1",
                             cl::desc("Also run each kernel with the seed's V1 choices (tiles of "
                                      "at most 2 vectors, depth 2) replayed as a plan"),
                             cl::sub(benchCmd));
static cl::opt<std::string> benchMinBytes("min-bytes",
                                          cl::desc("Smallest input tensor, e.g. 1M (default: "
                                                   "the whole suite)"),
                                          cl::value_desc("N[K|M]"), cl::init("0"),
                                          cl::sub(benchCmd));
static cl::opt<bool> benchTune("tune",
                               cl::desc("Also tune each kernel (ktflow tune, one thread per "
                                        "kernel) and report the tuned cycles and ratio, tuned / "
                                        "heuristic and the cost model's error"),
                               cl::sub(benchCmd));
static cl::opt<double> benchTuneBudget("tune-budget",
                                       cl::desc("--tune: seconds per kernel (default 30)"),
                                       cl::init(30), cl::sub(benchCmd));
static cl::opt<unsigned> benchTuneConfirm("tune-confirm",
                                          cl::desc("--tune: plans simulated per kernel "
                                                   "(default 16)"),
                                          cl::init(16), cl::sub(benchCmd));
static cl::opt<uint64_t> benchSeed("seed", cl::desc("Seed for random input contents"),
                                   cl::init(0), cl::sub(benchCmd));
static cl::opt<unsigned> benchJobs("jobs",
                                   cl::desc("Run N benchmarks at a time (default: the "
                                            "machine's hardware threads)"),
                                   cl::value_desc("N"), cl::init(0), cl::sub(benchCmd));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "ktflow bench: " << message << "\n";
  return 1;
}

namespace {
/// One suite entry: what benchKernel needs, and the name --filter sees.
struct BenchCase {
  gen::BenchKind kind;
  gen::ElemType type;
  int64_t rows;
  int64_t cols;
  int64_t grid;
  /// A matmul of M = N = K = `matmul` (gen/MatmulKernel.h) instead of the
  /// kind's kernel.
  int64_t matmul = 0;
  /// A transpose of the rows x cols matrix (gen/TransposeKernel.h) instead
  /// of the kind's kernel.
  bool transpose = false;
  /// A gather of rows x cols from a table as large (gen/GatherKernel.h)
  /// instead of the kind's kernel.
  bool gather = false;
  /// The matmul's epilogue (matmul-bias-gelu, matmul-silu-mul).
  gen::MatmulEpilogue epilogue = gen::MatmulEpilogue::None;
  /// With `gather`: the scatter of rows x cols into a table as large
  /// instead (gen/GatherKernel.h), its indices a permutation.
  bool scatter = false;
  /// With `scatter`: the rows added into the table rows they go to (a
  /// scatter-add).
  bool accumulate = false;
  std::string kindName() const {
    if (transpose)
      return "transpose";
    if (gather)
      return accumulate ? "scatter-add" : scatter ? "scatter" : "gather";
    return matmul ? gen::matmulKindName(epilogue).str() : gen::benchKindName(kind).str();
  }
  std::string shape() const {
    if (matmul)
      return (llvm::Twine(matmul) + "x" + llvm::Twine(matmul) + "x" + llvm::Twine(matmul)).str();
    return (llvm::Twine(rows) + "x" + llvm::Twine(cols)).str();
  }
  std::string name() const {
    return kindName() + "-" + gen::elemTypeName(type).str() + "-" + shape() + "-g" +
           std::to_string(grid);
  }
};

enum class Outcome { Match, Mismatch, Unsupported, Error };

struct BenchRow {
  BenchCase benchCase;
  std::string arch;
  Outcome outcome = Outcome::Error;
  /// Why a kernel is unsupported or failed.
  std::string reason;
  double bound = 0;
  int64_t cycles = 0;
  std::string limit;
  double compileMs = 0;
  double simulateMs = 0;
  /// --v1: cycles of the V1 plan (0: not run), or why it could not run.
  int64_t v1Cycles = 0;
  std::string v1Problem;
  /// --tune: the tuned plan's cycles and predicted cycles (0: not tuned),
  /// whether the budget cut its search, or why it could not be tuned.
  int64_t tunedCycles = 0;
  double tunedPredicted = 0;
  bool tuneBudgetHit = false;
  std::string tuneProblem;
  double tunedRatio() const { return bound > 0 ? double(tunedCycles) / bound : 0; }
  double tunedOverHeuristic() const {
    return cycles > 0 ? double(tunedCycles) / double(cycles) : 0;
  }
  /// |predicted - simulated| / simulated of the tuned plan; negative when
  /// the plan could not be priced.
  double modelError() const {
    return tunedCycles > 0 && tunedPredicted > 0
               ? std::abs(tunedPredicted - double(tunedCycles)) / double(tunedCycles)
               : -1;
  }
  double v1Ratio() const { return cycles > 0 ? double(v1Cycles) / double(cycles) : 0; }
  double ratio() const { return bound > 0 ? double(cycles) / bound : 0; }
  std::string result() const {
    switch (outcome) {
    case Outcome::Match:
      return "match";
    case Outcome::Mismatch:
      return "MISMATCH: " + reason;
    case Outcome::Unsupported:
      return "unsupported: " + reason;
    case Outcome::Error:
      return "ERROR: " + reason;
    }
    return "";
  }
};
} // namespace

/// Rows are 1024 elements wide; the input size sets the row count. Sizes
/// 64 KiB..64 MiB by factors of 4, grids 1, 8, 32 where they fit the rows
/// and the cores; f16 for every kind, f32 for a few (as bench/generate.sh).
/// Then long rows of the fused kernels, matmuls, transposes and gathers.
static std::vector<BenchCase> suite(int64_t minBytes, int64_t maxBytes, int64_t cores) {
  using gen::BenchKind;
  const int64_t cols = 1024;
  std::vector<BenchCase> cases;
  for (gen::ElemType type : {gen::ElemType::F16, gen::ElemType::F32}) {
    int64_t esize = gen::elemSize(type).bytes.count();
    for (int64_t bytes = 64 * 1024; bytes <= std::min<int64_t>(maxBytes, 64 << 20); bytes *= 4) {
      if (bytes < minBytes)
        continue;
      int64_t rows = bytes / (cols * esize);
      for (int64_t grid : {1, 8, 32}) {
        if (grid > rows || grid > cores)
          continue;
        for (BenchKind kind : gen::allBenchKinds()) {
          if (type == gen::ElemType::F32 && kind != BenchKind::Add && kind != BenchKind::Fma &&
              kind != BenchKind::BcastRow && kind != BenchKind::RowSum)
            continue;
          // Column sums keep their reduced rows whole: the size grows the
          // columns, which the grid divides.
          if (kind == BenchKind::ColSum) {
            int64_t sumCols = bytes / (gen::kColSumRows * esize);
            if (grid <= sumCols)
              cases.push_back({kind, type, gen::kColSumRows, sumCols, grid});
            continue;
          }
          cases.push_back({kind, type, rows, cols, grid});
        }
      }
    }
  }
  // Fused kernels over long rows (2 MiB of f16): rows of 262144 and 65536,
  // which a row that does not fit a core's scratchpad streams
  // (residency = streamed, docs/schedule.md).
  for (auto [rows, rowCols] : {std::pair<int64_t, int64_t>{4, 262144}, {16, 65536}}) {
    int64_t bytes = rows * rowCols * 2;
    if (bytes < minBytes || bytes > maxBytes)
      continue;
    for (int64_t grid : {1, 8})
      if (grid <= rows && grid <= cores)
        for (BenchKind kind : {BenchKind::Softmax, BenchKind::LayerNorm, BenchKind::RmsNorm})
          cases.push_back({kind, gen::ElemType::F16, rows, rowCols, grid});
  }
  // Matmuls M = N = K in {256, ..., 2048}, f16 (f32 sums); the size is
  // A's and B's bytes.
  for (int64_t size : {256, 512, 1024, 2048}) {
    int64_t bytes = 2 * size * size * 2;
    if (bytes < minBytes || bytes > maxBytes)
      continue;
    for (int64_t grid : {1, 8, 32})
      if (grid <= cores && !gen::matmulProblem(size, size, size, grid))
        cases.push_back({gen::BenchKind::Add, gen::ElemType::F16, size, size, grid, size});
  }
  // The epilogue kernels (example 20's form: a 1 x N row broadcast along M)
  // at the sizes whose grid tiles fit.
  for (gen::MatmulEpilogue epilogue :
       {gen::MatmulEpilogue::BiasGelu, gen::MatmulEpilogue::SiluMul})
    for (int64_t size : {256, 512, 1024}) {
      int64_t bytes = 2 * size * size * 2;
      if (bytes < minBytes || bytes > maxBytes)
        continue;
      for (int64_t grid : {1, 8, 32})
        if (grid <= cores && !gen::matmulProblem(size, size, size, grid)) {
          BenchCase c{gen::BenchKind::Add, gen::ElemType::F16, size, size, grid, size};
          c.epilogue = epilogue;
          cases.push_back(c);
        }
    }
  // Transposes of square matrices of 256 KiB..4 MiB in f16 and f32 (the
  // size is X's bytes).
  for (gen::ElemType type : {gen::ElemType::F16, gen::ElemType::F32})
    for (int64_t size : {512, 1024}) {
      int64_t bytes = size * size * gen::elemSize(type).bytes.count();
      if (bytes < minBytes || bytes > maxBytes)
        continue;
      for (int64_t grid : {1, 8, 32})
        if (grid <= cores && !gen::transposeProblem(size, size, grid))
          cases.push_back({gen::BenchKind::Add, type, size, size, grid, 0, true});
    }
  // Gathers of rows of 1024 elements (embedding rows) through an i32 index
  // vector, as many rows as the table has (the size is the table's bytes),
  // then scatters of as many rows into a table (a KV-cache write) through a
  // permutation: the rows in reverse order, so no two rows race for one;
  // then scatter-adds through the same permutation (each table row read,
  // added to and written back through one indirect tile). A scatter-add's
  // grid tile is one tile (every row read before any is written), so its
  // grids are of 8-row tiles, as a frontend's blocks of rows are, and run
  // in rounds where there are more tiles than cores.
  for (int indirectKind : {0, 1, 2})
    for (gen::ElemType type : {gen::ElemType::F16, gen::ElemType::F32})
      for (int64_t rows : {64, 256, 1024, 4096}) {
        int64_t bytes = rows * 1024 * gen::elemSize(type).bytes.count();
        if (bytes < minBytes || bytes > maxBytes)
          continue;
        std::vector<int64_t> grids = {1, 8, 32};
        // Up to 1024 rows: 512 tiles on sample's 2 cores would be more
        // rounds than one DMA program's table holds.
        if (indirectKind == 2)
          grids = rows <= 1024 ? std::vector<int64_t>{rows / 8} : std::vector<int64_t>{};
        for (int64_t grid : grids)
          if ((grid <= cores || indirectKind == 2) && !gen::gatherProblem(rows, 1024, grid)) {
            BenchCase indirect{gen::BenchKind::Add, type, rows, 1024, grid, 0, false, true};
            indirect.scatter = indirectKind > 0;
            indirect.accumulate = indirectKind == 2;
            cases.push_back(indirect);
          }
      }
  return cases;
}

static std::optional<int64_t> parseSize(llvm::StringRef text) {
  int64_t scale = 1;
  if (text.consume_back_insensitive("k") || text.consume_back_insensitive("kib"))
    scale = 1024;
  else if (text.consume_back_insensitive("m") || text.consume_back_insensitive("mib"))
    scale = 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value < 1)
    return std::nullopt;
  return value * scale;
}

/// The V1 plan of a schedule's `plan` (its JSON): every group's tile cut to
/// at most two vectors of its compute unit (`lanes` elements each) along
/// the last dimension and 1 along the others, depth 2, the decisions that
/// follow from tiles and depth left to the scheduler. With
/// `keepLastDim` the last dimension stays whole (a reduced dimension must).
static std::optional<std::string> v1Plan(llvm::StringRef plan, int64_t lanes, bool keepLastDim) {
  return tune::rewritePlanGroups(plan, [&](llvm::json::Object &g) {
    llvm::json::Array *tile = g.getArray("tile");
    if (!tile || tile->empty())
      return false;
    for (size_t d = 0; d + 1 < tile->size(); ++d)
      (*tile)[d] = int64_t(1);
    std::optional<int64_t> last = tile->back().getAsInteger();
    if (!last)
      return false;
    if (!keepLastDim)
      tile->back() = std::min<int64_t>(*last, 2 * lanes);
    g["depth"] = int64_t(2);
    return true;
  });
}

/// --v1: runs the kernel again with the V1 plan of `heuristicPlan` (see
/// v1Plan), first with the last dimension cut, then, if the schedule
/// rejects that (a reduced dimension), whole.
static void runV1(mlir::MLIRContext &context, const arch::ArchModel &model,
                  llvm::StringRef archName, const BenchCase &benchCase, mlir::ModuleOp module,
                  const interp::SourceNames &names, llvm::StringRef heuristicPlan,
                  BenchRow &row) {
  mlir::Type type = benchCase.type == gen::ElemType::F32
                        ? mlir::Type(mlir::Float32Type::get(&context))
                        : mlir::Type(mlir::Float16Type::get(&context));
  int64_t lanes = 0;
  for (arch::NodeId id = 0; id < model.nodes().size(); ++id)
    if (model.node(id).isCompute() && !model.node(id).compute.isMatrix())
      if (std::optional<int64_t> l = model.node(id).compute.lanesFor(type))
        lanes = std::max(lanes, *l);
  if (lanes == 0) {
    row.v1Problem = "no vector unit for the type";
    return;
  }
  for (bool keepLastDim : {false, true}) {
    std::optional<std::string> plan = v1Plan(heuristicPlan, lanes, keepLastDim);
    if (!plan) {
      row.v1Problem = "the plan is not readable";
      return;
    }
    llvm::SmallString<128> path;
    int fd;
    if (llvm::sys::fs::createTemporaryFile("ktflow-v1", "json", fd, path)) {
      row.v1Problem = "cannot write a temporary plan";
      return;
    }
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << *plan;
    }
    run::RunOptions options;
    options.arch = archName.str();
    options.seed = benchSeed;
    options.plan = path.str().str();
    options.args = gen::benchKernel(benchCase.kind, benchCase.rows, benchCase.cols, benchCase.type,
                                    benchCase.grid)
                       .launchArgs();
    std::string message;
    mlir::FailureOr<run::RunReport> report =
        run::runKernel(module, model, names, options, message);
    llvm::sys::fs::remove(path);
    if (mlir::succeeded(report)) {
      bool match = llvm::all_of(report->outputs, [](const run::OutputComparison &o) {
        return o.firstMismatch < 0;
      });
      if (!match) {
        row.v1Problem = "MISMATCH";
        return;
      }
      row.v1Cycles = report->result.totalCycles.count();
      row.v1Problem.clear();
      return;
    }
    row.v1Problem = message.empty() ? "unsupported" : message;
  }
}

/// Generates, parses and runs one benchmark; diagnostics are captured as
/// the row's reason instead of being printed.
static BenchRow runCase(mlir::MLIRContext &context, const arch::ArchModel &model,
                        llvm::StringRef archName, const BenchCase &benchCase) {
  BenchRow row;
  row.benchCase = benchCase;
  row.arch = model.name().str();
  std::string firstDiagnostic;
  mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error && firstDiagnostic.empty())
      firstDiagnostic = diag.str();
    return mlir::success();
  });

  gen::KernelSpec spec = gen::benchKernel(benchCase.kind, benchCase.rows, benchCase.cols,
                                          benchCase.type, benchCase.grid);
  gen::MatmulSpec matmulSpec{benchCase.matmul, benchCase.matmul, benchCase.matmul,
                             benchCase.grid};
  matmulSpec.epilogue = benchCase.epilogue;
  std::string text = benchCase.matmul ? gen::matmulKernel(matmulSpec)
                     : benchCase.transpose
                         ? gen::transposeKernel(benchCase.rows, benchCase.cols,
                                                gen::elemTypeName(benchCase.type), benchCase.grid)
                     : benchCase.gather && benchCase.accumulate
                         ? gen::scatterAddKernel(benchCase.rows, benchCase.cols,
                                                 gen::elemTypeName(benchCase.type), benchCase.grid)
                     : benchCase.gather && benchCase.scatter
                         ? gen::scatterKernel(benchCase.rows, benchCase.cols,
                                              gen::elemTypeName(benchCase.type), benchCase.grid)
                     : benchCase.gather
                         ? gen::gatherKernel(benchCase.rows, benchCase.cols,
                                             gen::elemTypeName(benchCase.type), benchCase.grid)
                         : gen::printKernel(spec);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, benchCase.name() + ".mlir"), llvm::SMLoc());
  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tool::parseKernelSource(sourceMgr, context, asmState, benchCase.name() + ".mlir");
  if (!module) {
    row.outcome = Outcome::Error;
    row.reason = "generated kernel does not parse: " + firstDiagnostic;
    return row;
  }

  run::RunOptions options;
  options.arch = archName.str();
  options.seed = benchSeed;
  if (!benchCase.matmul && !benchCase.transpose && !benchCase.gather)
    options.args = spec.launchArgs();
  // A scatter's indices: a permutation (random ones would send rows of
  // different cores to one table row, whose survivor KTIR leaves open).
  std::optional<llvm::FileRemover> removeIndices;
  if (benchCase.gather && benchCase.scatter) {
    llvm::SmallString<128> path;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("ktflow-scatter-ids", "npy", path)) {
      row.outcome = Outcome::Error;
      row.reason = "cannot create the scatter's index file: " + ec.message();
      return row;
    }
    removeIndices.emplace(path);
    interp::NpyArray ids{"i4", {benchCase.rows}, {}};
    for (int64_t r = 0; r < benchCase.rows; ++r) {
      int32_t v = int32_t(benchCase.rows - 1 - r);
      const auto *bytes = reinterpret_cast<const uint8_t *>(&v);
      ids.data.insert(ids.data.end(), bytes, bytes + sizeof v);
    }
    if (llvm::Error e = interp::writeNpy(path, ids)) {
      row.outcome = Outcome::Error;
      row.reason = llvm::toString(std::move(e));
      return row;
    }
    options.args.push_back(("ids=" + path).str());
  }
  std::string message;
  mlir::FailureOr<run::RunReport> report = run::runKernel(
      *module, model, interp::collectSourceNames(asmState), options, message);
  if (mlir::failed(report)) {
    row.outcome = message.empty() ? Outcome::Unsupported : Outcome::Error;
    row.reason = message.empty() ? firstDiagnostic : message;
    return row;
  }
  row.cycles = report->result.totalCycles.count();
  row.compileMs = report->compileMs;
  row.simulateMs = report->simulateMs;
  llvm::Expected<arch::RooflineBound> bound = model.roofline(report->workload);
  if (!bound) {
    row.limit = "unavailable: " + llvm::toString(bound.takeError());
  } else {
    row.bound = bound->cycles;
    if (bound->limiting)
      row.limit = model.resourceName(bound->loads[*bound->limiting].resource);
  }
  row.outcome = Outcome::Match;
  for (const run::OutputComparison &output : report->outputs)
    if (output.firstMismatch >= 0) {
      row.outcome = Outcome::Mismatch;
      llvm::raw_string_ostream os(row.reason);
      os << output.name << " element " << output.firstMismatch << ": got " << output.got
         << ", expected " << output.expected;
      break;
    }
  // Contractions have no V1 plan; the tuner varies their step, buffers
  // and operand reuse.
  if (benchCase.matmul)
    row.v1Problem = "no V1 plan for a contraction";
  if (benchCase.transpose) {
    row.v1Problem = "no V1 plan for a transpose";
    row.tuneProblem = "transposes are not tuned yet";
    return row;
  }
  if (benchCase.gather) {
    row.v1Problem = benchCase.scatter ? "no V1 plan for a scatter" : "no V1 plan for a gather";
    row.tuneProblem = benchCase.scatter ? "scatters are not tuned yet" : "gathers are not tuned yet";
    return row;
  }
  if (benchV1 && row.outcome == Outcome::Match && !benchCase.matmul)
    runV1(context, model, archName, benchCase, *module, interp::collectSourceNames(asmState),
          report->planJson, row);
  if (benchTune && row.outcome == Outcome::Match) {
    tune::TuneOptions tuneOptions;
    tuneOptions.arch = archName.str();
    tuneOptions.args = options.args;
    tuneOptions.seed = benchSeed;
    tuneOptions.confirm = benchTuneConfirm;
    tuneOptions.budgetSeconds = benchTuneBudget;
    // One thread: the kernels themselves run --jobs at a time, so the
    // loader (for other threads' contexts) is never called.
    tuneOptions.jobs = 1;
    tune::KernelLoader noLoader = [](mlir::MLIRContext &, interp::SourceNames &) {
      return mlir::OwningOpRef<mlir::ModuleOp>();
    };
    std::string tuneMessage;
    mlir::FailureOr<tune::TuneResult> tuned =
        tune::tuneKernel(*module, interp::collectSourceNames(asmState), model, noLoader,
                         tuneOptions, tuneMessage);
    if (mlir::succeeded(tuned)) {
      row.tunedCycles = tuned->bestCycles;
      row.tunedPredicted = tuned->bestPredicted;
      row.tuneBudgetHit = tuned->budgetHit;
    } else {
      row.tuneProblem = tuneMessage.empty() ? "not tuned" : tuneMessage;
    }
  }
  return row;
}

static std::string shapeOf(const BenchCase &c) { return c.shape(); }

static bool measured(const BenchRow &row) {
  return row.outcome == Outcome::Match || row.outcome == Outcome::Mismatch;
}

/// One number printed with a printf format.
static std::string formatted(const char *format, double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format(format, value);
  return text;
}

static void printTable(llvm::ArrayRef<BenchRow> rows, llvm::raw_ostream &os) {
  os << llvm::format("%-16s %-5s %-8s %-11s %4s %12s %12s %7s %-24s %10s %10s  ", "kernel",
                     "dtype", "arch", "shape", "grid", "bound", "cycles", "ratio", "limit",
                     "compile-ms", "sim-ms");
  if (benchV1)
    os << llvm::format("%12s %7s  ", "v1-cycles", "v1/heur");
  if (benchTune)
    os << llvm::format("%12s %7s %7s %9s  ", "tuned-cycles", "tuned", "t/heur", "model-err");
  os << "result\n";
  for (const BenchRow &row : rows) {
    const BenchCase &c = row.benchCase;
    std::string kind = c.kindName();
    std::string dtype = gen::elemTypeName(c.type).str();
    if (measured(row))
      os << llvm::format("%-16s %-5s %-8s %-11s %4lld %12.0f %12lld %7.2f %-24s %10.1f %10.1f  ",
                         kind.c_str(), dtype.c_str(), row.arch.c_str(), shapeOf(c).c_str(),
                         (long long)c.grid, row.bound, (long long)row.cycles, row.ratio(),
                         row.limit.c_str(), row.compileMs, row.simulateMs);
    else
      os << llvm::format("%-16s %-5s %-8s %-11s %4lld %12s %12s %7s %-24s %10s %10s  ",
                         kind.c_str(), dtype.c_str(), row.arch.c_str(), shapeOf(c).c_str(),
                         (long long)c.grid, "-", "-", "-", "-", "-", "-");
    if (benchV1 && row.v1Cycles > 0)
      os << llvm::format("%12lld %7.2f  ", (long long)row.v1Cycles, row.v1Ratio());
    else if (benchV1)
      os << llvm::format("%12s %7s  ", "-", "-");
    if (benchTune && row.tunedCycles > 0)
      os << llvm::format("%12lld %7.2f %7.3f ", (long long)row.tunedCycles, row.tunedRatio(),
                         row.tunedOverHeuristic())
         << (row.modelError() >= 0 ? formatted("%8.1f%%", 100 * row.modelError())
                                   : std::string("        -"))
         << (row.tuneBudgetHit ? "* " : "  ");
    else if (benchTune)
      os << llvm::format("%12s %7s %7s %9s  ", "-", "-", "-", "-");
    os << row.result();
    if (benchV1 && !row.v1Problem.empty() && measured(row))
      os << " (v1: " << llvm::StringRef(row.v1Problem).split('\n').first << ")";
    if (benchTune && !row.tuneProblem.empty() && measured(row))
      os << " (tune: " << llvm::StringRef(row.tuneProblem).split('\n').first << ")";
    os << "\n";
  }
}

/// --tune: the geometric means over the tuned rows, per description.
static void printTuneSummary(llvm::ArrayRef<BenchRow> rows, llvm::raw_ostream &os) {
  std::map<std::string, std::vector<const BenchRow *>> byArch;
  for (const BenchRow &row : rows)
    if (row.tunedCycles > 0 && row.bound > 0)
      byArch[row.arch].push_back(&row);
  for (const auto &[arch, tuned] : byArch) {
    double logHeuristic = 0, logTuned = 0, logGain = 0;
    size_t slower = 0, cut = 0;
    for (const BenchRow *row : tuned) {
      logHeuristic += std::log(row->ratio());
      logTuned += std::log(row->tunedRatio());
      logGain += std::log(row->tunedOverHeuristic());
      slower += row->tunedCycles > row->cycles;
      cut += row->tuneBudgetHit;
    }
    double n = double(tuned.size());
    os << llvm::format("tuned on %s: %zu kernels, geomean ratio heuristic %.3f, tuned %.3f, "
                       "tuned / heuristic %.3f; %zu slower than the heuristic, %zu cut by the "
                       "budget (*)\n",
                       arch.c_str(), tuned.size(), std::exp(logHeuristic / n),
                       std::exp(logTuned / n), std::exp(logGain / n), slower, cut);
  }
}

static std::string csvField(llvm::StringRef text) {
  if (!text.contains(',') && !text.contains('"') && !text.contains('\n'))
    return text.str();
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c == '\n' ? ' ' : c;
  }
  return quoted + "\"";
}

static int writeCsv(llvm::ArrayRef<BenchRow> rows) {
  std::string error;
  auto file = mlir::openOutputFile(benchCsv, &error);
  if (!file)
    return fail(error);
  llvm::raw_ostream &os = file->os();
  os << "kernel,dtype,arch,shape,grid,bound_cycles,cycles,ratio,limit,compile_ms,simulate_ms,";
  if (benchTune)
    os << "tuned_cycles,tuned_ratio,tuned_over_heuristic,model_error,tune_budget_hit,";
  os << "result\n";
  for (const BenchRow &row : rows) {
    const BenchCase &c = row.benchCase;
    os << c.kindName() << "," << gen::elemTypeName(c.type) << "," << row.arch
       << "," << shapeOf(c) << "," << c.grid << ",";
    if (measured(row))
      os << llvm::format("%.0f,%lld,%.3f,", row.bound, (long long)row.cycles, row.ratio())
         << csvField(row.limit) << llvm::format(",%.2f,%.2f,", row.compileMs, row.simulateMs);
    else
      os << ",,,,,,";
    if (benchTune && row.tunedCycles > 0)
      os << llvm::format("%lld,%.3f,%.4f,", (long long)row.tunedCycles, row.tunedRatio(),
                         row.tunedOverHeuristic())
         << (row.modelError() >= 0 ? formatted("%.4f", row.modelError()) : std::string())
         << "," << int(row.tuneBudgetHit) << ",";
    else if (benchTune)
      os << ",,,,,";
    os << csvField(row.result()) << "\n";
  }
  file->keep();
  return 0;
}

static int writeJson(llvm::ArrayRef<BenchRow> rows) {
  std::string error;
  auto file = mlir::openOutputFile(benchJson, &error);
  if (!file)
    return fail(error);
  llvm::json::OStream json(file->os(), 2);
  json.array([&] {
    for (const BenchRow &row : rows) {
      const BenchCase &c = row.benchCase;
      json.object([&] {
        json.attribute("kernel", c.kindName());
        json.attribute("dtype", gen::elemTypeName(c.type));
        json.attribute("arch", row.arch);
        json.attribute("rows", c.rows);
        json.attribute("cols", c.cols);
        json.attribute("grid", c.grid);
        if (measured(row)) {
          json.attribute("bound_cycles", row.bound);
          json.attribute("cycles", row.cycles);
          json.attribute("ratio", row.ratio());
          json.attribute("limit", row.limit);
          json.attribute("compile_ms", row.compileMs);
          json.attribute("simulate_ms", row.simulateMs);
          if (row.v1Cycles > 0) {
            json.attribute("v1_cycles", row.v1Cycles);
            json.attribute("v1_ratio", row.v1Ratio());
          }
          if (row.tunedCycles > 0) {
            json.attribute("tuned_cycles", row.tunedCycles);
            json.attribute("tuned_ratio", row.tunedRatio());
            json.attribute("tuned_over_heuristic", row.tunedOverHeuristic());
            if (row.modelError() >= 0)
              json.attribute("model_error", row.modelError());
            json.attribute("tune_budget_hit", row.tuneBudgetHit);
          }
        }
        json.attribute("result", row.result());
      });
    }
  });
  file->os() << "\n";
  file->keep();
  return 0;
}

static int runBench() {
  std::optional<int64_t> maxBytes = parseSize(benchMaxBytes);
  std::optional<int64_t> minBytes =
      benchMinBytes == "0" ? std::optional<int64_t>(0) : parseSize(benchMinBytes);
  if (!minBytes)
    return fail("--min-bytes must be a positive size like 4096, 64K or 1M, got '" +
                benchMinBytes + "'");
  if (!maxBytes)
    return fail("--max-bytes must be a positive size like 4096, 64K or 4M, got '" +
                benchMaxBytes + "'");
  llvm::Regex filter(benchFilter);
  std::string regexError;
  if (!benchFilter.empty() && !filter.isValid(regexError))
    return fail("--filter '" + benchFilter + "': " + regexError);
  std::vector<std::string> archs(benchArchs.begin(), benchArchs.end());
  if (archs.empty())
    archs.push_back("spyre");

  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  // Architecture problems are reported with their file locations.
  llvm::SourceMgr archSourceMgr;
  mlir::SourceMgrDiagnosticHandler archHandler(archSourceMgr, &context);

  struct Planned {
    std::shared_ptr<const arch::ArchModel> model;
    std::string archName;
    BenchCase benchCase;
  };
  std::vector<Planned> plan;
  for (const std::string &archName : archs) {
    std::string error;
    std::shared_ptr<const arch::ArchModel> model = arch::ArchModel::load(context, archName, error);
    if (!model)
      return error.empty() ? 1 : fail(error);
    std::optional<ktsched::Placement> placement = ktsched::findPlacement(*model, model->loc());
    if (!placement)
      return 1;
    for (const BenchCase &benchCase : suite(*minBytes, *maxBytes, placement->cores))
      if (benchFilter.empty() || filter.match(benchCase.name()))
        plan.push_back({model, archName, benchCase});
  }
  if (plan.empty())
    return fail("no benchmark matches --filter '" + benchFilter + "' within --min-bytes " +
                benchMinBytes + " and --max-bytes " + benchMaxBytes);

  // Each thread compiles in its own context; worker 0 uses this one. With
  // several threads, a context's own thread pool would only oversubscribe
  // the machine, so it is switched off.
  unsigned jobs = benchJobs ? unsigned(benchJobs) : defaultJobs();
  if (jobs > 1)
    context.disableMultithreading();
  struct Worker {
    std::unique_ptr<mlir::MLIRContext> ownContext;
    mlir::MLIRContext *context = nullptr;
    std::map<std::string, std::shared_ptr<const arch::ArchModel>> models;
  };
  std::vector<Worker> workers(jobs);
  workers[0].context = &context;
  std::vector<BenchRow> rows(plan.size());
  {
    // Erased when it goes out of scope, before the table is printed.
    ProgressLine progress(plan.size());
    runJobs(plan.size(), jobs, [&](unsigned w, size_t i) {
      const Planned &planned = plan[i];
      Worker &worker = workers[w];
      if (!worker.context) {
        worker.ownContext = std::make_unique<mlir::MLIRContext>(
            registry, mlir::MLIRContext::Threading::DISABLED);
        worker.ownContext->loadAllAvailableDialects();
        worker.ownContext->printOpOnDiagnostic(false);
        worker.context = worker.ownContext.get();
      }
      // A description is loaded once per context: models hold the
      // context's types and attributes.
      std::shared_ptr<const arch::ArchModel> &model = worker.models[planned.archName];
      if (!model && worker.context == &context)
        model = planned.model;
      std::string error;
      if (!model)
        model = arch::ArchModel::load(*worker.context, planned.archName, error);
      progress.started(planned.benchCase.name() + " on " + planned.model->name().str());
      if (!model) {
        rows[i].benchCase = planned.benchCase;
        rows[i].arch = planned.model->name().str();
        rows[i].reason = "cannot load '" + planned.archName + "' again: " + error;
      } else {
        rows[i] = runCase(*worker.context, *model, planned.archName, planned.benchCase);
      }
      progress.finished();
    });
  }
  size_t failures = 0, unsupported = 0;
  for (const BenchRow &row : rows) {
    failures += row.outcome == Outcome::Mismatch || row.outcome == Outcome::Error;
    unsupported += row.outcome == Outcome::Unsupported;
  }

  printTable(rows, llvm::outs());
  if (benchTune)
    printTuneSummary(rows, llvm::outs());
  llvm::outs() << rows.size() << " benchmarks: " << rows.size() - failures - unsupported
               << " match, " << unsupported << " unsupported, " << failures << " errors\n";
  if (!benchCsv.empty() && writeCsv(rows))
    return 1;
  if (!benchJson.empty() && writeJson(rows))
    return 1;
  return failures ? 1 : 0;
}

static ktflow::tool::CommandRegistration benchRegistration(benchCmd, runBench);
