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

/// The stage that produced a buffer's contents, if it is a stage.
StageOp producerStage(BufferOp buffer) {
  if (buffer->getNumOperands() == 0)
    return {};
  return buffer->getOperand(0).getDefiningOp<StageOp>();
}

/// A group whose tiles pass through a second scratchpad level (a dma_load
/// stage inside the nested pipeline).
bool hasTwoLevels(GroupOp group) {
  bool inner = false;
  group.walk([&](StageOp stage) {
    if (stage.getRole() == "dma_load" && stage->getParentOfType<StageOp>())
      inner = true;
  });
  return inner;
}

/// The transfer a dma_load performs into `buffer` (its result index).
DictionaryAttr transferOf(BufferOp buffer) {
  StageOp stage = producerStage(buffer);
  auto transfers = stage ? stage->getAttrOfType<ArrayAttr>("transfers") : nullptr;
  unsigned index = cast<OpResult>(buffer->getOperand(0)).getResultNumber();
  if (!transfers || index >= transfers.size())
    return {};
  return dyn_cast<DictionaryAttr>(transfers[index]);
}

struct GroupShape {
  SmallVector<int64_t> space, tile;
  int64_t splitDim = -1;
  SmallVector<int64_t> shares;
  bool reduces = false, loops = false;

  /// Tiles along `d` of instance `j`.
  int64_t tilesAlong(int64_t d, size_t j) const {
    int64_t extent = d == splitDim ? shares[j] : space[d];
    return (extent + tile[d] - 1) / tile[d];
  }
  /// Instances the split gives work.
  SmallVector<size_t> workingInstances() const {
    SmallVector<size_t> working;
    for (size_t j = 0; j < shares.size(); ++j)
      if (shares[j] > 0)
        working.push_back(j);
    if (shares.empty())
      working.push_back(0);
    return working;
  }
};

FailureOr<GroupShape> shapeOf(GroupOp group) {
  GroupShape shape;
  PipelineOp pipeline = outerPipeline(group);
  if (!pipeline)
    return group.emitError("group has no pipeline");
  shape.space.assign(group.getSpace().begin(), group.getSpace().end());
  shape.tile = decisionInts(pipeline, "tile");
  auto split = dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"));
  if (shape.tile.size() != shape.space.size() || !split)
    return pipeline->emitError("pipeline lacks the tile or split decision (run ktsched-split "
                               "and ktsched-select-tiles first)");
  shape.splitDim = split.getAs<IntegerAttr>("dim").getInt();
  shape.shares.assign(split.getAs<DenseI64ArrayAttr>("shares").asArrayRef().begin(),
                      split.getAs<DenseI64ArrayAttr>("shares").asArrayRef().end());
  if (shape.shares.empty())
    shape.shares.push_back(shape.space[shape.splitDim]);
  shape.reduces = !group.getReduceDims().empty();
  shape.loops = static_cast<bool>(group->getAttr("loop"));
  return shape;
}

/// Whether the heuristic hoists the load into `buffer` (see the header).
bool shouldHoist(BufferOp buffer, const GroupShape &shape, bool twoLevels) {
  if (twoLevels)
    return false;
  // A streamed row's slots hold one part of a row after another.
  if (auto group = buffer->getParentOfType<GroupOp>(); group && streamColumns(group))
    return false;
  DictionaryAttr transfer = transferOf(buffer);
  auto dims = transfer ? transfer.getAs<DenseI64ArrayAttr>("dims") : nullptr;
  auto origin = transfer ? transfer.getAs<AffineMapAttr>("origin") : nullptr;
  if (!dims || !origin)
    return false;
  int64_t rowDim = (int64_t)shape.space.size() - 2;
  bool column = !shape.reduces && rowDim >= 0 && !dims.empty() &&
                llvm::all_of(dims.asArrayRef(), [&](int64_t d) { return d == rowDim; });
  if (column)
    return false;
  if (origin.getValue().getNumDims() > 3 && origin.getValue().isFunctionOfDim(3))
    return false;
  bool several = shape.loops;
  for (size_t j : shape.workingInstances()) {
    int64_t tiles = 1;
    for (int64_t d = 0; d < (int64_t)shape.space.size(); ++d) {
      int64_t along = shape.tilesAlong(d, j);
      tiles *= along;
      if (along > 1 && llvm::is_contained(dims.asArrayRef(), d))
        return false;
    }
    several |= tiles > 1;
  }
  return several;
}

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
    FailureOr<GroupShape> shape = shapeOf(group);
    if (failed(shape))
      return failure();
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
      buffer->setAttr("hoist", decide(b.getBoolAttr(shouldHoist(buffer, *shape, twoLevels)),
                                      kHeuristic));
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
