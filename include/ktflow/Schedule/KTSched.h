//===- KTSched.h - the schedule IR dialect ----------------------*- C++ -*-===//
//
// Dialect, types, attributes and ops of the schedule IR (KTSchedOps.td).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_KTSCHED_H
#define KTFLOW_SCHEDULE_KTSCHED_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "ktflow/Schedule/KTSchedDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Schedule/KTSchedTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Schedule/KTSchedAttrs.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Schedule/KTSchedOps.h.inc"

namespace ktflow::ktsched {

/// Where a decision came from (DESIGN.md principle 3).
inline constexpr llvm::StringLiteral kHeuristic = "heuristic";
inline constexpr llvm::StringLiteral kPlan = "plan";
inline constexpr llvm::StringLiteral kCostModel = "costmodel";

/// `#ktsched.decision<value, source>`.
DecisionAttr decide(mlir::Attribute value, llvm::StringRef source);
/// The value of decision attribute `name` on `op`, if present.
mlir::Attribute decisionValue(mlir::Operation *op, llvm::StringRef name);
/// Integer array value of a decision (DenseI64ArrayAttr), empty if absent.
llvm::SmallVector<int64_t> decisionInts(mlir::Operation *op, llvm::StringRef name);
/// Integer value of a decision, if present.
std::optional<int64_t> decisionInt(mlir::Operation *op, llvm::StringRef name);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_KTSCHED_H
