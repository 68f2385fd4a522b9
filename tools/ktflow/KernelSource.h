//===- KernelSource.h - parse a kernel keeping its SSA names ----*- C++ -*-===//
//
// `interp`, `run` and `fuzz` bind arguments by their source names, which MLIR
// drops on parse; they parse through an AsmParserState to keep them. This is
// the one place that does so, wraps bare top-level ops in a module (the
// module may be omitted in KTIR) and verifies the result. It also gives each
// kernel argument a NameLoc with its source name, which is how passes
// (ktsched-specialize, the input check) resolve and name `--arg NAME`.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TOOLS_KTFLOW_KERNELSOURCE_H
#define KTFLOW_TOOLS_KTFLOW_KERNELSOURCE_H

#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

namespace ktflow::tool {

/// Parses the main buffer of `sourceMgr` into a verified module, recording
/// definitions in `asmState`. On failure the diagnostics went to the context
/// and `failedStage` (if given) is "parsing" or "verification".
mlir::OwningOpRef<mlir::ModuleOp> parseKernelSource(llvm::SourceMgr &sourceMgr,
                                                    mlir::MLIRContext &context,
                                                    mlir::AsmParserState &asmState,
                                                    llvm::StringRef bufferName,
                                                    llvm::StringRef *failedStage = nullptr);

/// The same without handing back the definitions (check, compile, gen
/// --verify).
mlir::OwningOpRef<mlir::ModuleOp> parseKernelSource(llvm::SourceMgr &sourceMgr,
                                                    mlir::MLIRContext &context,
                                                    llvm::StringRef bufferName);

/// Opens `path` into `sourceMgr` and parses it as above; an unreadable file
/// is reported as "ktflow COMMAND: ..." (check, compile, cost).
mlir::OwningOpRef<mlir::ModuleOp> openKernelSource(llvm::SourceMgr &sourceMgr,
                                                   mlir::MLIRContext &context,
                                                   llvm::StringRef path,
                                                   llvm::StringRef command);

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_KERNELSOURCE_H
