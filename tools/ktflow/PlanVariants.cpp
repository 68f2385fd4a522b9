//===- PlanVariants.cpp - random variants of a schedule's plan ------------===//
#include "PlanVariants.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

std::optional<std::string> ktflow::tool::randomPlanVariant(llvm::StringRef plan,
                                                        std::mt19937_64 &rng) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  llvm::json::Object *root = parsed->getAsObject();
  llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return std::nullopt;
  for (llvm::json::Value &kernel : *kernels) {
    llvm::json::Array *groups =
        kernel.getAsObject() ? kernel.getAsObject()->getArray("groups") : nullptr;
    if (!groups)
      return std::nullopt;
    for (llvm::json::Value &group : *groups) {
      llvm::json::Object *g = group.getAsObject();
      llvm::json::Array *tile = g ? g->getArray("tile") : nullptr;
      if (!tile)
        return std::nullopt;
      for (llvm::json::Value &extent : *tile) {
        std::optional<int64_t> e = extent.getAsInteger();
        if (!e)
          return std::nullopt;
        int k = int(rng() % 5) - 3;
        int64_t scaled = k >= 0 ? *e << k : *e >> -k;
        extent = std::max<int64_t>(1, scaled);
      }
      (*g)["depth"] = int64_t(1 + rng() % 3);
      g->erase("hoist");
      g->erase("lead");
      g->erase("classes");
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(*parsed));
  return text;
}

