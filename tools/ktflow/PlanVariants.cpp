//===- PlanVariants.cpp - random variants of a schedule's plan ------------===//
#include "PlanVariants.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

std::optional<std::string> ktflow::tool::rewritePlanGroups(
    llvm::StringRef plan, llvm::function_ref<bool(llvm::json::Object &group)> rewrite) {
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
      if (!g || !rewrite(*g))
        return std::nullopt;
      // Decisions taken on the tiles and depth (which loads are hoisted,
      // the lead, masked classes' shares) are the scheduler's to take
      // again: replayed, the old ones would no longer fit the new tiles.
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

std::optional<std::string> ktflow::tool::randomPlanVariant(llvm::StringRef plan,
                                                           std::mt19937_64 &rng) {
  return rewritePlanGroups(plan, [&](llvm::json::Object &g) {
    llvm::json::Array *tile = g.getArray("tile");
    if (!tile)
      return false;
    for (llvm::json::Value &extent : *tile) {
      std::optional<int64_t> e = extent.getAsInteger();
      if (!e)
        return false;
      int k = int(rng() % 5) - 3;
      int64_t scaled = k >= 0 ? *e << k : *e >> -k;
      extent = std::max<int64_t>(1, scaled);
    }
    g["depth"] = int64_t(1 + rng() % 3);
    return true;
  });
}
