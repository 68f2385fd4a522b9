//===- LaunchValues.h - launch values of device code ------------*- C++ -*-===//
//
// A bundle carries the launch values it was specialized for
// (dc::Bundle::launchValues, DESIGN.md "Launch values"). `ktflow compile`
// and `ktflow run` copy them from the schedule into the bundle; `ktflow sim`
// and `ktflow run K.kbin` accept `--arg NAME=VALUE` for them only when the
// value is the one the code was compiled for. A value left unbound at
// compile time (with its runtime_arg's granularity and upperbound) is given
// with `--arg NAME=VALUE` at run time instead: its launch-table entries are
// computed then (dc::bindLaunchValues).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_RUN_LAUNCHVALUES_H
#define KTFLOW_RUN_LAUNCHVALUES_H

#include "ktflow/DeviceCode/Program.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace ktflow::run {

/// Copies the launch values recorded on the scheduled kernel of `scheduled`
/// (ktsched.launch_values, and the unbound ones) into `bundle`.
void recordLaunchValues(mlir::ModuleOp scheduled, dc::Bundle &bundle);

/// The launch value of `bundle` that `--arg NAME=...` names (by its source
/// name or `argN`), if any.
const dc::LaunchValue *findLaunchValue(const dc::Bundle &bundle, llvm::StringRef name);

/// Checks `--arg NAME=VALUE` against launch value `launch`: an error naming
/// the argument when VALUE is another value (the code is valid only for the
/// one it was compiled for) or not a value of its type.
/// For an unbound one: VALUE must be within its runtime_arg's guarantees.
llvm::Error checkLaunchValue(const dc::LaunchValue &launch, llvm::StringRef value);

/// Binds the bundle's unbound launch values from `--arg NAME=VALUE` entries
/// (others are ignored); an unbound value not given is an error.
llvm::Error bindRunTimeLaunchValues(dc::Bundle &bundle, llvm::ArrayRef<std::string> args);

} // namespace ktflow::run

#endif // KTFLOW_RUN_LAUNCHVALUES_H
