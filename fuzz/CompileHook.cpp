//===- CompileHook.cpp - what the KTIR target runs after verification -----===//
//
// The full compile pipeline of issue 8 ("KTIR parser + full compile
// pipeline"): for each shipped description (loaded once), a clone of the
// accepted module is scheduled and lowered to a bundle exactly as
// `ktflow compile KERNEL --arch A -o K.kbin` does (the scheduling pipeline
// of SchedulePipeline.h, then lowerSchedule with its static checks). The
// bundle is encoded and decoded again (the round trip `ktflow sim K.kbin`
// relies on) and simulated under a small budget. Kernels outside the
// coverage stop with diagnostics, which are dropped: only a crash, a
// sanitizer report or a hang counts.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Schedule/SchedulePipeline.h"
#include "mlir/Pass/PassManager.h"

using namespace ktflow;

void ktflow::fuzz::runCompilePipeline(mlir::ModuleOp module) {
  for (llvm::StringRef name : shippedDescriptions()) {
    const arch::ArchModel &model = shippedModel(name);
    mlir::OwningOpRef<mlir::ModuleOp> clone = module.clone();
    ktsched::ScheduleOptions options;
    options.arch = name.str();
    mlir::PassManager pm(&fuzzContext());
    ktsched::buildSchedulePipeline(pm, options);
    if (mlir::failed(pm.run(*clone)))
      continue;
    lower::LowerOptions lowerOptions;
    // The deadlock check walks every loop iteration; kernels with huge
    // trip counts would spend the whole per-input budget there.
    lowerOptions.checkLimits.maxInstructions = 20'000;
    mlir::FailureOr<lower::LoweredKernel> lowered =
        lower::lowerSchedule(*clone, model, lowerOptions);
    if (mlir::failed(lowered))
      continue;
    llvm::Expected<dc::Bundle> decoded =
        dc::decodeBundle(dc::encodeBundle(lowered->bundle), "fuzz-bundle");
    if (!decoded) {
      // The decoder rejecting what the encoder wrote is a bug.
      llvm::errs() << "fuzz: the lowered bundle does not decode: "
                   << llvm::toString(decoded.takeError()) << "\n";
      std::abort();
    }
    simulateBounded(*decoded, model);
  }
}
