//===- KTUnit.h - the unit IR dialect ---------------------------*- C++ -*-===//
//
// Dialect, types, attributes and ops of the unit IR (KTUnitOps.td), plus the
// small queries the passes share.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_UNIT_KTUNIT_H
#define KTFLOW_UNIT_KTUNIT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"

namespace ktflow::ktunit {
/// Which instance of a named node a reference means (dc::InstanceSelector).
enum class InstanceKind : uint8_t { Nearest = 0, Absolute = 1, Column = 2 };
} // namespace ktflow::ktunit

#include "ktflow/Unit/KTUnitEnums.h.inc"
#include "ktflow/Unit/KTUnitDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Unit/KTUnitAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Unit/KTUnitTypes.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Unit/KTUnitOps.h.inc"

namespace ktflow::ktunit {

/// Counted loops enclosing `op` inside its program (its loop depth).
unsigned loopDepthOf(mlir::Operation *op);
/// The program `op` belongs to, or null.
ProgramOp programOf(mlir::Operation *op);
/// Product of the trip counts of the loops enclosing `op` in its program:
/// how often it runs per instance.
int64_t tripProduct(mlir::Operation *op);
/// Bytes one register of `type` holds, or 0 for an unknown element type.
int64_t vregBytes(VRegType type);
/// Register handles `op` writes (first) and reads; `slide` both reads and
/// writes its destination.
void registerAccesses(mlir::Operation *op, llvm::SmallVectorImpl<mlir::Value> &writes,
                      llvm::SmallVectorImpl<mlir::Value> &reads);

} // namespace ktflow::ktunit

#endif // KTFLOW_UNIT_KTUNIT_H
