//===- LaunchArgs.h - `--arg NAME=VALUE` for KTIR kernels -------*- C++ -*-===//
//
// One reading of a kernel-argument binding for every tool that takes one:
// the reference interpreter (which binds buffers and scalars), and the
// specialization on launch values (which substitutes bound scalars before
// scheduling, DESIGN.md "Launch values"). A binding names an argument as the
// source spells it (`n`, `BLOCK_SIZE`) or by position (`arg3`); a value is
// read in the argument's type, and a `!ktdp.runtime_arg`'s guarantees
// (granularity, upperbound) are checked, so the two tools accept and reject
// exactly the same text.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_KTDP_LAUNCHARGS_H
#define KTFLOW_KTDP_LAUNCHARGS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace ktflow::ktdp {

/// One `NAME=VALUE` as written on a command line.
struct ArgBinding {
  std::string name;
  std::string value;
};

/// Splits `NAME=VALUE` at the first '='; std::nullopt when there is none.
std::optional<ArgBinding> splitArgBinding(llvm::StringRef text);

/// The position of the argument called `name`: one of `names` (the
/// kernel's argument names as written), or `argN` for argument N.
std::optional<unsigned> resolveArgumentName(llvm::ArrayRef<std::string> names,
                                            llvm::StringRef name);

/// The kernel's argument names as the diagnostics and `--arg` use them:
/// the name of a NameLoc on the entry block argument (the driver attaches
/// the source's SSA names that way), else `argN`.
llvm::SmallVector<std::string> argumentNames(mlir::func::FuncOp kernel);

/// The launch value `text` for an argument of type `type` (`index`, an
/// integer type, a float type, or a `!ktdp.runtime_arg` of one), as an
/// attribute of the underlying type: integers in any base LLVM reads
/// (`0x10`), `true`/`false` for i1, floats as decimals (rounded to the
/// type). A runtime_arg's value must meet its granularity and upperbound.
/// On failure `error` says why, naming the argument `argName`.
mlir::FailureOr<mlir::TypedAttr> parseLaunchValue(mlir::Type type, llvm::StringRef text,
                                                  llvm::StringRef argName, std::string &error);

/// Whether kernel argument `arg` is a buffer: it reaches the base address
/// (offset) of a memory view, directly or through additions.
bool isBufferBase(mlir::BlockArgument arg);

} // namespace ktflow::ktdp

#endif // KTFLOW_KTDP_LAUNCHARGS_H
