//===- HoistLoads.cpp - which loads the DMA copies once per instance -------===//
//
// The hoist predicate of ktsched-order-transfers, shared with the budget
// and the allocation (HoistLoads.h): a hoisted load's buffer takes one
// slot, so tile selection may choose a tile, or a group of phases keep
// its rows resident, that fit only with it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/HoistLoads.h"
#include "ktflow/Schedule/ScheduleUtils.h"

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

/// The transfer a dma_load performs into `buffer` (its result index).
DictionaryAttr transferOf(BufferOp buffer) {
  StageOp stage = producerStage(buffer);
  auto transfers = stage ? stage->getAttrOfType<ArrayAttr>("transfers") : nullptr;
  if (!transfers)
    return {};
  unsigned index = cast<OpResult>(buffer->getOperand(0)).getResultNumber();
  if (index >= transfers.size())
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

std::optional<GroupShape> shapeOf(GroupOp group, ArrayRef<int64_t> tile) {
  GroupShape shape;
  PipelineOp pipeline = outerPipeline(group);
  if (!pipeline)
    return std::nullopt;
  shape.space.assign(group.getSpace().begin(), group.getSpace().end());
  shape.tile.assign(tile.begin(), tile.end());
  auto split = dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"));
  if (shape.tile.size() != shape.space.size() || !split ||
      llvm::any_of(shape.tile, [](int64_t e) { return e < 1; }))
    return std::nullopt;
  auto dim = split.getAs<IntegerAttr>("dim");
  auto shares = split.getAs<DenseI64ArrayAttr>("shares");
  if (!dim || !shares || dim.getInt() < 0 || dim.getInt() >= (int64_t)shape.space.size())
    return std::nullopt;
  shape.splitDim = dim.getInt();
  shape.shares.assign(shares.asArrayRef().begin(), shares.asArrayRef().end());
  if (shape.shares.empty())
    shape.shares.push_back(shape.space[shape.splitDim]);
  shape.reduces = !group.getReduceDims().empty();
  shape.loops = static_cast<bool>(group->getAttr("loop"));
  return shape;
}

/// Whether the heuristic hoists the load into `buffer` (HoistLoads.h).
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

} // namespace

/// A group whose tiles pass through a second scratchpad level (a dma_load
/// stage inside the nested pipeline).
bool ktflow::ktsched::hasTwoLevels(GroupOp group) {
  bool inner = false;
  group.walk([&](StageOp stage) {
    if (stage.getRole() == "dma_load" && stage->getParentOfType<StageOp>())
      inner = true;
  });
  return inner;
}

bool ktflow::ktsched::heuristicHoist(BufferOp buffer, ArrayRef<int64_t> tile) {
  auto group = buffer->getParentOfType<GroupOp>();
  if (!group)
    return false;
  std::optional<GroupShape> shape = shapeOf(group, tile);
  return shape && shouldHoist(buffer, *shape, hasTwoLevels(group));
}

int64_t ktflow::ktsched::bufferSlots(BufferOp buffer, ArrayRef<int64_t> tile, int64_t depth) {
  StageOp producer = producerStage(buffer);
  if (!producer || producer.getRole() != "dma_load")
    return depth;
  if (auto hoist = dyn_cast_or_null<BoolAttr>(decisionValue(buffer, "hoist")))
    return hoist.getValue() ? 1 : depth;
  return heuristicHoist(buffer, tile) ? 1 : depth;
}
