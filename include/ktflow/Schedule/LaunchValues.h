//===- LaunchValues.h - the launch values a kernel is specialized for -*- C++ -*-===//
//
// ktsched-specialize records every launch value it substituted on the
// kernel (the func.func, and the ktsched.kernel formed from it) as
// `ktsched.launch_values = [{arg = N, name = "n", value = 2000 : i32}, ...]`,
// so the device code can carry them (dc::Bundle::launchValues) and a run
// with other values is refused.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_LAUNCHVALUES_H
#define KTFLOW_SCHEDULE_LAUNCHVALUES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <string>
#include <vector>

namespace ktflow::ktsched {

inline constexpr llvm::StringLiteral kLaunchValuesAttr = "ktsched.launch_values";

/// One launch value a kernel was specialized for.
struct LaunchValue {
  std::string name;
  unsigned arg = 0;
  /// The value as an attribute of the argument's (underlying) type.
  mlir::TypedAttr value;
};

/// The launch values recorded on `kernel` (a func.func or ktsched.kernel),
/// in argument order; empty when it was specialized on none.
std::vector<LaunchValue> launchValuesOf(mlir::Operation *kernel);

/// `value` as text that reads back to the same value in its type: a
/// decimal integer, or the shortest decimal of a float that rounds to it.
std::string launchValueText(mlir::TypedAttr value);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_LAUNCHVALUES_H
