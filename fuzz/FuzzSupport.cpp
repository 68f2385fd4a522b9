//===- FuzzSupport.cpp - shared setup of ktflow's libFuzzer targets -------===//
//
// One context per process, built on first use; its diagnostic handler
// accepts and drops everything so nothing is printed per input.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/InitAll.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"

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
  ParserConfig config(&fuzzContext());
  return parseSourceString<ModuleOp>(text, config, "fuzz-input");
}
