//===- HoistLoads.h - which loads the DMA copies once per instance -*- C++ -*-===//
//
// A load whose tile region is the same for every tile of a sub-core
// instance (a broadcast row) is hoisted: copied once per instance into
// slot 0 of its buffer, which every tile reads (`hoist`, decided by
// ktsched-order-transfers). Such a buffer needs one slot whatever its
// depth, which the budget of tile selection and the allocation count:
// both ask here, so the slots budgeted are the slots allocated.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_HOISTLOADS_H
#define KTFLOW_SCHEDULE_HOISTLOADS_H

#include "ktflow/Schedule/KTSched.h"

namespace ktflow::ktsched {

/// A group whose tiles pass through a second scratchpad level (a dma_load
/// stage inside the nested pipeline): no load of it is hoisted.
bool hasTwoLevels(GroupOp group);

/// Whether the heuristic hoists the load into `buffer` (filled by a
/// dma_load) for tiles of `tile`: every dimension the load maps is one
/// tile on every instance of the group's split, its origin does not move
/// with the group's loop, it is not a column operand, the group has one
/// scratchpad level and is not streamed, and some instance has more than
/// one tile (or the group loops). False where the split is not decided.
bool heuristicHoist(BufferOp buffer, llvm::ArrayRef<int64_t> tile);

/// The slots `buffer` takes: one where its load is hoisted (the recorded
/// decision, else the heuristic's for `tile`), else its depth.
int64_t bufferSlots(BufferOp buffer, llvm::ArrayRef<int64_t> tile, int64_t depth);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_HOISTLOADS_H
