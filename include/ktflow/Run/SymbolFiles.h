//===- SymbolFiles.h - device-code symbols as .npy files --------*- C++ -*-===//
//
// `ktflow sim` and `ktflow run` read and write a bundle's symbols as the
// .npy files `ktflow interp` reads and writes, with the interpreter's dtype
// per element type (f16 `<f2`, bf16 raw `<u2`, f32 `<f4`, ...), so a
// simulated output and the interpreter's buffer compare file to file.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_RUN_SYMBOLFILES_H
#define KTFLOW_RUN_SYMBOLFILES_H

#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Interp/Value.h"
#include "ktflow/Sim/Simulator.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace ktflow::run {

/// The interpreter's element kind of a symbol's element type name ("f16").
std::optional<interp::ElemKind> symbolKind(mlir::MLIRContext &context,
                                           llvm::StringRef elementType);

/// The .npy dtype the interpreter reads and writes for that element type,
/// as Npy.h spells it ("f2": the byte-order mark is the writer's).
std::optional<std::string> symbolNpyDtype(mlir::MLIRContext &context,
                                          llvm::StringRef elementType);

/// Writes every output symbol of `bundle` as DIR/NAME.npy, creating DIR;
/// the shape is the symbol's (flat: its elements, padding included).
llvm::Error writeOutputSymbols(mlir::MLIRContext &context, const dc::Bundle &bundle,
                               const sim::SimResult &result, llvm::StringRef dir);

/// Writes each (name, array) as DIR/NAME.npy, creating DIR.
llvm::Error writeArrays(llvm::ArrayRef<std::pair<std::string, interp::NpyArray>> arrays,
                        llvm::StringRef dir);

} // namespace ktflow::run

#endif // KTFLOW_RUN_SYMBOLFILES_H
