//===- PlanFuzzer.cpp - libFuzzer target: plan files (--plan) -------------===//
//
// Input: any bytes, read as a plan's JSON (lib/Schedule/Plan.cpp), replayed
// as `ktflow compile KERNEL --arch A --plan FILE` does, for three fixed
// (kernel, description) pairs: examples/vector_arith.mlir on spyre and on
// deep (its grid of 4 does not fit sample's 2 cores) and the shipped
// 03_broadcast_row_and_scalar.mlir on sample. Each kernel is parsed once
// and scheduled once up to tile selection, the pipeline prefix before the
// plan replay (SchedulePipeline.cpp's order); each input then gets a clone
// of that schedule, the merge pass's reading of the plan (readPlanMerge),
// applyPlan, allocation, and the lowering with its static
// checks and a bounded simulation when the plan is accepted. Every
// rejection must be a diagnostic.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/Plan.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#ifndef KTFLOW_SOURCE_DIR
#error "KTFLOW_SOURCE_DIR must name the source tree"
#endif

using namespace ktflow;

namespace {
/// The fixed kernel scheduled for one description, just before the plan.
struct PrePlan {
  llvm::StringRef arch;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
} // namespace

static std::vector<PrePlan> &prePlans() {
  static std::vector<PrePlan> schedules = [] {
    std::vector<PrePlan> result;
    const std::pair<const char *, llvm::StringRef> pairs[] = {
        {KTFLOW_SOURCE_DIR "/examples/vector_arith.mlir", "spyre"},
        {KTFLOW_SOURCE_DIR "/examples/vector_arith.mlir", "deep"},
        {KTFLOW_SOURCE_DIR "/examples/ktir/03_broadcast_row_and_scalar.mlir",
         "sample"}};
    for (auto [path, arch] : pairs) {
      mlir::OwningOpRef<mlir::ModuleOp> kernel =
          mlir::parseSourceFile<mlir::ModuleOp>(path, &fuzz::fuzzContext());
      if (!kernel) {
        llvm::errs() << "plan-fuzzer: cannot parse " << path << "\n";
        std::abort();
      }
      fuzz::shippedModel(arch);
      mlir::OwningOpRef<mlir::ModuleOp> clone = kernel->clone();
      std::string name = arch.str();
      mlir::PassManager pm(&fuzz::fuzzContext());
      pm.addPass(ktsched::createCheckInput());
      pm.addPass(ktsched::createFormComputeGroups());
      pm.addPass(ktsched::createBuildInitialPipeline({name}));
      pm.addPass(ktsched::createExpandPaths({name}));
      pm.addPass(ktsched::createNestPipelines());
      pm.addPass(ktsched::createBufferPipelines({name, 2}));
      pm.addPass(ktsched::createMergeGridTiles({name, ""}));
      pm.addPass(ktsched::createSplitInstances({name}));
      pm.addPass(ktsched::createSelectTiles({name}));
      if (mlir::failed(pm.run(*clone))) {
        llvm::errs() << "plan-fuzzer: " << path << " does not schedule on " << arch << "\n";
        std::abort();
      }
      result.push_back({arch, std::move(clone)});
    }
    return result;
  }();
  return schedules;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef json(reinterpret_cast<const char *>(data), size);
  for (PrePlan &prePlan : prePlans()) {
    mlir::OwningOpRef<mlir::ModuleOp> module = prePlan.module->clone();
    // The merge entry is read by the merge pass, before the split.
    for (ktsched::KernelOp kernel : module->getOps<ktsched::KernelOp>())
      (void)ktsched::readPlanMerge(kernel, json, "fuzz-plan.json");
    if (mlir::failed(ktsched::applyPlan(*module, json, "fuzz-plan.json")))
      continue;
    mlir::PassManager pm(&fuzz::fuzzContext());
    pm.addPass(ktsched::createAllocateScratchpad({prePlan.arch.str()}));
    if (mlir::failed(pm.run(*module)))
      continue;
    const arch::ArchModel &model = fuzz::shippedModel(prePlan.arch);
    lower::LowerOptions options;
    options.checkLimits.maxInstructions = 20'000;
    mlir::FailureOr<lower::LoweredKernel> lowered = lower::lowerSchedule(*module, model, options);
    if (mlir::succeeded(lowered))
      fuzz::simulateBounded(lowered->bundle, model);
  }
  return 0;
}
