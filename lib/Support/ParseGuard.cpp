//===- ParseGuard.cpp - survive crashes inside MLIR's parsers -------------===//
#include "ktflow/Support/ParseGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <optional>

mlir::LogicalResult ktflow::runParserSafely(mlir::MLIRContext &context,
                                            llvm::StringRef bufferName,
                                            llvm::function_ref<void()> parse) {
  // The known crashes come right after the parser reported a syntax error,
  // at the text it stopped on: that is the best location the crash has.
  // The watcher only looks; the diagnostic goes on to the caller's handler.
  std::optional<mlir::Location> lastError;
  bool completed;
  {
    mlir::ScopedDiagnosticHandler watch(&context, [&](mlir::Diagnostic &diag) {
      if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
        lastError = diag.getLocation();
      return mlir::failure();
    });
    // The recovery context is active for this thread until it is destroyed,
    // so it lives only around the parse.
    llvm::CrashRecoveryContext recovery;
    completed = recovery.RunSafely(parse);
  }
  if (completed)
    return mlir::success();
  // Line 0: the file, no position in it.
  mlir::Location loc =
      lastError.value_or(mlir::FileLineColLoc::get(&context, bufferName, 0, 0));
  mlir::emitError(loc) << "the MLIR parser crashed on this input (a bug in the upstream "
                          "parser, not in the program's validity check); the input is "
                          "rejected";
  return mlir::failure();
}
