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

#include "mlir/IR/AffineExpr.h"
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

/// Launch values left unbound (DESIGN.md, "Launch values"): a runtime_arg
/// with an upperbound whose value only sets loop upper bounds and view
/// sizes stays symbolic. ktsched-specialize records them on the kernel as
/// `ktsched.unbound_launch_values = [{arg, name, type, granularity,
/// upperbound}, ...]` (symbol k of a symbolic bound is entry k), sizes the
/// views at the upperbound, and records each loop's upper bound as
/// `ktsched.symbolic_ub`, an affine map of the grid coordinates (d0, d1,
/// d2) and those symbols.
inline constexpr llvm::StringLiteral kUnboundLaunchValuesAttr = "ktsched.unbound_launch_values";
inline constexpr llvm::StringLiteral kSymbolicUpperBoundAttr = "ktsched.symbolic_ub";

struct UnboundLaunchValue {
  std::string name;
  unsigned arg = 0;
  std::string type;
  int64_t granularity = 1, upperbound = 0;
};

/// The unbound launch values recorded on `kernel`, symbol order.
std::vector<UnboundLaunchValue> unboundLaunchValuesOf(mlir::Operation *kernel);

/// The admitted values of `v`: the multiples of its granularity in
/// [0, upperbound].
std::vector<int64_t> admittedValues(const UnboundLaunchValue &v);

/// ktsched-specialize's step for the runtime_args of `kernel` (a
/// func.func) that no binding set: each with an upperbound whose value
/// reaches only loop upper bounds and view sizes is recorded as above and
/// its value replaced by the upperbound. Any other use, or no upperbound,
/// leaves it unbound, for the input check to name.
mlir::LogicalResult carryUnboundLaunchValues(mlir::Operation *kernel);

/// An affine expression of the unbound launch values (symbol k named by
/// `names[k]`) in the device code's launch-expression grammar
/// (ktflow/DeviceCode/LaunchTable.h). It must have no dimensions.
std::string launchExprText(mlir::AffineExpr expr, llvm::ArrayRef<std::string> names);

/// `value` as text that reads back to the same value in its type: a
/// decimal integer, or the shortest decimal of a float that rounds to it.
std::string launchValueText(mlir::TypedAttr value);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_LAUNCHVALUES_H
