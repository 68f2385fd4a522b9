//===- KTIRFuzzer.cpp - libFuzzer target: KTIR parser + verifier ----------===//
//
// Input: any bytes, read as KTIR text. Parsing runs the ktdp parsers and
// verifiers (and those of every upstream dialect KTIR uses); an accepted
// module then goes through the compile-pipeline hook (CompileHook.cpp).
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::OwningOpRef<mlir::ModuleOp> module = ktflow::fuzz::parseFuzzInput(data, size);
  if (module)
    ktflow::fuzz::runCompilePipeline(*module);
  return 0;
}
