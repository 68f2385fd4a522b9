//===- ArchLoader.cpp - find, parse and cache architecture descriptions ---===//
//
// `--arch NAME` resolves to NAME.mlir in $KTFLOW_ARCH_PATH, then in the
// installed descriptions beside the running executable (BINDIR/
// KTFLOW_ARCH_DIR_FROM_BINDIR, i.e. PREFIX/share/ktflow/arch; absent in a
// build tree), then in the shipped arch/ directory (KTFLOW_ARCH_DIR, set by
// CMake to the source tree), so an installed ktflow needs no source tree;
// anything that looks like a path is used as is. A description is
// parsed, verified (which builds and checks the model) and modelled once per
// canonical path; the model is cached in the ktarch dialect of the context,
// so it dies with the context whose types and locations it holds.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchDialect.h"
#include "ktflow/Arch/KTArchOps.h"
#include "ktflow/Support/ParseGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

#ifndef KTFLOW_ARCH_DIR
#error "KTFLOW_ARCH_DIR must name the shipped arch/ directory"
#endif
#ifndef KTFLOW_ARCH_DIR_FROM_BINDIR
#error "KTFLOW_ARCH_DIR_FROM_BINDIR must name the installed descriptions relative to BINDIR"
#endif

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;

StringRef ArchModel::shippedDescriptionDir() { return KTFLOW_ARCH_DIR; }

std::vector<std::string> ArchModel::descriptionSearchPath() {
  std::vector<std::string> dirs;
  if (const char *env = std::getenv("KTFLOW_ARCH_PATH"); env && *env)
    dirs.push_back(env);
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable("", &anchor);
  if (!executable.empty()) {
    SmallString<256> installed(llvm::sys::path::parent_path(executable));
    llvm::sys::path::append(installed, KTFLOW_ARCH_DIR_FROM_BINDIR);
    llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
    if (llvm::sys::fs::is_directory(installed))
      dirs.push_back(std::string(installed));
  }
  dirs.push_back(shippedDescriptionDir().str());
  return dirs;
}

std::optional<std::string> ArchModel::resolveDescription(StringRef nameOrPath) {
  if (nameOrPath.contains('/') || nameOrPath.ends_with(".mlir")) {
    if (llvm::sys::fs::is_regular_file(nameOrPath))
      return nameOrPath.str();
    return std::nullopt;
  }
  for (const std::string &dir : descriptionSearchPath()) {
    SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, nameOrPath + ".mlir");
    if (llvm::sys::fs::is_regular_file(candidate))
      return std::string(candidate);
  }
  return std::nullopt;
}

std::shared_ptr<const ArchModel>
ArchModel::load(MLIRContext &context, StringRef nameOrPath, std::string &error) {
  std::optional<std::string> path = resolveDescription(nameOrPath);
  if (!path) {
    error = "no architecture description '" + nameOrPath.str() +
            "' (not a file; names are looked up as NAME.mlir in " +
            llvm::join(descriptionSearchPath(), ", ") +
            "; $KTFLOW_ARCH_PATH adds a directory in front)";
    return nullptr;
  }
  SmallString<256> canonical;
  if (llvm::sys::fs::real_path(*path, canonical))
    canonical = *path;

  auto *dialect = context.getOrLoadDialect<ktarch::KTArchDialect>();
  auto &cache = dialect->modelCache();
  if (auto it = cache.find(canonical); it != cache.end())
    return it->second;

  // Verified outside the guard: only a crash in the parser is survived.
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module;
  if (failed(runParserSafely(context, *path,
                             [&] { module = parseSourceFile<ModuleOp>(*path, config); })))
    return nullptr;
  if (!module || failed(verify(*module)))
    return nullptr; // The parser and verifier reported why.
  ktarch::DeviceOp device;
  for (auto candidate : module->getOps<ktarch::DeviceOp>()) {
    if (device) {
      candidate.emitError("a description file holds one ktarch.device; @")
          << device.getSymName() << " is already defined";
      return nullptr;
    }
    device = candidate;
  }
  if (!device) {
    module->emitError("no ktarch.device in ") << *path;
    return nullptr;
  }
  std::shared_ptr<const ArchModel> model = ArchModel::build(device);
  if (!model)
    return nullptr;
  cache[canonical] = model;
  return model;
}
