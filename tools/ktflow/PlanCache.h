//===- PlanCache.h - tuned plans on disk, keyed by kernel and device --*- C++ -*-===//
//
// `ktflow tune --plan-cache DIR` stores its best plan as DIR/KEY.json;
// `ktflow compile|run --plan-cache DIR` replays it when present, so a
// tuned kernel compiles without a search. KEY hashes the kernel as the
// scheduler sees it after specialization on its launch values (so the
// same source with other values is another entry) together with the bytes
// of the architecture description.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TOOLS_KTFLOW_PLANCACHE_H
#define KTFLOW_TOOLS_KTFLOW_PLANCACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ktflow::tool {

/// The cache key of `module` specialized on `args` for description `arch`
/// (a name or file), or std::nullopt with `error` set.
std::optional<std::string> planCacheKey(mlir::ModuleOp module,
                                        llvm::ArrayRef<std::string> args, llvm::StringRef arch,
                                        std::string &error);

/// DIR/KEY.json.
std::string planCachePath(llvm::StringRef dir, llvm::StringRef key);

/// For compile and run: the cached plan's path when DIR holds one for this
/// kernel (a note on stderr says hit or miss), else std::nullopt.
std::optional<std::string> cachedPlan(llvm::StringRef dir, mlir::ModuleOp module,
                                      llvm::ArrayRef<std::string> args, llvm::StringRef arch,
                                      llvm::StringRef command);

/// What `ktflow tune` records in a cache entry beside the plan (the
/// entry's top-level "tuned" object; plan readers ignore it): the measured
/// cycles `tune merge` compares.
struct TuneRecord {
  int64_t cycles = 0;
  int64_t heuristicCycles = 0;
  double predicted = 0;
  uint64_t seed = 0;
  std::string kernel;
  std::string arch;
};

/// `plan` (plan JSON) with `record` as its "tuned" object; std::nullopt
/// when `plan` is not a JSON object.
std::optional<std::string> withTuneRecord(llvm::StringRef plan, const TuneRecord &record);

/// The measured cycles a cache entry records, std::nullopt when it records
/// none (or is not JSON).
std::optional<int64_t> recordedCycles(llvm::StringRef entry);

/// What `tune merge` did.
struct MergeSummary {
  unsigned entries = 0;  ///< entries read from the input caches
  unsigned keys = 0;     ///< entries written
  unsigned replaced = 0; ///< keys several caches held, the faster kept
};

/// Merges the entries (KEY.json) of `inputs` into `output` (created if
/// needed; entries it holds already take part): of several entries with
/// one key the one with the fewest recorded cycles wins (an entry without
/// cycles loses; ties keep the first, in the order: `output`, then
/// `inputs`). false with `error` set on an unreadable input.
bool mergePlanCaches(llvm::ArrayRef<std::string> inputs, llvm::StringRef output,
                     MergeSummary &summary, std::string &error);

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_PLANCACHE_H
