//===- Budget.h - what a group's buffers need of each memory ----*- C++ -*-===//
//
// Buffering, tile selection and allocation all ask the same question —
// how many bytes do a group's buffers take in each memory for a given tile,
// and how many may they take — so it is answered once, here.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_BUDGET_H
#define KTFLOW_SCHEDULE_BUDGET_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/KTSched.h"

namespace ktflow::ktsched {

struct MemoryUse {
  arch::NodeId memory = 0;
  /// Bytes one sub-core's buffers take at their depth (each copy aligned).
  Bytes need;
  /// Usable bytes of one memory instance divided among its sharers.
  Bytes budget;
  int64_t sharers = 1;
};

/// Per memory holding buffers of `group`: its need for `tile` and its
/// budget. Buffers without a depth decision count `defaultDepth` copies.
/// Fails (with a diagnostic) on a buffer in a memory the model lacks.
/// Dense rows count at their dense size; where a column block's strided
/// spans (RowLayout.h) would not fit, the buffers without them
/// (`allowSpans` false: padded rows there).
mlir::FailureOr<llvm::SmallVector<MemoryUse>>
memoryUse(GroupOp group, llvm::ArrayRef<int64_t> tile, const arch::ArchModel &model,
          int64_t defaultDepth = 1, bool allowSpans = true);

/// Whether the group's buffers, with any strided spans, fit their memories.
bool stridedSpansFit(GroupOp group, llvm::ArrayRef<int64_t> tile, const arch::ArchModel &model);

/// The compute unit the group is bound to; none when the binding names no
/// compute unit of `model`.
std::optional<arch::NodeId> boundComputeUnit(GroupOp group, const arch::ArchModel &model);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_BUDGET_H
