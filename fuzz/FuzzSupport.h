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

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"
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

/// The compile-pipeline hook of the KTIR target (CompileHook.cpp): on an
/// accepted module, for each shipped description, schedules and lowers a
/// clone as `ktflow compile -o` does, and simulates a small bundle.
void runCompilePipeline(mlir::ModuleOp module);

/// The shipped descriptions every target compiles for or simulates on:
/// sample, spyre, deep.
llvm::ArrayRef<llvm::StringRef> shippedDescriptions();
/// The model of a shipped description, loaded once into fuzzContext().
const arch::ArchModel &shippedModel(llvm::StringRef name);

/// Runs a bundle as `ktflow sim` does (static capacity and deadlock checks,
/// then the simulation with zeroed inputs) on `model`, under a small
/// instruction and cycle budget so one input costs at most milliseconds.
/// Bundles whose symbols hold more than a few MiB are only checked, not
/// simulated (the simulator materialises every symbol). Every error is
/// dropped: only a crash, a sanitizer report or a hang is a finding.
void simulateBounded(const dc::Bundle &bundle, const arch::ArchModel &model);
/// simulateBounded on the shipped description the bundle names, if any.
void simulateOnNamedDevice(const dc::Bundle &bundle);

/// Prints `bundle` as text, parses it back and compares the binary
/// encodings; aborts (a finding) when the text does not parse or the
/// bundles differ.
void checkTextRoundTrip(const dc::Bundle &bundle);

} // namespace ktflow::fuzz

#endif // KTFLOW_FUZZ_FUZZSUPPORT_H
