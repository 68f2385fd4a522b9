//===- LaunchTable.h - launch-table entries of device code ------*- C++ -*-===//
//
// A bundle compiled with a launch value left unbound (DESIGN.md, "Launch
// values") carries the table cells that depend on it as expressions
// (Program::launchCells). The runtime evaluates them once at launch, from
// the values given then, and writes them into the tables; instructions
// read them as any table column (a loop's trip count, an address offset).
//
// Expression grammar (integers, int64):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' unary) | (('floordiv' | 'ceildiv' | 'mod') unary))*
//   unary   := '-' unary | primary
//   primary := INTEGER | NAME | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
// NAME is an unbound launch value; floordiv, ceildiv and mod need a
// positive right operand and round towards negative infinity (mod >= 0).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_DEVICECODE_LAUNCHTABLE_H
#define KTFLOW_DEVICECODE_LAUNCHTABLE_H

#include "ktflow/DeviceCode/Program.h"

#include <map>

namespace ktflow::dc {

/// The value of `expr` with the names bound to `values`.
llvm::Expected<int64_t> evaluateLaunchExpr(llvm::StringRef expr,
                                           const std::map<std::string, int64_t> &values);

/// Checks `expr` parses and names only unbound launch values of `launch`.
llvm::Error checkLaunchExpr(llvm::StringRef expr, llvm::ArrayRef<LaunchValue> launch);

/// Whether any launch value of the bundle is unbound.
bool hasUnboundLaunchValues(const Bundle &bundle);

/// Checks `text` is a legal value of the unbound launch value `launch`: an
/// integer, a multiple of its granularity, in [0, upperbound].
llvm::Expected<int64_t> parseUnboundValue(const LaunchValue &launch, llvm::StringRef text);

/// Binds every unbound launch value (name -> text, as `--arg` gives them):
/// each must be given a legal value; the launch-table cells are evaluated
/// into the tables and dropped, and the values recorded as bound. Names of
/// `given` that are not unbound launch values are left for the caller.
llvm::Error bindLaunchValues(Bundle &bundle, const std::map<std::string, std::string> &given);

/// The cells evaluated for `values` (name -> integer), without checking
/// granularity and bound: what compile-time checks of every count use.
llvm::Error evaluateLaunchCells(Bundle &bundle, const std::map<std::string, int64_t> &values);

} // namespace ktflow::dc

#endif // KTFLOW_DEVICECODE_LAUNCHTABLE_H
