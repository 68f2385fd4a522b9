//===- CostCommand.cpp - `ktflow cost KERNEL --arch A` --------------------===//
//
// Schedules a KTIR kernel as `ktflow compile` does (`--plan` replays a
// plan) and prints what lib/Cost computes from the schedule alone, without
// lowering or simulating: the roofline workload per resource (bytes for
// memory ports and links, issue cycles for compute units), each resource's
// cycles at its throughput, and the bound, the largest of them, with its
// limiting resource. It is the roofline only, the physical limit a run is
// measured against; a prediction of the schedule's cycles is the cost
// model's to add.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/Cost/Predict.h"
#include "ktflow/Cost/Workload.h"
#include "ktflow/InitAll.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/LaunchValues.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::SubCommand costCmd("cost",
                              "Schedule a kernel; print its roofline work per resource and bound");
static cl::opt<std::string> costInput(cl::Positional, cl::Required,
                                      cl::desc("<kernel.mlir> | eval"),
                                      cl::sub(costCmd));
static cl::opt<std::string> costArch("arch",
                                     cl::desc("architecture description (name or file); "
                                              "default: one embedded in the input"),
                                     cl::cat(ktflow::tool::inputCategory()), cl::sub(costCmd));
static cl::opt<std::string> costPlan("plan", cl::desc("replay the decisions of FILE"),
                                     cl::value_desc("FILE"),
                                     cl::cat(ktflow::tool::scheduleCategory()), cl::sub(costCmd));

static cl::opt<unsigned> costEvalPlans("plans",
                                       cl::desc("`cost eval`: random plans per kernel besides the "
                                                "heuristic's"),
                                       cl::init(4), cl::sub(costCmd));
static cl::opt<uint64_t> costEvalSeed("seed", cl::desc("`cost eval`: seed of the random plans"),
                                      cl::init(1), cl::sub(costCmd));
static cl::opt<std::string> costEvalFilter(
    "filter", cl::desc("`cost eval`: only kernels whose name (e.g. add-64x1024-g8) matches REGEX"),
    cl::value_desc("REGEX"), cl::sub(costCmd));
static cl::opt<std::string> costEvalCsv("csv", cl::desc("`cost eval`: write every row to FILE"),
                                        cl::value_desc("FILE"), cl::sub(costCmd));

/// "bytes" for memory ports and links, "issue cycles" for compute units.
static const char *workUnit(const ktflow::arch::Resource &resource) {
  return resource.kind == ktflow::arch::Resource::Kind::Compute ? "issue cycles" : "bytes";
}

static int runCost() {
  if (costInput == "eval")
    return ktflow::tool::runCostEval(costArch, costEvalPlans, costEvalSeed, costEvalCsv,
                                    costEvalFilter);
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::openKernelSource(sourceMgr, context, costInput, "cost");
  if (!module)
    return 1;

  ktflow::ktsched::ScheduleOptions options;
  options.arch = costArch;
  options.plan = costPlan;
  mlir::PassManager pm(&context);
  ktflow::ktsched::buildSchedulePipeline(pm, options);
  if (mlir::failed(pm.run(*module)))
    return 1;
  std::shared_ptr<const ktflow::arch::ArchModel> model =
      ktflow::ktsched::getArchModel(*module, costArch);
  if (!model)
    return 1;
  mlir::FailureOr<ktflow::arch::Workload> workload = ktflow::cost::computeWorkload(*module, *model);
  if (mlir::failed(workload))
    return 1;
  llvm::Expected<ktflow::arch::RooflineBound> bound = model->roofline(*workload);
  if (!bound) {
    llvm::errs() << "ktflow cost: no roofline bound: " << llvm::toString(bound.takeError()) << "\n";
    return 1;
  }

  std::string kernel;
  for (auto k : module->getOps<ktflow::ktsched::KernelOp>())
    kernel = k.getSymName().str();
  llvm::raw_ostream &os = llvm::outs();
  os << "roofline of @" << kernel << " on " << model->name()
     << " (the physical limit of its schedule's work; not a prediction)\n";
  os << llvm::format("  %-28s %9s %14s %-12s %14s %12s\n", "resource", "instances", "work", "",
                     "work/cycle", "cycles");
  for (const ktflow::arch::ResourceLoad &load : bound->loads)
    os << llvm::format("  %-28s %9lld %14.0f %-12s %14.2f %12.1f\n",
                       model->resourceName(load.resource).c_str(), (long long)load.instances,
                       load.work, workUnit(load.resource), load.throughput, load.cycles);
  if (bound->limiting)
    os << "roofline bound: " << llvm::format("%.0f", bound->cycles) << " cycles, limited by "
       << model->resourceName(bound->loads[*bound->limiting].resource) << "\n";
  else
    os << "roofline bound: 0 cycles (no work)\n";
  mlir::FailureOr<ktflow::cost::Prediction> prediction =
      ktflow::cost::predictCycles(*module, *model);
  if (mlir::failed(prediction))
    return 1;
  os << "predicted: " << llvm::format("%.0f", prediction->cycles)
     << " cycles (cost model: steady state + fill and drain, per group)\n";
  for (const ktflow::cost::GroupPrediction &g : prediction->groups)
    os << llvm::format("  @%-8s steady %10.0f  fill %8.0f  steps %6lld  limited by %s\n",
                       g.group.c_str(), g.steady, g.fill, (long long)g.steps,
                       g.limiting.c_str());
  // Unbound launch values: the schedule holds the extents of their
  // upperbounds, and so does the work counted above.
  for (auto k : module->getOps<ktflow::ktsched::KernelOp>())
    for (const ktflow::ktsched::UnboundLaunchValue &v : ktflow::ktsched::unboundLaunchValuesOf(k))
      os << "launch value " << v.name << ": unbound; work counted at its upperbound "
         << v.upperbound << " (a multiple of " << v.granularity << " is given at launch)\n";
  return 0;
}

static ktflow::tool::CommandRegistration costRegistration(costCmd, runCost);
