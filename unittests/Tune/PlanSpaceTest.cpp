//===- PlanSpaceTest.cpp - tune::planNeighbours and friends ---------------===//
//
// The tuner's moves on a hand-written two-group plan: the derived decisions
// are dropped, the neighbours are every one-decision change in a fixed
// order, and the random variants follow the seed; on a contraction's plan,
// the moves change its step and buffers.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Tune/PlanSpace.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace ktflow;

namespace {

const char *kPlan = R"json({"version": 1, "kernels": [{"name": "k", "device": "sample",
  "merge": {"dim": 0, "factor": 1}, "groups": [
  {"name": "g0", "tile": [4, 64], "loop_order": [0, 1], "depth": 2, "lead": 1, "hoist": [],
   "split": {"dim": 0, "instances": 2, "shares": [8, 8]}},
  {"name": "g1", "tile": [1], "loop_order": [0], "depth": 1, "classes": []}]}]})json";

/// The groups of plan text `plan`.
llvm::json::Array groupsOf(llvm::StringRef plan) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  EXPECT_TRUE(bool(parsed));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return {};
  }
  return *(*parsed->getAsObject()->getArray("kernels"))[0].getAsObject()->getArray("groups");
}

std::vector<int64_t> tileOf(const llvm::json::Value &group) {
  std::vector<int64_t> tile;
  for (const llvm::json::Value &e : *group.getAsObject()->getArray("tile"))
    tile.push_back(*e.getAsInteger());
  return tile;
}

TEST(PlanSpaceTest, NormalizedPlanDropsTheDerivedDecisions) {
  std::optional<std::string> normalized = tune::normalizedPlan(kPlan);
  ASSERT_TRUE(normalized);
  llvm::json::Array groups = groupsOf(*normalized);
  ASSERT_EQ(groups.size(), 2u);
  for (const llvm::json::Value &g : groups) {
    EXPECT_FALSE(g.getAsObject()->get("lead"));
    EXPECT_FALSE(g.getAsObject()->get("hoist"));
    EXPECT_FALSE(g.getAsObject()->get("classes"));
  }
  EXPECT_TRUE(groups[0].getAsObject()->get("split"));
  EXPECT_EQ(tune::normalizedPlan(*normalized), normalized);
  EXPECT_FALSE(tune::normalizedPlan("{\"version\": 1}"));
  EXPECT_FALSE(tune::normalizedPlan("not json"));
}

TEST(PlanSpaceTest, NeighboursChangeOneDecisionEach) {
  std::vector<std::string> neighbours = tune::planNeighbours(kPlan);
  // g0: 2 tile dims x (doubled, halved), depth 1 and 3, one loop swap;
  // g1: tile doubled (halving 1 gives 0), depth 2 (0 is out of range).
  ASSERT_EQ(neighbours.size(), 4u + 2u + 1u + 1u + 1u);
  llvm::json::Array first = groupsOf(neighbours[0]);
  EXPECT_EQ(tileOf(first[0]), (std::vector<int64_t>{8, 64}));
  EXPECT_EQ(tileOf(first[1]), (std::vector<int64_t>{1}));
  EXPECT_EQ(tileOf(groupsOf(neighbours[1])[0]), (std::vector<int64_t>{2, 64}));
  EXPECT_EQ(tileOf(groupsOf(neighbours[3])[0]), (std::vector<int64_t>{4, 32}));
  EXPECT_EQ(groupsOf(neighbours[4])[0].getAsObject()->getInteger("depth"), 1);
  EXPECT_EQ(groupsOf(neighbours[5])[0].getAsObject()->getInteger("depth"), 3);
  llvm::json::Array swapped = groupsOf(neighbours[6]);
  const llvm::json::Array *order = swapped[0].getAsObject()->getArray("loop_order");
  EXPECT_EQ((*order)[0].getAsInteger(), 1);
  EXPECT_EQ(tileOf(groupsOf(neighbours[7])[1]), (std::vector<int64_t>{2}));
  EXPECT_EQ(groupsOf(neighbours[8])[1].getAsObject()->getInteger("depth"), 2);
  // None is the plan itself, and no two are the same.
  std::optional<std::string> self = tune::normalizedPlan(kPlan);
  for (size_t i = 0; i < neighbours.size(); ++i) {
    EXPECT_NE(neighbours[i], *self);
    for (size_t j = 0; j < i; ++j)
      EXPECT_NE(neighbours[i], neighbours[j]);
  }
  EXPECT_TRUE(tune::planNeighbours("[]").empty());
}

TEST(PlanSpaceTest, RandomVariantsFollowTheSeed) {
  std::mt19937_64 a(7), b(7);
  for (int i = 0; i < 8; ++i) {
    std::optional<std::string> x = tune::randomPlanVariant(kPlan, a);
    std::optional<std::string> y = tune::randomPlanVariant(kPlan, b);
    ASSERT_TRUE(x && y);
    EXPECT_EQ(*x, *y);
    for (const llvm::json::Value &g : groupsOf(*x)) {
      int64_t depth = *g.getAsObject()->getInteger("depth");
      EXPECT_GE(depth, 1);
      EXPECT_LE(depth, tune::kMaxDepth);
      for (int64_t e : tileOf(g))
        EXPECT_GE(e, 1);
    }
  }
}

const char *kMatmulPlan = R"json({"version": 1, "kernels": [{"name": "mm", "device": "sample",
  "merge": {"dim": 0, "factor": 1}, "groups": [], "contractions": [
  {"name": "g0", "block": [4, 4, 8], "step": [64, 32, 8], "buffers": 1, "reuse": 2}]}]})json";

/// The first contraction of plan text `plan`.
llvm::json::Object contractionOf(llvm::StringRef plan) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return {};
  }
  return *(*parsed->getAsObject()->getArray("kernels"))[0]
              .getAsObject()
              ->getArray("contractions")
              ->front()
              .getAsObject();
}

std::vector<int64_t> stepOf(const llvm::json::Object &c) {
  std::vector<int64_t> step;
  for (const llvm::json::Value &e : *c.getArray("step"))
    step.push_back(*e.getAsInteger());
  return step;
}

TEST(PlanSpaceTest, ContractionNeighboursChangeTheStepOrTheBuffers) {
  std::vector<std::string> neighbours = tune::planNeighbours(kMatmulPlan);
  // M and N doubled and halved, K doubled (halving it would go below the
  // block's 8), buffers 2 (0 is out of range), reuse 1 and 4.
  ASSERT_EQ(neighbours.size(), 2u + 2u + 1u + 1u + 2u);
  EXPECT_EQ(stepOf(contractionOf(neighbours[0])), (std::vector<int64_t>{128, 32, 8}));
  // A new step leaves the reuse to the scheduler.
  EXPECT_FALSE(contractionOf(neighbours[0]).getInteger("reuse"));
  EXPECT_EQ(stepOf(contractionOf(neighbours[1])), (std::vector<int64_t>{32, 32, 8}));
  EXPECT_EQ(stepOf(contractionOf(neighbours[4])), (std::vector<int64_t>{64, 32, 16}));
  EXPECT_EQ(contractionOf(neighbours[5]).getInteger("buffers"), 2);
  EXPECT_EQ(contractionOf(neighbours[6]).getInteger("reuse"), 1);
  EXPECT_EQ(contractionOf(neighbours[7]).getInteger("reuse"), 4);
}

TEST(PlanSpaceTest, ContractionVariantsKeepTheStepAboveTheBlock) {
  std::mt19937_64 rng(3);
  bool changed = false;
  for (int i = 0; i < 16; ++i) {
    std::optional<std::string> x = tune::randomPlanVariant(kMatmulPlan, rng);
    ASSERT_TRUE(x);
    llvm::json::Object c = contractionOf(*x);
    std::vector<int64_t> step = stepOf(c);
    EXPECT_GE(step[0], 4);
    EXPECT_LE(step[0], 64);
    EXPECT_GE(step[1], 4);
    EXPECT_EQ(step[2], 8);
    int64_t buffers = *c.getInteger("buffers");
    EXPECT_GE(buffers, 1);
    EXPECT_LE(buffers, tune::kMaxContractionBuffers);
    changed |= step != std::vector<int64_t>{64, 32, 8} || buffers != 1;
  }
  EXPECT_TRUE(changed);
}

} // namespace
