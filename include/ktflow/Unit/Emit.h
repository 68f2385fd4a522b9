//===- Emit.h - unit IR to a device-code bundle -----------------*- C++ -*-===//
#ifndef KTFLOW_UNIT_EMIT_H
#define KTFLOW_UNIT_EMIT_H

#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Unit/KTUnit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

namespace ktflow::ktunit {

/// The bundle of the one ktunit.bundle in `module`, after sync insertion and
/// register allocation. Emits a located error (and fails) on IR that still
/// has channels or virtual registers, or that device code cannot express.
mlir::FailureOr<dc::Bundle> emitBundle(mlir::ModuleOp module);
/// The bundle of `bundle` (as above).
mlir::FailureOr<dc::Bundle> emitBundle(BundleOp bundle);

} // namespace ktflow::ktunit

#endif // KTFLOW_UNIT_EMIT_H
