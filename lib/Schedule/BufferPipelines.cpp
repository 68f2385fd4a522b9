//===- BufferPipelines.cpp - N-buffer the buffers between stages ----------===//
//
// Strategy: every buffer is written by one stage and read by another, so
// with one copy the writer waits for the reader; `depth` copies (pass
// option, default 2) let a transfer fill the next copy while compute drains
// the current one. The depth is a decision on each buffer. Tiles are not
// chosen yet, so the budget check here is a necessary condition: the
// smallest possible tile (one vector of the innermost dimension, one of
// every other, reduced dimensions whole) must fit at this depth in every
// memory; tile selection then grows the tile within the budget. A group of
// phases over its rows may stream a row that does not fit (SelectTiles.cpp),
// so its smallest slot is one vector of the row.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_BUFFERPIPELINES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

/// One vector along the innermost dimension, 1 along the others, reduced
/// dimensions whole (a reduction is never split across tiles), except the
/// rows of a group of phases, which may be streamed a part at a time.
static SmallVector<int64_t> smallestTile(GroupOp group, int64_t lanes) {
  SmallVector<int64_t> tile(group.getSpace().size(), 1);
  ArrayRef<int64_t> space = group.getSpace();
  if (streamableGroup(group)) {
    tile.back() = std::min(space.back(), lanes);
    return tile;
  }
  for (int64_t d : group.getReduceDims())
    tile[d] = space[d];
  if (!tile.empty() && !llvm::is_contained(group.getReduceDims(), (int64_t)tile.size() - 1))
    tile.back() = std::min(space.back(), lanes);
  return tile;
}

namespace {
struct BufferPipelinesPass : ktflow::ktsched::impl::BufferPipelinesBase<BufferPipelinesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (depth < 1) {
      emitError(module.getLoc(), "buffer depth must be at least 1, got ") << (int64_t)depth;
      return signalPassFailure();
    }
    auto model = getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    Builder b(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>()) {
        for (BufferOp buffer : groupBuffers(group))
          buffer->setAttr("depth", decide(b.getI64IntegerAttr(depth), kHeuristic));
        StageOp compute = computeStage(group);
        int64_t lanes = compute ? decisionInt(compute, "vector").value_or(1) : 1;
        SmallVector<int64_t> tile = smallestTile(group, vectorStep(group, lanes));
        auto uses = memoryUse(group, tile, *model);
        if (failed(uses))
          return signalPassFailure();
        for (const MemoryUse &use : *uses)
          if (use.need > use.budget) {
            InFlightDiagnostic diag =
                group.emitError("buffers of group @")
                << group.getSymName() << " at depth " << (int64_t)depth << " need at least "
                << use.need.count() << " bytes of @" << model->node(use.memory).name
                << " per sub-core, but only " << use.budget.count() << " bytes are available ("
                << model->node(use.memory).memory.usable().count() << " usable, shared by "
                << use.sharers << " sub-cores)";
            // What would let it fit: the reduced dimensions are the ones
            // no tile cuts.
            for (int64_t d : group.getReduceDims())
              diag.attachNote() << "the reduced dimension " << d << " (" << group.getSpace()[d]
                                << " elements) is whole in every tile: an accumulator kept "
                                   "across the tiles of a reduction is not built";
            return signalPassFailure();
          }
      }
  }
};
} // namespace
