//===- PlanSpace.cpp - plans around a schedule's plan ---------------------===//
//
// Plans are edited as JSON objects (the scheduler validates what it is
// given: a move that breaks a rule is rejected when the plan is replayed,
// not here).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Tune/PlanSpace.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ktflow;

std::optional<std::string> tune::rewritePlanGroups(
    llvm::StringRef plan,
    llvm::function_ref<bool(llvm::json::Object &group, unsigned index)> rewrite) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  llvm::json::Object *root = parsed->getAsObject();
  llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  if (!kernels)
    return std::nullopt;
  unsigned index = 0;
  for (llvm::json::Value &kernel : *kernels) {
    llvm::json::Array *groups =
        kernel.getAsObject() ? kernel.getAsObject()->getArray("groups") : nullptr;
    if (!groups)
      return std::nullopt;
    for (llvm::json::Value &group : *groups) {
      llvm::json::Object *g = group.getAsObject();
      if (!g || !rewrite(*g, index++))
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

std::optional<std::string>
tune::rewritePlanGroups(llvm::StringRef plan,
                        llvm::function_ref<bool(llvm::json::Object &group)> rewrite) {
  return rewritePlanGroups(plan,
                           [&](llvm::json::Object &g, unsigned) { return rewrite(g); });
}

std::optional<std::string> tune::normalizedPlan(llvm::StringRef plan) {
  return rewritePlanGroups(plan, [](llvm::json::Object &) { return true; });
}

std::optional<std::string> tune::randomPlanVariant(llvm::StringRef plan, std::mt19937_64 &rng) {
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
    g["depth"] = int64_t(1 + rng() % kMaxDepth);
    return true;
  });
}

namespace {
/// The decisions of one group a move may change, read once.
struct GroupShape {
  std::vector<int64_t> tile;
  int64_t depth = 0;
  size_t loops = 0;
};
} // namespace

std::vector<std::string> tune::planNeighbours(llvm::StringRef plan) {
  std::vector<GroupShape> groups;
  if (!rewritePlanGroups(plan, [&](llvm::json::Object &g) {
        GroupShape shape;
        if (llvm::json::Array *tile = g.getArray("tile"))
          for (const llvm::json::Value &extent : *tile) {
            std::optional<int64_t> e = extent.getAsInteger();
            if (!e)
              return false;
            shape.tile.push_back(*e);
          }
        shape.depth = g.getInteger("depth").value_or(0);
        if (llvm::json::Array *order = g.getArray("loop_order"))
          shape.loops = order->size();
        groups.push_back(std::move(shape));
        return true;
      }))
    return {};

  std::vector<std::string> neighbours;
  // One edit of group `target`; the others stay as they are.
  auto move = [&](unsigned target, llvm::function_ref<void(llvm::json::Object &)> edit) {
    std::optional<std::string> moved =
        rewritePlanGroups(plan, [&](llvm::json::Object &g, unsigned index) {
          if (index == target)
            edit(g);
          return true;
        });
    if (moved)
      neighbours.push_back(std::move(*moved));
  };
  for (unsigned gi = 0; gi < groups.size(); ++gi) {
    const GroupShape &shape = groups[gi];
    for (size_t d = 0; d < shape.tile.size(); ++d) {
      for (bool doubled : {true, false}) {
        int64_t extent = doubled ? shape.tile[d] * 2 : shape.tile[d] / 2;
        if (extent < 1)
          continue;
        move(gi, [&](llvm::json::Object &g) { (*g.getArray("tile"))[d] = extent; });
      }
    }
    if (shape.depth > 0)
      for (int64_t depth : {shape.depth - 1, shape.depth + 1})
        if (depth >= 1 && depth <= kMaxDepth)
          move(gi, [&](llvm::json::Object &g) { g["depth"] = depth; });
    for (size_t l = 0; l + 1 < shape.loops; ++l)
      move(gi, [&](llvm::json::Object &g) {
        llvm::json::Array &order = *g.getArray("loop_order");
        std::swap(order[l], order[l + 1]);
      });
  }
  return neighbours;
}
