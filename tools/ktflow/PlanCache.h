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

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_PLANCACHE_H
