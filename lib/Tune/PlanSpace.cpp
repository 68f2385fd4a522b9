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

namespace {
/// `plan` with `rewrite` applied to every contraction's object (with its
/// index over all kernels' contractions); `plan` unchanged where it has
/// none, std::nullopt when it is not a plan or `rewrite` fails.
std::optional<std::string>
rewritePlanContractions(llvm::StringRef plan,
                        llvm::function_ref<bool(llvm::json::Object &, unsigned)> rewrite) {
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
  for (llvm::json::Value &kernel : *kernels)
    if (llvm::json::Array *contractions =
            kernel.getAsObject() ? kernel.getAsObject()->getArray("contractions") : nullptr)
      for (llvm::json::Value &contraction : *contractions) {
        llvm::json::Object *c = contraction.getAsObject();
        if (!c || !rewrite(*c, index++))
          return std::nullopt;
      }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(*parsed));
  return text;
}

/// A contraction's step and block, read from its plan object.
bool stepAndBlock(const llvm::json::Object &c, std::vector<int64_t> &step,
                  std::vector<int64_t> &block) {
  const llvm::json::Array *s = c.getArray("step"), *b = c.getArray("block");
  if (!s || !b || s->size() != 3 || b->size() != 3)
    return false;
  for (size_t d = 0; d < 3; ++d) {
    step.push_back((*s)[d].getAsInteger().value_or(0));
    block.push_back((*b)[d].getAsInteger().value_or(0));
  }
  return true;
}
} // namespace

std::optional<std::string> tune::randomPlanVariant(llvm::StringRef plan, std::mt19937_64 &rng) {
  std::optional<std::string> variant = rewritePlanGroups(plan, [&](llvm::json::Object &g) {
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
  if (!variant)
    return std::nullopt;
  // A contraction's step: each dimension halved 0-2 times (not below its
  // block), its operand rows' slots drawn from 1-kMaxContractionBuffers.
  return rewritePlanContractions(*variant, [&](llvm::json::Object &c, unsigned) {
    std::vector<int64_t> step, block;
    if (!stepAndBlock(c, step, block))
      return true;
    llvm::json::Array scaled;
    for (size_t d = 0; d < 3; ++d)
      scaled.push_back(std::max<int64_t>(std::max<int64_t>(1, block[d]), step[d] >> (rng() % 3)));
    c["step"] = std::move(scaled);
    c["buffers"] = int64_t(1 + rng() % kMaxContractionBuffers);
    // The operand reuse must divide the new step's block columns: the
    // scheduler takes it again.
    c.erase("reuse");
    c.erase("block_buffers"); // the blocks' ring too (it needs an even step count)
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
  // Per contraction: each step dimension doubled then halved (not below
  // its block; the reuse left to the scheduler), its slots one less then
  // one more, its operand reuse halved then doubled.
  std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> contractions;
  std::vector<int64_t> buffers, reuses;
  rewritePlanContractions(plan, [&](llvm::json::Object &c, unsigned) {
    std::vector<int64_t> step, block;
    if (!stepAndBlock(c, step, block))
      step.clear();
    contractions.push_back({step, block});
    buffers.push_back(c.getInteger("buffers").value_or(0));
    reuses.push_back(c.getInteger("reuse").value_or(0));
    return true;
  });
  auto moveContraction = [&](unsigned target, llvm::function_ref<void(llvm::json::Object &)> edit) {
    if (std::optional<std::string> moved =
            rewritePlanContractions(plan, [&](llvm::json::Object &c, unsigned index) {
              if (index == target)
                edit(c);
              return true;
            }))
      neighbours.push_back(std::move(*moved));
  };
  for (unsigned ci = 0; ci < contractions.size(); ++ci) {
    const auto &[step, block] = contractions[ci];
    for (size_t d = 0; d < step.size(); ++d)
      for (bool doubled : {true, false}) {
        int64_t extent = doubled ? step[d] * 2 : step[d] / 2;
        if (extent < std::max<int64_t>(1, block[d]))
          continue;
        moveContraction(ci, [&](llvm::json::Object &c) {
          (*c.getArray("step"))[d] = extent;
          c.erase("reuse"); // the scheduler's again, for the new step
          c.erase("block_buffers");
        });
      }
    if (buffers[ci] > 0)
      for (int64_t b : {buffers[ci] - 1, buffers[ci] + 1})
        if (b >= 1 && b <= kMaxContractionBuffers)
          moveContraction(ci, [&](llvm::json::Object &c) {
            c["buffers"] = b;
            c.erase("block_buffers"); // the blocks' ring needs double-buffered rows
          });
    if (reuses[ci] > 0)
      for (int64_t r : {reuses[ci] / 2, reuses[ci] * 2})
        if (r >= 1)
          moveContraction(ci, [&](llvm::json::Object &c) { c["reuse"] = r; });
  }
  return neighbours;
}
