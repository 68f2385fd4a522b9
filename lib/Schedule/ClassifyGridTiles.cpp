//===- ClassifyGridTiles.cpp - grid tiles by valid extent, and their shares -===//
//
// Strategy. KTIR masks the points of an access tile that fall outside its
// view, so the grid tiles at the edge of a tensor that the grid does not
// divide evenly have less valid work than the others, and some have none.
// One SPMD program serves the grid tiles whose valid extent and loop trip
// count agree, so this pass partitions each group's grid tiles into
// classes of equal (valid extent, trips), leaving out the fully masked
// ones, and records per class how the sub-core instances share its valid
// extent of the split dimension. That share is a decision (the lowering
// used to rebalance on its own): the heuristic keeps the schedule's split
// for an unmasked class, and for a masked one divides what is valid as
// evenly as the split did, in the split's units of work (SplitUnits.h:
// whole vectors along the vector dimension, so only the last share can end
// with a partial one; whole granule-aligned rows where stores pack rows),
// over the instances the split gave work; a reduction keeps the
// split's share boundaries cut at the valid extent (they sit on whole DMA
// granules of results), and a split along the reduced dimension keeps one
// instance. The valid extent of a tile is the same in every iteration of
// the group's loop, or the group is diagnosed.
//
// Recorded as `classes = #ktsched.decision<[{tiles, space, shares}, ...]>`
// on the outer pipeline, in the order the lowering emits them. Which core
// runs a grid tile is the kernel's `core_of_tile` decision (linear: tile t
// on core t mod cores, in rounds).
//
// Classes also keep apart the grid tiles whose loads of rows at a stride
// the description's global DMA rule does not align start at different
// offsets into a DMA unit: such rows are moved as one run from the unit
// they start in and realigned in the compute unit at that offset
// (row_layout = dense, lib/Lower/RowRealign.cpp), which one program can
// do for one offset only (a grid of column blocks whose block is not a
// whole unit: one class per offset).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SplitUnits.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_CLASSIFYGRIDTILES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// One global-memory transfer of the outer pipeline, as far as masking goes.
struct MaskedTransfer {
  AffineMap origin;
  SmallVector<int64_t> dims, shape, lower;
  std::string tensor;
  bool load = false;
  /// For a load of rows at a stride the global DMA rule does not align:
  /// the tensor's strides and offset (elements), its element size, and
  /// the rule's alignment unit; else `unit` is 0.
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  Bytes elementBytes{0}, unit{0};

  /// Bytes into a DMA unit the transfer starts at with origin `origin`.
  int64_t lead(ArrayRef<int64_t> origin) const {
    int64_t elements = offset;
    for (size_t i = 0; i < strides.size() && i < origin.size() && i < lower.size(); ++i)
      elements += (origin[i] - lower[i]) * strides[i];
    int64_t bytes = elements * elementBytes.count();
    return ((bytes % unit.count()) + unit.count()) % unit.count();
  }
};

struct GridClass {
  SmallVector<int64_t> tiles, space, leads;
  int64_t trips = 0;
};

FailureOr<SmallVector<MaskedTransfer, 4>> outerTransfers(GroupOp group, KernelOp kernel,
                                                      const arch::ArchModel *model) {
  SmallVector<MaskedTransfer, 4> transfers;
  PipelineOp pipeline = outerPipeline(group);
  for (Operation &op : pipeline->getRegion(0).front()) {
    auto stage = dyn_cast<StageOp>(op);
    if (!stage || (stage.getRole() != "dma_load" && stage.getRole() != "dma_store"))
      continue;
    auto list = stage->getAttrOfType<ArrayAttr>("transfers");
    if (!list)
      return stage.emitError("DMA stage has no transfers");
    for (Attribute entry : list) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      auto tensorRef = dict ? dict.getAs<FlatSymbolRefAttr>("tensor") : nullptr;
      auto origin = dict ? dict.getAs<AffineMapAttr>("origin") : nullptr;
      auto dims = dict ? dict.getAs<DenseI64ArrayAttr>("dims") : nullptr;
      TensorOp tensor =
          tensorRef ? kernel.lookupSymbol<TensorOp>(tensorRef.getValue()) : TensorOp();
      if (!tensor || !origin || !dims)
        return stage.emitError("transfer lacks a tensor, origin or dims");
      MaskedTransfer t;
      t.origin = origin.getValue();
      t.dims.assign(dims.asArrayRef().begin(), dims.asArrayRef().end());
      t.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
      t.lower.assign(tensor.getLowerCorner().begin(), tensor.getLowerCorner().end());
      t.tensor = tensor.getSymName().str();
      t.load = stage.getRole() == "dma_load";
      // The global access rule of the DMA unit the load is bound to.
      const arch::AccessRule *rule = model ? globalAccessRule(stage, *model) : nullptr;
      ArrayRef<int64_t> strides = tensor.getStrides();
      ElementSize size = elementSize(tensor.getElementType());
      Bytes elementBytes = size.bytes;
      if (t.load && rule && rule->alignment.count() > 1 && strides.size() == 2 &&
          strides[1] == 1 && !rule->allowsAddress(toBytes(Elements(strides[0]), size))) {
        t.strides.assign(strides.begin(), strides.end());
        t.offset = tensor.getOffset();
        t.elementBytes = elementBytes;
        t.unit = rule->alignment;
      }
      transfers.push_back(std::move(t));
    }
  }
  return transfers;
}

/// The grid tiles of `group`, classified by valid extent and loop trips.
FailureOr<SmallVector<GridClass>> classify(GroupOp group, KernelOp kernel,
                                           const arch::ArchModel *model) {
  FailureOr<SmallVector<MaskedTransfer, 4>> transfers = outerTransfers(group, kernel, model);
  if (failed(transfers))
    return failure();
  ArrayRef<int64_t> grid = kernel.getGrid();
  int64_t gridTiles = grid[0] * grid[1] * grid[2];
  ArrayRef<int64_t> space = group.getSpace();
  AffineMap lbMap, ubMap;
  int64_t step = 1;
  if (auto loop = group->getAttrOfType<DictionaryAttr>("loop")) {
    auto lb = loop.getAs<AffineMapAttr>("lb"), ub = loop.getAs<AffineMapAttr>("ub");
    auto stepAttr = loop.getAs<IntegerAttr>("step");
    if (!lb || !ub || !stepAttr || stepAttr.getInt() <= 0)
      return group.emitError("group loop lacks lb, ub or a positive step");
    lbMap = lb.getValue();
    ubMap = ub.getValue();
    step = stepAttr.getInt();
  }
  SmallVector<GridClass> classes;
  for (int64_t c = 0; c < gridTiles; ++c) {
    SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1], c / (grid[0] * grid[1])};
    int64_t lower = 0, trips = 1;
    if (lbMap) {
      lower = evalLoopBound(lbMap, coords, /*upper=*/false);
      int64_t upper = evalLoopBound(ubMap, coords, /*upper=*/true);
      trips = upper > lower ? (upper - lower + step - 1) / step : 0;
    }
    if (trips == 0)
      continue; // no iterations: nothing to move or compute
    std::optional<SmallVector<int64_t>> valid;
    SmallVector<int64_t> leads;
    for (const MaskedTransfer &t : *transfers)
      if (t.unit.count() > 0) {
        SmallVector<int64_t> at = {coords[0], coords[1], coords[2], lower};
        at.resize(t.origin.getNumDims(), 0);
        leads.push_back(t.lead(t.origin.compose(at)));
      }
    for (int64_t iteration = 0; iteration < trips; ++iteration) {
      SmallVector<int64_t> extent(space);
      // Per dimension, the narrowest load and store along it (and which).
      SmallVector<int64_t> loadExtent(space), storeExtent(space);
      SmallVector<const MaskedTransfer *> narrowestLoad(space.size(), nullptr);
      SmallVector<bool> stored(space.size(), false);
      for (const MaskedTransfer &t : *transfers) {
        SmallVector<int64_t> at = {coords[0], coords[1], coords[2], lower + iteration * step};
        at.resize(t.origin.getNumDims(), 0);
        SmallVector<int64_t> origin = t.origin.compose(at);
        size_t rank = std::min({t.dims.size(), origin.size(), t.shape.size(), t.lower.size()});
        for (size_t i = 0; i < rank; ++i) {
          int64_t d = t.dims[i];
          if (d < 0)
            continue;
          int64_t valid =
              std::clamp<int64_t>(t.shape[i] - (origin[i] - t.lower[i]), 0, space[d]);
          extent[d] = std::min(extent[d], valid);
          if (t.load && valid < loadExtent[d]) {
            loadExtent[d] = valid;
            narrowestLoad[d] = &t;
          }
          if (!t.load) {
            storeExtent[d] = std::min(storeExtent[d], valid);
            stored[d] = true;
          }
        }
      }
      // KTIR loads zeros where a load is masked, and a store whose own
      // view goes on writes what the body computes from them; the classes
      // cut the tile at the narrowest transfer, which would leave those
      // stored points unwritten.
      for (size_t d = 0; d < space.size(); ++d)
        if (stored[d] && narrowestLoad[d] && storeExtent[d] > loadExtent[d] &&
            llvm::none_of(storeExtent, [](int64_t e) { return e <= 0; }))
          return group.emitError("grid tile ")
                 << c << " loads " << loadExtent[d] << " of its " << space[d]
                 << " indices along dimension " << d << " from @" << narrowestLoad[d]->tensor
                 << " (the rest is masked: zeros) but stores " << storeExtent[d]
                 << ": stores of values computed from masked loads are not lowered";
      if (valid && *valid != extent)
        return group.emitError("grid tile ")
               << c << " is partly masked in some loop iterations only: not lowered";
      valid = extent;
    }
    if (llvm::any_of(*valid, [](int64_t e) { return e <= 0; }))
      continue; // fully masked: nothing to move or compute
    auto it = llvm::find_if(classes, [&](const GridClass &k) {
      return k.space == *valid && k.trips == trips && k.leads == leads;
    });
    if (it == classes.end())
      classes.push_back({{c}, *valid, leads, trips});
    else
      it->tiles.push_back(c);
  }
  return classes;
}

/// The heuristic's shares of a class whose valid extent is `valid`.
SmallVector<int64_t> classShares(GroupOp group, ArrayRef<int64_t> valid,
                                 const arch::ArchModel &model, const Placement &placement) {
  PipelineOp pipeline = outerPipeline(group);
  auto split = cast<DictionaryAttr>(decisionValue(pipeline, "split"));
  int64_t splitDim = split.getAs<IntegerAttr>("dim").getInt();
  SmallVector<int64_t> shares(split.getAs<DenseI64ArrayAttr>("shares").asArrayRef());
  ArrayRef<int64_t> space = group.getSpace();
  if (llvm::equal(valid, space) || splitDim < 0 || splitDim >= (int64_t)space.size())
    return shares;
  ArrayRef<int64_t> reduceDims = group.getReduceDims();
  int64_t reduceDim = reduceDims.empty() ? -1 : reduceDims.front();
  int64_t n = std::max<int64_t>(1, llvm::count_if(shares, [](int64_t e) { return e > 0; }));
  if (splitDim == reduceDim)
    n = 1;
  int64_t left = valid[splitDim];
  if (reduceDim >= 0 && splitDim != reduceDim) {
    for (int64_t &share : shares) {
      share = std::min(share, left);
      left -= share;
    }
    return shares;
  }
  int64_t unit = splitUnitSizes(group, model, placement)[splitDim];
  int64_t units = (left + unit - 1) / unit;
  for (int64_t i = 0; i < (int64_t)shares.size(); ++i) {
    shares[i] = i < n ? std::min(left, (units / n + (i < units % n ? 1 : 0)) * unit) : 0;
    left -= shares[i];
  }
  return shares;
}

/// The shares a plan gives the masked class `cls`, checked, if it gives any.
FailureOr<DenseI64ArrayAttr> replayedShares(GroupOp group, ArrayAttr planned,
                                            const GridClass &cls) {
  auto fail = [&]() {
    return group.emitError("plan's tile classes of group '") << group.getSymName() << "': ";
  };
  auto split = cast<DictionaryAttr>(decisionValue(outerPipeline(group), "split"));
  int64_t splitDim = split.getAs<IntegerAttr>("dim").getInt();
  int64_t instances = split.getAs<IntegerAttr>("instances").getInt();
  for (auto dict : planned.getAsRange<DictionaryAttr>()) {
    auto tiles = dict.getAs<DenseI64ArrayAttr>("tiles");
    auto shares = dict.getAs<DenseI64ArrayAttr>("shares");
    if (!tiles || !shares || !llvm::equal(tiles.asArrayRef(), cls.tiles))
      continue;
    int64_t sum = 0;
    for (int64_t share : shares.asArrayRef()) {
      if (share < 0)
        return fail() << "shares must be non-negative";
      sum += share;
    }
    if ((int64_t)shares.size() != instances || sum != cls.space[splitDim])
      return fail() << "the shares of the class of tile " << cls.tiles.front() << " must be "
                    << instances << " values summing to its valid extent "
                    << cls.space[splitDim] << ", got " << shares.size() << " summing to "
                    << sum;
    return shares;
  }
  return DenseI64ArrayAttr();
}

} // namespace

namespace {
struct ClassifyGridTilesPass
    : ktflow::ktsched::impl::ClassifyGridTilesBase<ClassifyGridTilesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>()) {
        PipelineOp pipeline = outerPipeline(group);
        if (!pipeline || !dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"))) {
          group.emitError("group lacks a pipeline with a split decision (run ktsched-split)");
          return signalPassFailure();
        }
        // A replayed plan may cut a scatter-add's grid tile: every row
        // must be read before any is written (updatesGatheredRows).
        if (updatesGatheredRows(group)) {
          auto split = dyn_cast<DictionaryAttr>(decisionValue(pipeline, "split"));
          auto shares = split ? split.getAs<DenseI64ArrayAttr>("shares") : nullptr;
          auto tile = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(pipeline, "tile"));
          bool oneInstance =
              shares && llvm::count_if(shares.asArrayRef(), [](int64_t v) { return v > 0; }) <= 1;
          if (!oneInstance || !tile || tile.asArrayRef() != group.getSpace()) {
            group.emitError("group @")
                << group.getSymName() << " updates a table in place through its indices (a "
                << "scatter-add): its grid tile must be one tile on one sub-core instance, so "
                << "that every row is read before any is written";
            return signalPassFailure();
          }
        }
        FailureOr<SmallVector<GridClass>> classes = classify(group, kernel, model.get());
        if (failed(classes))
          return signalPassFailure();
        // A plan replays the shares of masked classes (named by their
        // tiles); an unmasked class always has the split's.
        ArrayAttr planned;
        if (auto replayed = dyn_cast_or_null<DecisionAttr>(pipeline->getAttr("classes"));
            replayed && replayed.getSource() == kPlan)
          planned = dyn_cast<ArrayAttr>(replayed.getValue());
        SmallVector<Attribute> entries;
        size_t used = 0;
        for (const GridClass &cls : *classes) {
          DenseI64ArrayAttr shares;
          if (planned && !llvm::equal(cls.space, group.getSpace())) {
            FailureOr<DenseI64ArrayAttr> fromPlan = replayedShares(group, planned, cls);
            if (failed(fromPlan))
              return signalPassFailure();
            shares = *fromPlan;
            used += shares ? 1 : 0;
          }
          if (!shares)
            shares = b.getDenseI64ArrayAttr(classShares(group, cls.space, *model, *placement));
          entries.push_back(
              b.getDictionaryAttr({b.getNamedAttr("tiles", b.getDenseI64ArrayAttr(cls.tiles)),
                                   b.getNamedAttr("space", b.getDenseI64ArrayAttr(cls.space)),
                                   b.getNamedAttr("shares", shares)}));
        }
        if (planned && used != planned.size()) {
          group.emitError("plan's tile classes of group '")
              << group.getSymName() << "': " << planned.size() - used
              << " of them name no partly masked class of grid tiles (the classes follow "
                 "from the tiles' valid extents, which a plan cannot change)";
          return signalPassFailure();
        }
        pipeline->setAttr("classes", decide(b.getArrayAttr(entries), used ? kPlan : kHeuristic));
      }
  }
};
} // namespace
