//===- PlanCache.cpp - tuned plans on disk, keyed by kernel and device ----===//
#include "PlanCache.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
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

std::optional<std::string> tool::withTuneRecord(llvm::StringRef plan, const TuneRecord &record) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(plan);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return std::nullopt;
  (*root)["tuned"] = llvm::json::Object{{"cycles", record.cycles},
                                         {"heuristic_cycles", record.heuristicCycles},
                                         {"predicted", record.predicted},
                                         {"seed", int64_t(record.seed)},
                                         {"kernel", record.kernel},
                                         {"arch", record.arch}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(*parsed))) << "\n";
  return text;
}

std::optional<int64_t> tool::recordedCycles(llvm::StringRef entry) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(entry);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Object *tuned = root ? root->getObject("tuned") : nullptr;
  return tuned ? tuned->getInteger("cycles") : std::nullopt;
}

bool tool::mergePlanCaches(llvm::ArrayRef<std::string> inputs, llvm::StringRef output,
                           MergeSummary &summary, std::string &error) {
  struct Entry {
    std::string text;
    std::optional<int64_t> cycles;
  };
  // Sorted by key, so the output is written in one order whatever the
  // directories' listing order.
  std::map<std::string, Entry> merged;
  auto absorb = [&](llvm::StringRef dir, bool isOutput) {
    std::error_code ec;
    std::vector<std::string> names;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".json")
        names.push_back(it->path());
    if (ec) {
      error = "cannot list " + dir.str() + ": " + ec.message();
      return false;
    }
    llvm::sort(names);
    for (const std::string &path : names) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
      if (!file) {
        error = "cannot read " + path + ": " + file.getError().message();
        return false;
      }
      Entry entry{(*file)->getBuffer().str(), recordedCycles((*file)->getBuffer())};
      if (!isOutput)
        ++summary.entries;
      std::string key = llvm::sys::path::stem(path).str();
      auto [it, inserted] = merged.try_emplace(key, entry);
      if (inserted)
        continue;
      ++summary.replaced;
      bool faster = entry.cycles && (!it->second.cycles || *entry.cycles < *it->second.cycles);
      if (faster)
        it->second = std::move(entry);
    }
    return true;
  };
  if (llvm::sys::fs::is_directory(output) && !absorb(output, /*isOutput=*/true))
    return false;
  for (const std::string &dir : inputs) {
    if (!llvm::sys::fs::is_directory(dir)) {
      error = dir + " is not a plan cache directory";
      return false;
    }
    if (!absorb(dir, /*isOutput=*/false))
      return false;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(output)) {
    error = "cannot create " + output.str() + ": " + ec.message();
    return false;
  }
  for (const auto &[key, entry] : merged) {
    std::error_code ec;
    llvm::raw_fd_ostream os(planCachePath(output, key), ec);
    if (ec) {
      error = "cannot write " + planCachePath(output, key) + ": " + ec.message();
      return false;
    }
    os << entry.text;
  }
  summary.keys = merged.size();
  return true;
}
