//===- FuzzSupport.h - shared setup of ktflow's libFuzzer targets -*- C++ -*-===//
//
// Every target parses untrusted text in one long-lived MLIRContext (creating
// a context per input would spend the fuzzing budget loading dialects).
// Diagnostics are swallowed: a rejected input is the expected outcome, and
// only a crash, a sanitizer report or a hang is a finding.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_FUZZ_FUZZSUPPORT_H
#define KTFLOW_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>

namespace ktflow::fuzz {

/// The context shared by all inputs of one fuzzing process: every ktflow
/// dialect loaded, multithreading off, diagnostics discarded.
mlir::MLIRContext &fuzzContext();

/// Parses and verifies `data` as a module; null when it is rejected.
mlir::OwningOpRef<mlir::ModuleOp> parseFuzzInput(const uint8_t *data, size_t size);

/// The compile-pipeline hook of the KTIR target (CompileHook.cpp): runs
/// everything after parsing and verification on an accepted module. Today
/// that is nothing; when `ktflow compile` lands it runs the pipeline for each
/// shipped description.
void runCompilePipeline(mlir::ModuleOp module);

} // namespace ktflow::fuzz

#endif // KTFLOW_FUZZ_FUZZSUPPORT_H
