//===- PlanVariants.h - random variants of a schedule's plan ----*- C++ -*-===//
//
// `ktflow cost eval` and `ktflow tune` explore the plan space from the
// heuristic's plan (docs/schedule.md, "Plans"): each group's tile rescaled
// by powers of two per dimension and its depth redrawn; the decisions that
// follow from tiles and depth (hoisting, lead, masked classes) are left to
// the scheduler to take again.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TOOLS_KTFLOW_PLANVARIANTS_H
#define KTFLOW_TOOLS_KTFLOW_PLANVARIANTS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <random>
#include <string>

namespace ktflow::tool {

/// `plan` (plan JSON) with `rewrite` applied to every group's object, and
/// the decisions that follow from tiles and depth (hoist, lead, classes)
/// dropped; std::nullopt when `plan` is not a plan or `rewrite` fails.
std::optional<std::string>
rewritePlanGroups(llvm::StringRef plan,
                  llvm::function_ref<bool(llvm::json::Object &group)> rewrite);

/// A random variant of `plan` (plan JSON): per group, each tile dimension
/// scaled by 2^k (k in [-3, 1], at least 1) and the depth drawn from 1-3.
/// std::nullopt when `plan` is not a plan.
std::optional<std::string> randomPlanVariant(llvm::StringRef plan, std::mt19937_64 &rng);

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_PLANVARIANTS_H
