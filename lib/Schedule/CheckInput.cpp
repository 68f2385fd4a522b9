//===- CheckInput.cpp - reject KTIR outside the scheduler's coverage ------===//
//
// Strategy: walk every kernel (a func.func with a body) and ask the one
// supported-op table (SupportedOps.h) about each op. The table is the same
// one the compute-body lowering reads, so an op passes this check exactly
// when the later passes know how to schedule it. All problems of a kernel
// are reported, not just the first, each at the op it concerns.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_CHECKINPUT
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow::ktsched;

namespace {
struct CheckInputPass : ktflow::ktsched::impl::CheckInputBase<CheckInputPass> {
  void runOnOperation() override {
    bool ok = true;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (failed(checkOpSupported(op))) {
          ok = false;
          // Ops nested in an unsupported op would only repeat the problem.
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
