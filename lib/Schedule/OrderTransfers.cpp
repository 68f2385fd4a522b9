//===- OrderTransfers.cpp - how the DMA orders and repeats its copies -----===//
//
// Strategy. Two decisions about a group's global-memory copies that the
// lowering used to make on its own are made here and recorded, so a plan
// can replay or change them (DESIGN.md principles 3 and 6):
//
// * `hoist` (on each buffer a dma_load fills, a bool): the load's tile
//   region is the same for every tile of a sub-core instance, so the DMA
//   copies it once per instance into slot 0 and every tile reads it there
//   (a broadcast row). A load qualifies when every dimension of the
//   iteration space it maps is covered by a single tile on every instance,
//   its origin does not move with the group's loop, it is not a column
//   operand (those are read in per-row segments), the pipeline has one
//   scratchpad level, some instance has more than one tile (otherwise
//   there is nothing to save), and the group is not streamed (its slots
//   take one part of a row after another).
// * `lead` (on the outer pipeline, an integer): how many tiles the DMA's
//   loads run ahead of its stores. A load may only be issued once its
//   slot is free, so the lead is at most the depth of the rotating input
//   buffers minus one; the heuristic takes that maximum, which keeps every
//   unit busy. On a pipeline with two scratchpad levels both levels' input
//   buffers count: one lead serves both DMAs.
//
// The pass runs after tile selection and plan replay, on the final tiles
// and depths: a decision the plan already set (source `plan`) is kept and
// checked against the same limits; only missing ones are decided.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/HoistLoads.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_ORDERTRANSFERS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

struct OrderTransfersPass : ktflow::ktsched::impl::OrderTransfersBase<OrderTransfersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>())
        if (failed(decideGroup(group, b)))
          return signalPassFailure();
  }

  LogicalResult decideGroup(GroupOp group, Builder &b) {
    PipelineOp outer = outerPipeline(group);
    if (!outer)
      return group.emitError("group has no pipeline");
    SmallVector<int64_t> tile = decisionInts(outer, "tile");
    if (tile.size() != group.getSpace().size() ||
        !dyn_cast_or_null<DictionaryAttr>(decisionValue(outer, "split")))
      return outer->emitError("pipeline lacks the tile or split decision (run ktsched-split "
                              "and ktsched-select-tiles first)");
    bool twoLevels = hasTwoLevels(group);
    SmallVector<BufferOp> loads = dmaLoadBuffers(group);
    for (BufferOp buffer : loads) {
      if (auto kept = dyn_cast_or_null<BoolAttr>(decisionValue(buffer, "hoist"))) {
        // A replayed hoist is checked by the lowering, which knows every
        // tile; here only what the schedule itself rules out.
        if (kept.getValue() && twoLevels)
          return buffer.emitError("hoisted loads are not supported with two scratchpad levels");
        continue;
      }
      buffer->setAttr("hoist", decide(b.getBoolAttr(heuristicHoist(buffer, tile)), kHeuristic));
    }

    // The lead: the depth of the buffers that rotate per tile, less one.
    bool anyPerTile = llvm::any_of(loads, [](BufferOp buffer) {
      auto hoisted = dyn_cast_or_null<BoolAttr>(decisionValue(buffer, "hoist"));
      return !hoisted || !hoisted.getValue();
    });
    std::optional<int64_t> rotating;
    for (BufferOp buffer : loads) {
      auto hoisted = dyn_cast_or_null<BoolAttr>(decisionValue(buffer, "hoist"));
      if (hoisted && hoisted.getValue() && anyPerTile)
        continue;
      int64_t depth = decisionInt(buffer, "depth").value_or(1);
      rotating = rotating ? std::min(*rotating, depth) : depth;
    }
    int64_t maxLead = std::max<int64_t>(rotating.value_or(1) - 1, 0);
    PipelineOp pipeline = outerPipeline(group);
    if (std::optional<int64_t> lead = decisionInt(pipeline, "lead")) {
      if (*lead < 0 || *lead > maxLead)
        return pipeline->emitError("lead ")
               << *lead << " is outside [0, " << maxLead
               << "]: loads may run at most (input buffer depth - 1) tiles ahead of stores";
      return success();
    }
    pipeline->setAttr("lead", decide(b.getI64IntegerAttr(maxLead), kHeuristic));
    return success();
  }
};

} // namespace
