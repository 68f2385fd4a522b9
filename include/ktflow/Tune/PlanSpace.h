//===- PlanSpace.h - plans around a schedule's plan -------------*- C++ -*-===//
//
// The tuner and `ktflow cost eval` explore the plan space from the
// heuristic's plan (docs/schedule.md, "Plans"). Two moves:
//  - a random variant: each group's tile rescaled by powers of two per
//    dimension and its depth redrawn, each contraction's step rescaled and
//    its buffers redrawn (cost eval's sample, the tuner's global draws);
//  - the neighbours: every plan that differs in one decision of one group
//    (a tile dimension doubled or halved, the depth one more or one less,
//    two adjacent loops swapped) or of one contraction (a step dimension
//    doubled or halved, the buffers one more or one less, the operand
//    reuse halved or doubled): the tuner's local search.
// The decisions that follow from tiles and depth (hoisting, lead, masked
// classes) are dropped for the scheduler to take again. Plans are compared
// as the text these functions print (normalizedPlan for one from a
// schedule).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TUNE_PLANSPACE_H
#define KTFLOW_TUNE_PLANSPACE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ktflow::tune {

/// Deepest buffering the moves propose.
constexpr int64_t kMaxDepth = 3;
/// Most slots the moves propose for a contraction's operand rows.
constexpr int64_t kMaxContractionBuffers = 2;

/// `plan` (plan JSON) with `rewrite` applied to every group's object (with
/// its index over all kernels' groups), and the decisions that follow from
/// tiles and depth (hoist, lead, classes) dropped; std::nullopt when `plan`
/// is not a plan or `rewrite` fails.
std::optional<std::string>
rewritePlanGroups(llvm::StringRef plan,
                  llvm::function_ref<bool(llvm::json::Object &group)> rewrite);
std::optional<std::string>
rewritePlanGroups(llvm::StringRef plan,
                  llvm::function_ref<bool(llvm::json::Object &group, unsigned index)> rewrite);

/// `plan` as the moves print it (the derived decisions dropped), so a
/// schedule's plan compares with its variants.
std::optional<std::string> normalizedPlan(llvm::StringRef plan);

/// A random variant of `plan` (plan JSON): per group, each tile dimension
/// scaled by 2^k (k in [-3, 1], at least 1) and the depth drawn from 1-3;
/// per contraction, each step dimension scaled by 2^k (k in [-2, 0], not
/// below the block), the operand rows' slots (`buffers`) drawn from 1-2
/// and the operand reuse dropped for the scheduler to take again.
/// std::nullopt when `plan` is not a plan.
std::optional<std::string> randomPlanVariant(llvm::StringRef plan, std::mt19937_64 &rng);

/// Every plan one decision away from `plan`, in a fixed order: per group,
/// per tile dimension doubled then halved (not below 1), the depth one
/// less then one more (within 1..kMaxDepth), each pair of adjacent loops
/// swapped; per contraction, each step dimension doubled then halved (not
/// below the block; the reuse dropped), the buffers one less then one more
/// (within 1..kMaxContractionBuffers), the reuse halved then doubled (not
/// below 1). Empty when `plan` is not a plan.
std::vector<std::string> planNeighbours(llvm::StringRef plan);

} // namespace ktflow::tune

#endif // KTFLOW_TUNE_PLANSPACE_H
