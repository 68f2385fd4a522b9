//===- CompileHook.cpp - what the KTIR target runs after verification -----===//
//
// The hook where the full compile pipeline plugs in (issue 8: "KTIR parser +
// full compile pipeline"). Until `ktflow compile` exists this is empty; then
// it loads each shipped description once (ArchModel::load on fuzzContext())
// and runs the scheduling pipeline on a clone of `module` for each, dropping
// the diagnostics of kernels outside the coverage: only a crash, a sanitizer
// report or a hang counts.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

void ktflow::fuzz::runCompilePipeline(mlir::ModuleOp module) { (void)module; }
