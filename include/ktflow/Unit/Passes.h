//===- Passes.h - the unit IR's passes --------------------------*- C++ -*-===//
#ifndef KTFLOW_UNIT_PASSES_H
#define KTFLOW_UNIT_PASSES_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Unit/KTUnit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ktflow::ktunit {

#define GEN_PASS_DECL
#include "ktflow/Unit/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Unit/Passes.h.inc"

// The passes' work on one bundle or program, for a caller that holds the
// architecture model already (the schedule lowering).

/// ktunit-insert-sync: channels to semaphores.
mlir::LogicalResult insertSync(BundleOp bundle, const arch::ArchModel &model);
/// ktunit-allocate-registers: virtual to physical registers.
mlir::LogicalResult allocateRegisters(ProgramOp program, const arch::ArchModel &model);
/// ktunit-check-capacity: every memory range within its memory.
mlir::LogicalResult checkCapacity(ProgramOp program, const arch::ArchModel &model);
/// ktunit-check-deadlock: balance and the synchronisation skeleton completes
/// within `maxSteps` hand-offs.
mlir::LogicalResult checkDeadlock(BundleOp bundle, const arch::ArchModel &model,
                                  int64_t maxSteps);

} // namespace ktflow::ktunit

#endif // KTFLOW_UNIT_PASSES_H
