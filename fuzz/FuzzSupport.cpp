//===- FuzzSupport.cpp - shared setup of ktflow's libFuzzer targets -------===//
//
// One context per process, built on first use; its diagnostic handler
// accepts and drops everything so nothing is printed per input. The shipped
// descriptions are loaded into it once and kept for the process.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/InitAll.h"
#include "ktflow/Sim/Simulator.h"
#include "ktflow/Sim/StaticChecks.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace mlir;

MLIRContext &ktflow::fuzz::fuzzContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    auto *ctx = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    return ctx;
  }();
  return *context;
}

OwningOpRef<ModuleOp> ktflow::fuzz::parseFuzzInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // The tools read files into NUL-terminated MemoryBuffers, and MLIR's lexer
  // relies on that terminator: given libFuzzer's unterminated bytes (as
  // parseSourceString passes them) it reads past the end of the input. Parse
  // what the tools would parse, a terminated copy.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz-input"),
                               llvm::SMLoc());
  ParserConfig config(&fuzzContext());
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

llvm::ArrayRef<llvm::StringRef> ktflow::fuzz::shippedDescriptions() {
  static const llvm::StringRef names[] = {"sample", "spyre", "deep"};
  return names;
}

const ktflow::arch::ArchModel &ktflow::fuzz::shippedModel(llvm::StringRef name) {
  static llvm::StringMap<std::shared_ptr<const arch::ArchModel>> models;
  std::shared_ptr<const arch::ArchModel> &model = models[name];
  if (!model) {
    std::string error;
    model = arch::ArchModel::load(fuzzContext(), name, error);
    // The shipped descriptions are part of the build; a target that cannot
    // load one is broken, not fuzzing.
    if (!model) {
      llvm::errs() << "fuzz: cannot load the shipped description '" << name << "': "
                   << error << "\n";
      std::abort();
    }
  }
  return *model;
}

void ktflow::fuzz::simulateBounded(const dc::Bundle &bundle, const arch::ArchModel &model) {
  // Small enough that an instrumented run stays well under the per-input
  // timeout on a loaded machine (200,000 did not, on the shared 2-core one).
  sim::SimLimits limits;
  limits.maxInstructions = 20'000;
  limits.maxCycles = Cycles(10'000'000);
  if (llvm::Error e = sim::checkCapacity(bundle, model)) {
    llvm::consumeError(std::move(e));
    return;
  }
  if (llvm::Error e = sim::checkDeadlockFree(bundle, model, limits)) {
    llvm::consumeError(std::move(e));
    return;
  }
  const int64_t maxSymbolBytes = int64_t(16) << 20;
  int64_t symbolBytes = 0;
  for (const dc::Symbol &symbol : bundle.symbols) {
    symbolBytes += std::clamp<int64_t>(symbol.size.count(), 0, maxSymbolBytes + 1);
    if (symbolBytes > maxSymbolBytes)
      return;
  }
  sim::SimOptions options;
  options.limits = limits;
  llvm::Expected<sim::SimResult> result = sim::simulate(bundle, model, {}, options);
  if (!result)
    llvm::consumeError(result.takeError());
}

void ktflow::fuzz::simulateOnNamedDevice(const dc::Bundle &bundle) {
  for (llvm::StringRef name : shippedDescriptions())
    if (bundle.device == name)
      simulateBounded(bundle, shippedModel(name));
}

void ktflow::fuzz::checkTextRoundTrip(const dc::Bundle &bundle) {
  std::string text;
  llvm::raw_string_ostream os(text);
  dc::printBundle(bundle, os);
  llvm::Expected<dc::Bundle> parsed = dc::parseBundleText(text, "fuzz-roundtrip.kasm");
  if (!parsed) {
    llvm::errs() << "fuzz: the text of a verified bundle does not parse: "
                 << llvm::toString(parsed.takeError()) << "\n--- text ---\n"
                 << text;
    std::abort();
  }
  if (dc::encodeBundle(*parsed) != dc::encodeBundle(bundle)) {
    std::string again;
    llvm::raw_string_ostream os2(again);
    dc::printBundle(*parsed, os2);
    llvm::errs() << "fuzz: text round trip changed the bundle\n--- printed ---\n"
                 << text << "--- parsed and printed again ---\n"
                 << again;
    std::abort();
  }
}
