//===- Tuner.cpp - search plans: cost model first, simulator last ---------===//
//
// Strategy. The heuristic's plan is simulated first (the baseline). Then,
// in batches:
//  1. price: the random draws (PlanSpace.h) and the heuristic's neighbours
//     are scheduled and priced by the prediction, then the neighbours of
//     the best predicted plan;
//  2. confirm: `batch` plans not yet simulated are simulated and checked:
//     first the neighbours of the fastest plan so far (the heuristic's at
//     the start) in predicted order, then the best predicted of the rest
//     (ties in generation order); when one is faster than the best so far,
//     its neighbours are priced and come first next (a hill climb in the
//     simulator, the model ordering its steps: the model ties
//     bandwidth-bound plans and is 20% off on some, the simulator is not).
// Each batch is one runJobs call: item i's result goes to slot i, and
// results are read in slot order after the batch, so neither the number of
// threads nor their timing changes which plan wins. A worker keeps its own
// MLIRContext, kernel, description and temporary plan file across batches;
// worker 0 is the caller's thread and context.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Tune/Tuner.h"

#include "ktflow/Cost/Predict.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Schedule/Plan.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "ktflow/Support/Jobs.h"
#include "ktflow/Tune/PlanSpace.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <set>

using namespace ktflow;

namespace {

/// Pricing is cheap next to simulation: this many plans per pricing batch.
constexpr size_t kPricingBatch = 16;
/// Parents of candidates that are no other candidate's neighbour.
constexpr int64_t kHeuristic = -1, kNone = -2;

/// One thread's state, kept across batches.
struct Worker {
  std::unique_ptr<mlir::MLIRContext> ownContext;
  mlir::OwningOpRef<mlir::ModuleOp> ownModule;
  interp::SourceNames ownNames;
  std::shared_ptr<const arch::ArchModel> ownModel;
  mlir::MLIRContext *context = nullptr;
  mlir::ModuleOp module;
  const interp::SourceNames *names = nullptr;
  const arch::ArchModel *model = nullptr;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> quiet;
  llvm::SmallString<128> planPath;
  bool broken = false;
  /// The first error diagnostic of the current run (the quiet handler's).
  std::string firstError;

  ~Worker() {
    if (!planPath.empty())
      llvm::sys::fs::remove(planPath);
  }

  bool writePlan(llvm::StringRef plan) {
    if (planPath.empty() &&
        llvm::sys::fs::createTemporaryFile("ktflow-tune", "json", planPath))
      return false;
    std::error_code ec;
    llvm::raw_fd_ostream os(planPath, ec);
    os << plan;
    return !ec;
  }
};

class Search {
public:
  Search(mlir::ModuleOp module, const interp::SourceNames &names, const arch::ArchModel &model,
         const tune::KernelLoader &loader, const tune::TuneOptions &options)
      : loader(loader), options(options),
        jobs(options.jobs ? options.jobs : defaultJobs()), workers(jobs) {
    Worker &first = workers[0];
    first.context = module.getContext();
    first.module = module;
    first.names = &names;
    first.model = &model;
  }

  mlir::LogicalResult run(std::string &message);
  tune::TuneResult result;

private:
  bool ready(Worker &worker);
  /// The predicted cycles of `plan` and the plan its schedule took (the
  /// scheduler may clamp a tile: two plans can give one schedule).
  std::optional<std::pair<double, std::string>> price(Worker &worker, llvm::StringRef plan);
  /// The simulated cycles of `plan` (empty: the heuristic's), or -2 with
  /// `problem` saying why.
  int64_t simulate(Worker &worker, llvm::StringRef plan, std::string *replayed,
                   std::string *problem = nullptr);
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  /// Whether another batch may start (the budget and maxBatches).
  bool mayStart();
  /// Adds the plans not seen yet as candidates, neighbours of candidate
  /// `parent` (kHeuristic: of the heuristic's plan; kNone: random);
  /// returns their indices.
  std::vector<size_t> add(llvm::ArrayRef<std::string> plans, llvm::StringRef origin,
                          int64_t parent);
  /// Prices `indices` in pricing batches; false when the budget stopped it.
  bool priceAll(llvm::ArrayRef<size_t> indices);
  void report();

  const tune::KernelLoader &loader;
  const tune::TuneOptions &options;
  unsigned jobs;
  std::vector<Worker> workers;
  std::set<std::string> seen;
  /// The schedules' own plans priced so far.
  std::set<std::string> schedules;
  /// Per candidate, the plan it is a neighbour of (kHeuristic, kNone or a
  /// candidate's index).
  std::vector<int64_t> parents;
  bool searching = false;
  std::chrono::steady_clock::time_point start;
};

} // namespace

bool Search::ready(Worker &worker) {
  if (worker.broken)
    return false;
  if (!worker.context) {
    const mlir::DialectRegistry &registry = workers[0].context->getDialectRegistry();
    worker.ownContext =
        std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
    worker.ownContext->loadAllAvailableDialects();
    worker.ownContext->printOpOnDiagnostic(false);
    worker.context = worker.ownContext.get();
  }
  // The heuristic's run speaks to the caller's handlers; the candidates'
  // diagnostics (plans that do not fit) are expected and not shown.
  if (!worker.quiet && searching)
    worker.quiet = std::make_unique<mlir::ScopedDiagnosticHandler>(
        worker.context, [&worker](mlir::Diagnostic &diag) {
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error && worker.firstError.empty())
            worker.firstError = diag.str();
          return mlir::success();
        });
  if (!worker.module) {
    worker.ownModule = loader(*worker.context, worker.ownNames);
    std::string error;
    if (worker.ownModule)
      worker.ownModel = arch::ArchModel::load(*worker.context, options.arch, error);
    if (!worker.ownModule || !worker.ownModel) {
      worker.broken = true;
      return false;
    }
    worker.module = *worker.ownModule;
    worker.names = &worker.ownNames;
    worker.model = worker.ownModel.get();
  }
  return true;
}

std::optional<std::pair<double, std::string>> Search::price(Worker &worker,
                                                             llvm::StringRef plan) {
  if (!ready(worker) || !worker.writePlan(plan))
    return std::nullopt;
  mlir::OwningOpRef<mlir::ModuleOp> scheduled(worker.module.clone());
  ktsched::ScheduleOptions scheduleOptions;
  scheduleOptions.arch = options.arch;
  scheduleOptions.plan = worker.planPath.str().str();
  scheduleOptions.args = options.args;
  mlir::PassManager pm(worker.context);
  ktsched::buildSchedulePipeline(pm, scheduleOptions);
  if (mlir::failed(pm.run(*scheduled)))
    return std::nullopt;
  mlir::FailureOr<cost::Prediction> prediction = cost::predictCycles(*scheduled, *worker.model);
  if (mlir::failed(prediction))
    return std::nullopt;
  std::string taken;
  llvm::raw_string_ostream os(taken);
  ktsched::writePlan(*scheduled, os);
  std::optional<std::string> normalized = tune::normalizedPlan(taken);
  if (!normalized)
    return std::nullopt;
  return std::make_pair(prediction->cycles, std::move(*normalized));
}

int64_t Search::simulate(Worker &worker, llvm::StringRef plan, std::string *replayed,
                         std::string *problem) {
  if (!ready(worker)) {
    if (problem)
      *problem = "the worker could not load the kernel or the description";
    return -2;
  }
  worker.firstError.clear();
  run::RunOptions runOptions;
  runOptions.arch = options.arch;
  runOptions.args = options.args;
  runOptions.seed = options.seed;
  if (!plan.empty()) {
    if (!worker.writePlan(plan))
      return -2;
    runOptions.plan = worker.planPath.str().str();
  }
  std::string message;
  mlir::FailureOr<run::RunReport> report =
      run::runKernel(worker.module, *worker.model, *worker.names, runOptions, message);
  if (mlir::failed(report) || !report->match) {
    if (problem)
      *problem = mlir::failed(report)
                     ? (message.empty() ? worker.firstError : message)
                     : "MISMATCH against the interpreter";
    return -2;
  }
  if (replayed)
    *replayed = report->planJson;
  return report->result.totalCycles.count();
}

bool Search::mayStart() {
  if (options.maxBatches && result.batches >= options.maxBatches)
    return false;
  if (elapsed() >= options.budgetSeconds) {
    result.budgetHit = true;
    return false;
  }
  return true;
}

std::vector<size_t> Search::add(llvm::ArrayRef<std::string> plans, llvm::StringRef origin,
                                int64_t parent) {
  std::vector<size_t> added;
  for (const std::string &plan : plans) {
    if (!seen.insert(plan).second)
      continue;
    added.push_back(result.candidates.size());
    tune::TuneCandidate candidate;
    candidate.plan = plan;
    candidate.origin = origin.str();
    result.candidates.push_back(std::move(candidate));
    parents.push_back(parent);
  }
  return added;
}

bool Search::priceAll(llvm::ArrayRef<size_t> indices) {
  for (size_t first = 0; first < indices.size(); first += kPricingBatch) {
    if (!mayStart())
      return false;
    llvm::ArrayRef<size_t> chunk =
        indices.slice(first, std::min(kPricingBatch, indices.size() - first));
    std::vector<std::optional<std::pair<double, std::string>>> prices(chunk.size());
    runJobs(chunk.size(), jobs, [&](unsigned w, size_t i) {
      prices[i] = price(workers[w], result.candidates[chunk[i]].plan);
    });
    // In slot order: of two plans with one schedule the earlier stays.
    for (size_t i = 0; i < chunk.size(); ++i) {
      if (!prices[i]) {
        ++result.rejected;
      } else if (!schedules.insert(prices[i]->second).second) {
        ++result.duplicates;
      } else {
        result.candidates[chunk[i]].predicted = prices[i]->first;
        ++result.priced;
      }
    }
    ++result.batches;
    report();
  }
  return true;
}

void Search::report() {
  if (!options.onProgress)
    return;
  tune::TuneProgress progress;
  progress.priced = result.priced;
  progress.rejected = result.rejected;
  progress.simulated = result.simulated;
  progress.batches = result.batches;
  progress.heuristicCycles = result.heuristicCycles;
  progress.bestCycles = result.bestCycles;
  progress.elapsedSeconds = elapsed();
  progress.budgetSeconds = options.budgetSeconds;
  options.onProgress(progress);
}

mlir::LogicalResult Search::run(std::string &message) {
  // The heuristic's plan, in the caller's context with its handlers.
  result.heuristicCycles = simulate(workers[0], "", &result.heuristicPlan);
  if (result.heuristicCycles < 0) {
    message = "the kernel does not compile, simulate and match with the heuristic's plan";
    return mlir::failure();
  }
  searching = true;
  if (jobs > 1)
    workers[0].context->disableMultithreading();
  result.bestPlan = result.heuristicPlan;
  result.bestCycles = result.heuristicCycles;
  start = std::chrono::steady_clock::now();
  std::optional<std::string> heuristic = tune::normalizedPlan(result.heuristicPlan);
  if (!heuristic) {
    message = "the heuristic's plan is not readable";
    return mlir::failure();
  }
  seen.insert(*heuristic);
  if (auto priced = price(workers[0], result.heuristicPlan)) {
    result.heuristicPredicted = result.bestPredicted = priced->first;
    schedules.insert(priced->second);
  }
  auto finish = [&] {
    result.seconds = elapsed();
    return mlir::success();
  };

  // 1. The random draws and the heuristic's neighbours, then the best
  // predicted plan's neighbours.
  std::mt19937_64 rng(options.seed);
  std::vector<std::string> draws;
  for (unsigned i = 0; i < options.candidates; ++i)
    if (std::optional<std::string> plan = tune::randomPlanVariant(*heuristic, rng))
      draws.push_back(std::move(*plan));
  std::vector<size_t> fresh = add(draws, "random", kNone);
  llvm::append_range(fresh, add(tune::planNeighbours(*heuristic), "heuristic+1", kHeuristic));
  if (!priceAll(fresh))
    return finish();
  auto byPrediction = [&](size_t a, size_t b) {
    const tune::TuneCandidate &x = result.candidates[a], &y = result.candidates[b];
    return x.predicted != y.predicted ? x.predicted < y.predicted : a < b;
  };
  std::vector<size_t> pricedOnes;
  for (size_t i = 0; i < result.candidates.size(); ++i)
    if (result.candidates[i].predicted >= 0)
      pricedOnes.push_back(i);
  if (!pricedOnes.empty()) {
    size_t bestPredicted = *std::min_element(pricedOnes.begin(), pricedOnes.end(), byPrediction);
    if (!priceAll(add(tune::planNeighbours(result.candidates[bestPredicted].plan),
                      "predicted+1", int64_t(bestPredicted))))
      return finish();
  }

  // 2. Confirm, batch by batch: first the neighbours of the fastest plan
  // so far (a hill climb in the simulator, the model ordering the steps),
  // then the best predicted of the rest; a faster plan's neighbours join
  // the pool.
  int64_t fastest = kHeuristic;
  while (result.simulated < options.confirm) {
    std::vector<size_t> waiting;
    for (size_t i = 0; i < result.candidates.size(); ++i)
      if (result.candidates[i].predicted >= 0 && result.candidates[i].simulated == -1)
        waiting.push_back(i);
    if (waiting.empty())
      break;
    size_t take = std::min<size_t>({waiting.size(), std::max(1u, options.batch),
                                    options.confirm - result.simulated});
    auto climbFirst = [&](size_t a, size_t b) {
      bool nearA = parents[a] == fastest, nearB = parents[b] == fastest;
      return nearA != nearB ? nearA : byPrediction(a, b);
    };
    std::partial_sort(waiting.begin(), waiting.begin() + take, waiting.end(), climbFirst);
    waiting.resize(take);
    if (!mayStart())
      break;
    ++result.batches;
    std::vector<int64_t> cycles(take);
    std::vector<std::string> replayed(take), problems(take);
    runJobs(take, jobs, [&](unsigned w, size_t i) {
      cycles[i] =
          simulate(workers[w], result.candidates[waiting[i]].plan, &replayed[i], &problems[i]);
    });
    std::optional<size_t> improved;
    for (size_t i = 0; i < take; ++i) {
      tune::TuneCandidate &candidate = result.candidates[waiting[i]];
      candidate.simulated = cycles[i];
      candidate.problem = std::move(problems[i]);
      candidate.batch = result.batches;
      if (cycles[i] < 0)
        ++(candidate.problem.rfind("MISMATCH", 0) == 0 ? result.mismatches : result.failures);
      ++result.simulated;
      if (cycles[i] >= 0 && cycles[i] < result.bestCycles) {
        result.bestCycles = cycles[i];
        result.bestPlan = replayed[i];
        result.bestPredicted = candidate.predicted;
        result.bestBatch = result.batches;
        result.bestSeconds = elapsed();
        improved = waiting[i];
      }
    }
    report();
    if (improved) {
      fastest = int64_t(*improved);
      if (!priceAll(add(tune::planNeighbours(result.candidates[*improved].plan), "best+1",
                        fastest)))
        break;
    }
  }
  return finish();
}

mlir::FailureOr<tune::TuneResult>
tune::tuneKernel(mlir::ModuleOp module, const interp::SourceNames &names,
                 const arch::ArchModel &model, const KernelLoader &loader,
                 const TuneOptions &options, std::string &message) {
  Search search(module, names, model, loader, options);
  if (mlir::failed(search.run(message)))
    return mlir::failure();
  return std::move(search.result);
}
