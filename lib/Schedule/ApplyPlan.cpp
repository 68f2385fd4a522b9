//===- ApplyPlan.cpp - replace decisions by those of a plan file ----------===//
//
// Strategy: read the file named by the `plan` option and hand it to
// applyPlan (Plan.h), which validates it against the schedule and rewrites
// the decisions with source "plan". Runs after tile selection and before
// allocation, so allocation checks that the replayed decisions fit.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/Plan.h"

#include "llvm/Support/MemoryBuffer.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_APPLYPLAN
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow::ktsched;

namespace {
struct ApplyPlanPass : ktflow::ktsched::impl::ApplyPlanBase<ApplyPlanPass> {
  using Base::Base;
  void runOnOperation() override {
    if (planFile.empty())
      return;
    auto buffer = llvm::MemoryBuffer::getFile(planFile);
    if (!buffer) {
      emitError(getOperation().getLoc(), "cannot read plan '")
          << planFile << "': " << buffer.getError().message();
      return signalPassFailure();
    }
    if (failed(applyPlan(getOperation(), (*buffer)->getBuffer(), planFile)))
      signalPassFailure();
  }
};
} // namespace
