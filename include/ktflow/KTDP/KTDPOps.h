//===- KTDPOps.h - ktdp operations ------------------------------*- C++ -*-===//
#ifndef KTFLOW_KTDP_KTDPOPS_H
#define KTFLOW_KTDP_KTDPOPS_H

#include "ktflow/KTDP/KTDPAttrs.h"
#include "ktflow/KTDP/KTDPDialect.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ktflow/KTDP/KTDPOps.h.inc"

namespace ktflow::ktdp {

/// The `grid` of the kernel function enclosing `op`, padded to 3-D with 1s;
/// std::nullopt when the enclosing function has no (well-formed) grid.
std::optional<llvm::SmallVector<int64_t, 3>> getKernelGrid(mlir::Operation *op);

/// Checks the `grid` attribute of a kernel function (1 to 3 positive
/// integers, as an array of integers or array<i64: ...>); emits an error at
/// the function on failure.
mlir::LogicalResult verifyKernelGrid(mlir::Operation *funcOp);

/// The base view or tensor an access tile value was built from, when the
/// tile is produced by one of the two access-tile constructors in sight;
/// null otherwise (for example a block argument).
mlir::Value getAccessTileBase(mlir::Value tile);

} // namespace ktflow::ktdp

#endif // KTFLOW_KTDP_KTDPOPS_H
