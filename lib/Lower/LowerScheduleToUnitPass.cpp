//===- LowerScheduleToUnitPass.cpp - the lowering as a pass ---------------===//
//
// Strategy. Runs lower::lowerScheduleToUnit on the module's scheduled
// kernel for the description of `arch` (or the one embedded in the module)
// and moves the bundles it builds into the module, after the kernel, so
// ktflow-opt can run the unit passes on them next.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Lower/LowerSchedule.h"
#include "ktflow/Lower/Passes.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/KTUnit.h"

namespace ktflow::lower {
#define GEN_PASS_DEF_LOWERSCHEDULETOUNIT
#include "ktflow/Lower/Passes.h.inc"
} // namespace ktflow::lower

using namespace mlir;
using namespace ktflow;

namespace {

struct LowerScheduleToUnitPass
    : lower::impl::LowerScheduleToUnitBase<LowerScheduleToUnitPass> {
  using LowerScheduleToUnitBase::LowerScheduleToUnitBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<ktunit::KTUnitDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto model = ktsched::getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    FailureOr<lower::LoweredKernel> lowered = lower::lowerScheduleToUnit(module, *model);
    if (failed(lowered))
      return signalPassFailure();
    Block *body = module.getBody();
    for (ktunit::BundleOp bundle :
         llvm::make_early_inc_range(lowered->unit->getOps<ktunit::BundleOp>()))
      bundle->moveBefore(body, body->end());
  }
};

} // namespace
