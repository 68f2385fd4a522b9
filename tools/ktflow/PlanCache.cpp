//===- PlanCache.cpp - tuned plans on disk, keyed by kernel and device ----===//
#include "PlanCache.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;

std::optional<std::string> tool::planCacheKey(mlir::ModuleOp module,
                                              llvm::ArrayRef<std::string> args,
                                              llvm::StringRef arch, std::string &error) {
  std::optional<std::string> path = arch::ArchModel::resolveDescription(arch);
  if (!path) {
    error = "no description '" + arch.str() + "'";
    return std::nullopt;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> description =
      llvm::MemoryBuffer::getFile(*path);
  if (!description) {
    error = "cannot read " + *path + ": " + description.getError().message();
    return std::nullopt;
  }
  // The kernel as the scheduler sees it: launch values substituted and
  // folded, locations dropped (a moved comment is the same kernel).
  mlir::OwningOpRef<mlir::ModuleOp> specialized(module.clone());
  mlir::PassManager pm(module.getContext());
  ktsched::SpecializeOptions options;
  options.args.assign(args.begin(), args.end());
  pm.addPass(ktsched::createSpecialize(options));
  {
    mlir::ScopedDiagnosticHandler quiet(module.getContext(),
                                        [](mlir::Diagnostic &) { return mlir::success(); });
    if (mlir::failed(pm.run(*specialized))) {
      error = "the kernel does not specialize on its launch values";
      return std::nullopt;
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  specialized->print(os, mlir::OpPrintingFlags().enableDebugInfo(false));
  uint64_t kernelHash = llvm::xxh3_64bits(llvm::StringRef(text));
  uint64_t deviceHash = llvm::xxh3_64bits((*description)->getBuffer());
  std::string key;
  llvm::raw_string_ostream k(key);
  k << llvm::format_hex_no_prefix(kernelHash, 16) << "-"
    << llvm::format_hex_no_prefix(deviceHash, 16);
  return key;
}

std::string tool::planCachePath(llvm::StringRef dir, llvm::StringRef key) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ".json");
  return path.str().str();
}

std::optional<std::string> tool::cachedPlan(llvm::StringRef dir, mlir::ModuleOp module,
                                            llvm::ArrayRef<std::string> args,
                                            llvm::StringRef arch, llvm::StringRef command) {
  std::string error;
  std::optional<std::string> key = planCacheKey(module, args, arch, error);
  if (!key) {
    llvm::errs() << "ktflow " << command << ": plan cache not used: " << error << "\n";
    return std::nullopt;
  }
  std::string path = planCachePath(dir, *key);
  if (!llvm::sys::fs::exists(path)) {
    llvm::errs() << "ktflow " << command << ": plan cache miss (" << *key
                 << "): the heuristic's plan; `ktflow tune --plan-cache " << dir
                 << "` fills it\n";
    return std::nullopt;
  }
  llvm::errs() << "ktflow " << command << ": plan cache hit: " << path << "\n";
  return path;
}
