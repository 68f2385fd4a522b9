//===- CostEvalCommand.cpp - `ktflow cost eval`: the model against the sim ===//
//
// How good is the cost model? Over a suite of generated kernels (every
// bench kind at two sizes, one core and several) on each description, the
// heuristic's plan and `--plans` random plans per kernel (each group's tile
// rescaled by powers of two per dimension, its buffer depth drawn from 1-3;
// what follows from them, hoisting, lead and masked classes, re-decided
// by the scheduler) are compiled, simulated and checked against the
// interpreter; for each, lib/Cost's prediction is set beside the simulated
// cycles. A plan that does not fit is skipped. The table gives, per kernel
// kind and description, the median and 90th-percentile relative error
// |predicted - simulated| / simulated and the Spearman rank correlation of
// predicted and simulated cycles. Deterministic for a given seed.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"
#include "ktflow/Tune/PlanSpace.h"

#include "ktflow/Gen/BenchKernel.h"
#include "ktflow/Gen/KernelPrinter.h"
#include "ktflow/Gen/MatmulKernel.h"
#include "ktflow/InitAll.h"
#include "ktflow/Run/RunKernel.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

using namespace ktflow;

namespace {

/// The kernel kinds the table groups by.
llvm::StringRef kindClass(gen::BenchKind kind) {
  switch (kind) {
  case gen::BenchKind::RowSum:
  case gen::BenchKind::RowMax:
  case gen::BenchKind::ColSum:
  case gen::BenchKind::RowLoop:
    return "reduction";
  case gen::BenchKind::Softmax:
  case gen::BenchKind::LayerNorm:
  case gen::BenchKind::RmsNorm:
    return "fused";
  default:
    return "elementwise";
  }
}

struct Sample {
  std::string arch, kernel, kind;
  int64_t plan = 0;
  double predicted = 0, simulated = 0;
  /// The first group's tile and depth (a contraction's step and buffers), as
  /// the run scheduled them.
  std::string tile;
  int64_t depth = 0;
};

/// Reads the first group's tile and depth from a plan's JSON.
void firstGroupDecisions(llvm::StringRef plan, Sample &sample) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels || kernels->empty() || !kernels->front().getAsObject())
    return;
  const llvm::json::Array *groups = kernels->front().getAsObject()->getArray("groups");
  if (!groups || groups->empty() || !groups->front().getAsObject()) {
    // A contraction's step and its operand rows' slots.
    const llvm::json::Array *contractions =
        kernels->front().getAsObject()->getArray("contractions");
    if (!contractions || contractions->empty() || !contractions->front().getAsObject())
      return;
    const llvm::json::Object &c = *contractions->front().getAsObject();
    if (const llvm::json::Array *step = c.getArray("step"))
      for (const llvm::json::Value &e : *step)
        sample.tile +=
            (sample.tile.empty() ? "" : "x") + std::to_string(e.getAsInteger().value_or(0));
    sample.depth = c.getInteger("buffers").value_or(0);
    return;
  }
  const llvm::json::Object &g = *groups->front().getAsObject();
  if (const llvm::json::Array *tile = g.getArray("tile"))
    for (const llvm::json::Value &e : *tile)
      sample.tile += (sample.tile.empty() ? "" : "x") + std::to_string(e.getAsInteger().value_or(0));
  sample.depth = g.getInteger("depth").value_or(0);
}

double quantile(std::vector<double> v, double q) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t i = std::min(v.size() - 1, size_t(std::ceil(q * v.size())) - (q > 0 ? 1 : 0));
  return v[i];
}

/// Ranks with ties averaged.
std::vector<double> ranks(const std::vector<double> &v) {
  std::vector<size_t> order(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      r[order[k]] = (i + j) / 2.0;
    i = j + 1;
  }
  return r;
}

double spearman(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() < 2)
    return 1;
  std::vector<double> ra = ranks(a), rb = ranks(b);
  double ma = 0, mb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    ma += ra[i];
    mb += rb[i];
  }
  ma /= a.size();
  mb /= b.size();
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    cov += (ra[i] - ma) * (rb[i] - mb);
    va += (ra[i] - ma) * (ra[i] - ma);
    vb += (rb[i] - mb) * (rb[i] - mb);
  }
  return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 1;
}

} // namespace

int ktflow::tool::runCostEval(llvm::StringRef archList, unsigned plans, uint64_t seed,
                              llvm::StringRef csvPath, llvm::StringRef filter) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  // Plans that do not fit are expected: their diagnostics are not printed.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });

  llvm::SmallVector<llvm::StringRef> archs;
  llvm::SplitString(archList.empty() ? llvm::StringRef("spyre,sample") : archList, archs, ",");
  std::mt19937_64 rng(seed);
  std::vector<Sample> samples;
  llvm::SmallString<128> planPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile("ktflow-cost-eval", "json", planPath)) {
    llvm::errs() << "ktflow cost eval: cannot create a temporary plan: " << ec.message() << "\n";
    return 1;
  }
  for (llvm::StringRef archName : archs) {
    std::string error;
    std::shared_ptr<const arch::ArchModel> model =
        arch::ArchModel::load(context, archName, error);
    if (!model) {
      llvm::errs() << "ktflow cost eval: " << error << "\n";
      return 1;
    }
    // The suite: every bench kind at two sizes, then matmuls (M = N = K),
    // each on one core and on 8.
    struct EvalCase {
      std::string name, kind, text;
      std::vector<std::string> args;
    };
    std::vector<EvalCase> cases;
    for (gen::BenchKind kind : gen::allBenchKinds()) {
      if (kind == gen::BenchKind::Fill)
        continue;
      for (int64_t rows : {64, 256})
        for (int64_t grid : {int64_t(1), int64_t(8)}) {
          gen::KernelSpec spec = gen::benchKernel(kind, rows, 1024, gen::ElemType::F16, grid);
          std::string name = (gen::benchKindName(kind) + "-" + llvm::Twine(rows) + "x1024-g" +
                              llvm::Twine(grid))
                                 .str();
          cases.push_back({name, kindClass(kind).str(), gen::printKernel(spec),
                           spec.launchArgs()});
        }
    }
    for (int64_t size : {128, 256})
      for (int64_t grid : {int64_t(1), int64_t(8)}) {
        gen::MatmulSpec spec{size, size, size, grid};
        if (gen::matmulProblem(spec))
          continue;
        std::string name = (llvm::Twine("matmul-") + llvm::Twine(size) + "x" + llvm::Twine(size) +
                            "x" + llvm::Twine(size) + "-g" + llvm::Twine(grid))
                               .str();
        cases.push_back({name, "matmul", gen::matmulKernel(spec), {}});
      }
    for (const EvalCase &evalCase : cases) {
      const std::string &name = evalCase.name;
      if (!filter.empty() && !llvm::Regex(filter).match(name))
        continue;
      // One parse per kernel: a run leaves the module as it was.
      llvm::SourceMgr sourceMgr;
      sourceMgr.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBufferCopy(evalCase.text, name + ".mlir"), llvm::SMLoc());
      mlir::AsmParserState asmState;
      mlir::OwningOpRef<mlir::ModuleOp> module =
          parseKernelSource(sourceMgr, context, asmState, name + ".mlir");
      if (!module)
        continue;
      interp::SourceNames names = interp::collectSourceNames(asmState);
      std::string heuristicPlan;
      for (unsigned p = 0; p <= plans; ++p) {
        std::optional<std::string> plan;
        if (p > 0) {
          plan = tune::randomPlanVariant(heuristicPlan, rng);
          if (!plan)
            break;
          std::error_code ec;
          llvm::raw_fd_ostream os(planPath, ec);
          if (ec)
            break;
          os << *plan;
        }
        run::RunOptions options;
        options.arch = archName.str();
        options.seed = seed;
        options.args = evalCase.args;
        if (plan)
          options.plan = planPath.str().str();
        std::string message;
        mlir::FailureOr<run::RunReport> report =
            run::runKernel(*module, *model, names, options, message);
        if (mlir::failed(report) || !report->match) {
          if (p == 0)
            break; // the heuristic's plan must run to have variants
          continue;
        }
        if (p == 0)
          heuristicPlan = report->planJson;
        Sample sample{model->name().str(), name, evalCase.kind, p, report->prediction.cycles,
                      double(report->result.totalCycles.count())};
        firstGroupDecisions(report->planJson, sample);
        samples.push_back(std::move(sample));
      }
    }
  }
  llvm::sys::fs::remove(planPath);

  if (!csvPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream csv(csvPath, ec);
    if (ec) {
      llvm::errs() << "ktflow cost eval: cannot write " << csvPath << ": " << ec.message() << "\n";
      return 1;
    }
    csv << "arch,kernel,kind,plan,tile,depth,predicted,simulated,error\n";
    for (const Sample &s : samples)
      csv << s.arch << "," << s.kernel << "," << s.kind << "," << s.plan << "," << s.tile << ","
          << s.depth << ","
          << llvm::format("%.0f,%.0f,%.4f", s.predicted, s.simulated,
                          (s.predicted - s.simulated) / s.simulated)
          << "\n";
  }
  llvm::raw_ostream &os = llvm::outs();
  os << "cost model against the simulator (" << plans << " random plans per kernel besides the "
     << "heuristic's, seed " << seed << ")\n";
  os << llvm::format("%-8s %-12s %7s %12s %12s %9s\n", "arch", "kind", "samples", "median |err|",
                     "p90 |err|", "spearman");
  std::map<std::pair<std::string, std::string>, std::vector<const Sample *>> byKind;
  for (const Sample &s : samples)
    byKind[{s.arch, s.kind}].push_back(&s);
  for (auto &[key, group] : byKind) {
    std::vector<double> errors, predicted, simulated;
    for (const Sample *s : group) {
      errors.push_back(std::fabs(s->predicted - s->simulated) / s->simulated);
      predicted.push_back(s->predicted);
      simulated.push_back(s->simulated);
    }
    os << llvm::format("%-8s %-12s %7zu %11.1f%% %11.1f%% %9.3f\n", key.first.c_str(),
                       key.second.c_str(), group.size(), 100 * quantile(errors, 0.5),
                       100 * quantile(errors, 0.9), spearman(predicted, simulated));
  }
  return samples.empty() ? 1 : 0;
}
