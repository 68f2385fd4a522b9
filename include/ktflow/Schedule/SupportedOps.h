//===- SupportedOps.h - the one table of what the scheduler handles -*- C++ -*-===//
//
// The input check and the lowering of compute bodies both ask this table,
// so they cannot disagree: an op the check accepts has a role here, and an
// elementwise op has the op class the compute unit must offer.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_SUPPORTEDOPS_H
#define KTFLOW_SCHEDULE_SUPPORTEDOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace ktflow::ktsched {

/// What an op is to the scheduler.
enum class OpRole {
  Structure,   ///< func.func, return, scf.for, scf.yield: control and nesting
  Index,       ///< index arithmetic and constants feeding addresses
  View,        ///< construct_memory_view / construct_access_tile
  Load,        ///< ktdp.load
  Store,       ///< ktdp.store
  Elementwise, ///< one vector op per step (`opClass`)
  Broadcast,   ///< widening an operand: no work, an address pattern
  Reduce,      ///< linalg.reduce with a single add/max/min combiner
  Init,        ///< tensor.empty / fill / constants: initial values
  ShapeCast,   ///< rank-only changes (collapse_shape to a scalar)
  Contraction, ///< linalg.matmul of two loaded tiles: a contraction group
};

struct OpSupport {
  llvm::StringLiteral name;
  OpRole role;
  /// For Elementwise: the op class (architecture `ops` key) and the
  /// ktsched.vop kind emitted; empty otherwise.
  llvm::StringLiteral opClass;
};

/// Every supported op, in one list.
llvm::ArrayRef<OpSupport> supportedOps();
/// The entry for `op`'s name, or null when the op is not supported at all.
const OpSupport *lookupOpSupport(mlir::Operation *op);
/// The entry for an op name ("arith.addf").
const OpSupport *lookupOpSupport(llvm::StringRef name);

/// The lane-wise compare a `cmp` vop carries (attribute `predicate`) for an
/// arith.cmpf predicate: lt, le, gt, ge, eq (ordered: false on NaN) or ne
/// (unordered: true on NaN), the predicates device code compares with;
/// nullopt for the others.
std::optional<llvm::StringRef> lanewisePredicate(mlir::arith::CmpFPredicate predicate);
/// The same for an integer compare: the signed predicates and eq, ne.
std::optional<llvm::StringRef> lanewisePredicate(mlir::arith::CmpIPredicate predicate);
/// The predicate of a lane-wise compare op (arith.cmpf or arith.cmpi).
std::optional<llvm::StringRef> lanewisePredicate(mlir::Operation *compare);

/// Checks `op` against the table and the structural limits that go with
/// its role; on failure emits a diagnostic at `op` naming what is missing.
mlir::LogicalResult checkOpSupported(mlir::Operation *op);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_SUPPORTEDOPS_H
