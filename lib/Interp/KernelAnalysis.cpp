//===- KernelAnalysis.cpp - global views and runtime arguments ------------===//
//
// Reads the ktdp ops the launcher needs before execution.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"

#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

std::vector<GlobalViewSite> interp::findGlobalViews(func::FuncOp kernel) {
  return {};
}

std::optional<RuntimeArgInfo> interp::runtimeArgInfo(Type type) {
  return std::nullopt;
}

std::optional<int64_t> interp::evaluateLaunchTimeKTDP(
    Operation *op, llvm::function_ref<std::optional<int64_t>(Value)> eval) {
  return std::nullopt;
}
