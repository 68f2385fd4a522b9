//===- KernelAnalysis.cpp - global views and runtime arguments ------------===//
//
// Reads the ktdp ops the launcher needs before execution: every
// construct_memory_view in global memory (its base, element type, sizes and
// strides), runtime-argument types, and runtime_arg_extract for evaluating
// sizes from launch values.
//
//===----------------------------------------------------------------------===//
#include "KernelAnalysis.h"

#include "ktflow/KTDP/KTDPAttrs.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

static SmallVector<IndexEntry, 4> entries(ArrayRef<int64_t> statics, ValueRange dynamic) {
  SmallVector<IndexEntry, 4> out;
  unsigned next = 0;
  for (int64_t s : statics) {
    if (ShapedType::isDynamic(s))
      out.push_back(dynamic[next++]);
    else
      out.push_back(s);
  }
  return out;
}

std::vector<GlobalViewSite> interp::findGlobalViews(func::FuncOp kernel) {
  std::vector<GlobalViewSite> sites;
  kernel.walk([&](ktdp::ConstructMemoryViewOp view) {
    if (!view.getMemorySpace().isGlobal())
      return;
    std::optional<ElemKind> kind = kindOf(view.getType().getElementType());
    if (!kind)
      return;
    GlobalViewSite site;
    site.op = view;
    site.offset = view.getOffset();
    site.kind = *kind;
    site.sizes = entries(view.getStaticSizes(), view.getSizes());
    site.strides = entries(view.getStaticStrides(), view.getStrides());
    sites.push_back(site);
  });
  return sites;
}

std::optional<RuntimeArgInfo> interp::runtimeArgInfo(Type type) {
  auto rt = dyn_cast<ktdp::RuntimeArgType>(type);
  if (!rt)
    return std::nullopt;
  return RuntimeArgInfo{rt.getValueType(), rt.getGranularity(), rt.getUpperbound()};
}

std::optional<int64_t> interp::evaluateLaunchTimeKTDP(
    Operation *op, llvm::function_ref<std::optional<int64_t>(Value)> eval) {
  auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(op);
  if (!extract)
    return std::nullopt;
  auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
  switch (extract.getKind()) {
  case ktdp::RuntimeArgExtractKind::Value:
    return eval(extract.getInput());
  case ktdp::RuntimeArgExtractKind::Granularity:
    return type.getGranularity();
  case ktdp::RuntimeArgExtractKind::Upperbound:
    return type.getUpperbound();
  }
  return std::nullopt;
}
