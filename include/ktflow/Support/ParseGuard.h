//===- ParseGuard.h - survive crashes inside MLIR's parsers -----*- C++ -*-===//
//
// Some of upstream MLIR's op parsers crash on malformed input instead of
// failing (Debian's MLIR 22: linalg.reduce, linalg.broadcast and
// linalg.transpose dereference a null attribute when `dimensions =` or
// `permutation =` is not followed by an integer list). We cannot fix them,
// but a user must still get a diagnostic and exit status 1 (design
// principle 5), so every place ktflow parses a file runs the parser through
// `runParserSafely`.
//
// Only the parser runs guarded: callers parse with verification off and
// verify afterwards, so a crash in a verifier (ktflow's own code) still
// crashes loudly with a stack trace instead of being blamed on the parser.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SUPPORT_PARSEGUARD_H
#define KTFLOW_SUPPORT_PARSEGUARD_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ktflow {

/// Runs `parse`, which parses the buffer named `bufferName` into `context`.
/// If it crashes, reports "the MLIR parser crashed on this input ..." through
/// the context's diagnostics, located at the parser's last error (or at
/// `bufferName` line 0 when there was none), and returns failure; the
/// diagnostics the parser emitted before the crash have been reported
/// already. Whatever the parser had built is then leaked on purpose: its
/// partial state may be inconsistent, and destroying it could crash again.
///
/// The guard needs llvm::CrashRecoveryContext::Enable() once at start-up (the
/// `ktflow` driver does it); without it `parse` simply runs, so libraries
/// and tests that never enable it behave as before.
mlir::LogicalResult runParserSafely(mlir::MLIRContext &context, llvm::StringRef bufferName,
                                    llvm::function_ref<void()> parse);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_PARSEGUARD_H
