//===- SelectTiles.cpp - tiles that fit the budget, no larger than needed -===//
//
// Strategy (heuristic): a tile is the part of one sub-core's share that the
// outer pipeline moves per step. Start from the whole share; while the
// group's buffers at their depth do not fit the budget of some memory
// (usable capacity divided among the sub-cores sharing it, see Budget.h),
// shrink dimensions outermost first: each dimension takes the largest
// extent that fits with the dimensions inside it whole, and only when even
// extent 1 does not fit does the next dimension inward shrink. The
// innermost dimension shrinks in steps of an alignment unit — a whole
// number of vectors whose bytes are a whole number of transfer granules —
// so every partial row stays granule aligned. Reduced dimensions are never
// shrunk; the dimension a reduction's results run along shrinks in whole
// granules of global memory's transfers, so every tile's results are one
// legal DMA run (only where they leave the group: a group of phases
// consumes them and stores whole rows). A tile that fits is then cut down, outermost dimension
// only, to the fewest rows whose transfer still covers the latency of the
// load and store routes (a larger one only lengthens the pipeline's fill
// and drain), and no fewer than balance the per-tile reload of buffers that
// do not grow with the rows (broadcast operands) or amortise the per-tile
// index fetch of gathered rows. The result is the `tile`
// decision on the outer pipeline, with
// `loop_order` (outermost dimension first: row-major, contiguous rows for
// the DMA) and the number of tiles per dimension (the last may be partial).
// A group of phases whose rows do not fit one at a time is streamed: the
// tile is one row, `residency = streamed` and `stream_columns` the largest
// part of the row one buffer slot holds (each phase reads the row again).
// A table updated in place through its indices (a scatter-add) takes its
// whole share as the tile, in one slot per buffer where two do not fit.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include <cmath>
#include <numeric>

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SELECTTILES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

/// One sub-core's share of the iteration space: the split dimension takes
/// the largest share.
static SmallVector<int64_t> shareOf(GroupOp group, PipelineOp pipeline) {
  SmallVector<int64_t> share(group.getSpace());
  if (auto split = dyn_cast_or_null<DictionaryAttr>(decisionValue(pipeline, "split"))) {
    auto dim = split.getAs<IntegerAttr>("dim");
    auto shares = split.getAs<DenseI64ArrayAttr>("shares");
    if (dim && shares && dim.getInt() < (int64_t)share.size() && !shares.empty())
      share[dim.getInt()] = *llvm::max_element(shares.asArrayRef());
  }
  return share;
}

/// Rows of `tile` whose bytes take, on the slowest link of the load and
/// store routes between global memory and the compute unit, at least the
/// two routes' latencies; nullopt when the routes are not known.
static std::optional<int64_t> rowsCoveringLatency(GroupOp group, StageOp compute,
                                                  const ArchModel &model,
                                                  ArrayRef<int64_t> tile) {
  auto unitName = dyn_cast_or_null<StringAttr>(decisionValue(compute, "unit"));
  std::optional<NodeId> unit = unitName ? model.lookupNode(unitName) : std::nullopt;
  std::optional<Placement> placement = findPlacement(model, group.getLoc());
  if (!unit || !placement)
    return std::nullopt;
  NodeInstance computeInstance{*unit, 0};
  std::optional<Route> load = model.routeFrom(placement->global, computeInstance);
  std::optional<Route> store = model.routeTo(computeInstance, placement->global);
  if (!load || !store)
    return std::nullopt;
  Cycles latency(0);
  int64_t slowest = INT64_MAX;
  for (const Route *route : {&*load, &*store})
    for (const Hop &hop : route->hops) {
      const Link &link = model.link(hop.link.link);
      latency += link.latency;
      slowest = std::min(slowest, link.bandwidth.bytesPerCycle);
    }
  if (slowest == INT64_MAX || slowest <= 0)
    return std::nullopt;
  int64_t rowElements = 1;
  for (int64_t extent : tile.drop_front())
    rowElements *= extent;
  Bytes rowBytes = toBytes(Elements(rowElements), elementSize(group.getElementType()));
  if (rowBytes.count() <= 0)
    return std::nullopt;
  int64_t needed = latency.count() * slowest;
  return std::max<int64_t>(1, (needed + rowBytes.count() - 1) / rowBytes.count());
}

/// Buffers that do not grow with the outermost dimension (a broadcast row
/// or scalar) are loaded again for every tile, so fewer rows per tile cost
/// more of their traffic while they shorten fill and drain (two tiles'
/// transfers). The rows balancing the two, sqrt(share * invariant bytes /
/// (2 * bytes per row)); 1 when there is no such buffer.
static int64_t rowsAmortisingInvariants(GroupOp group, const ArchModel &model,
                                        ArrayRef<int64_t> tile, int64_t shareRows) {
  SmallVector<int64_t> one(tile), two(tile);
  one[0] = 1;
  two[0] = 2;
  int64_t invariant = 0, perRow = 0;
  for (BufferOp buffer : groupBuffers(group)) {
    std::optional<NodeId> memory =
        model.lookupNode(buffer->getAttrOfType<StringAttr>("memory").getValue());
    if (!memory)
      continue;
    Bytes granule = memoryGranule(model, *memory);
    Bytes atOne = bufferBytes(buffer, one, granule), atTwo = bufferBytes(buffer, two, granule);
    if (atOne == atTwo)
      invariant += atOne.count();
    else
      perRow = std::max(perRow, (atTwo - atOne).count());
  }
  if (invariant == 0 || perRow == 0)
    return 1;
  double rows = std::sqrt(double(shareRows) * double(invariant) / (2.0 * double(perRow)));
  return std::max<int64_t>(1, int64_t(std::ceil(rows)));
}

/// A tile of gathered rows (GatheredLoad.cpp) costs its DMA a wait for the
/// tile's indices from global memory before its rows, the load route's
/// latency with the engine idle, once per tile; fill and drain cost two
/// tiles' transfers. The rows balancing the two over a share of
/// `shareRows`: sqrt(shareRows * latency / (2 * cycles per row on the
/// route's slowest link)); 1 for a group that gathers nothing, or one of
/// phases, whose compute, not its DMA, sets the pace (the wait hides
/// behind it, while larger tiles lengthen its fill: measured 1.2% slower
/// on softmax of 512 gathered rows on spyre).
static int64_t rowsAmortisingIndexFetch(GroupOp group, StageOp compute, const ArchModel &model,
                                        ArrayRef<int64_t> tile, int64_t shareRows) {
  bool gathers = false;
  for (BufferOp buffer : dmaLoadBuffers(group))
    if (auto kernel = group->getParentOfType<KernelOp>())
      if (auto tensor = kernel.lookupSymbol<TensorOp>(bufferTensorName(buffer)))
        gathers |= tensor.getGatherIndex().has_value();
  auto unitName = dyn_cast_or_null<StringAttr>(decisionValue(compute, "unit"));
  std::optional<NodeId> unit = unitName ? model.lookupNode(unitName) : std::nullopt;
  std::optional<Placement> placement = findPlacement(model, group.getLoc());
  if (!gathers || group->hasAttr("phases") || !unit || !placement)
    return 1;
  std::optional<Route> load = model.routeFrom(placement->global, NodeInstance{*unit, 0});
  if (!load)
    return 1;
  Cycles latency(0);
  int64_t slowest = INT64_MAX;
  for (const Hop &hop : load->hops) {
    const Link &link = model.link(hop.link.link);
    latency += link.latency;
    slowest = std::min(slowest, link.bandwidth.bytesPerCycle);
  }
  int64_t rowElements = 1;
  for (int64_t extent : tile.drop_front())
    rowElements *= extent;
  Bytes rowBytes = toBytes(Elements(rowElements), elementSize(group.getElementType()));
  if (slowest == INT64_MAX || slowest <= 0 || rowBytes.count() <= 0)
    return 1;
  double rowCycles = double(rowBytes.count()) / double(slowest);
  double rows = std::sqrt(double(shareRows) * double(latency.count()) / (2.0 * rowCycles));
  return std::max<int64_t>(1, int64_t(std::ceil(rows)));
}

static LogicalResult selectTile(GroupOp group, const ArchModel &model) {
  PipelineOp pipeline = outerPipeline(group);
  StageOp compute = computeStage(group);
  if (!pipeline || !compute)
    return group.emitError("expected a pipeline with a compute stage");
  int64_t lanes = decisionInt(compute, "vector").value_or(1);
  SmallVector<int64_t> share = shareOf(group, pipeline);
  SmallVector<int64_t> tile = share;
  int64_t rank = tile.size();

  // The innermost dimension's step: whole vector steps of the lowering,
  // and whole granules of every buffer, each in its own element type (an
  // f16 and an f32 buffer of one group: 64-byte granules are 32 and 16
  // elements).
  Bytes granule(1);
  for (BufferOp buffer : groupBuffers(group))
    if (auto memory = model.lookupNode(buffer->getAttrOfType<StringAttr>("memory").getValue()))
      granule = std::max(granule, memoryGranule(model, *memory));
  int64_t step = std::lcm(vectorStep(group, lanes), granuleElements(group, granule));
  // Results of a reduction: whole global-memory granules per tile.
  int64_t resultDim = -1, resultGranule = 1;
  if (group.getReduceDims().size() == 1 && rank > 0 && reductionResultsLeave(group)) {
    int64_t reduced = group.getReduceDims().front();
    resultDim = reduced == rank - 1 ? rank - 2 : rank - 1;
    // Whole granules of the results in their own type (an f16 sum of f32
    // inputs: 64-byte granules are 32 results).
    if (auto globals = model.memoriesBacking(KtirSpace::Global); !globals.empty())
      resultGranule = granuleElements(group, memoryGranule(model, globals.front()));
  }
  // A column operand's slice per tile is whole granules in whole units of
  // rows, like a reduction's results.
  if (auto globals = model.memoriesBacking(KtirSpace::Global); !globals.empty() && rank >= 2)
    if (int64_t unit = columnOperandRowUnit(group, memoryGranule(model, globals.front()));
        unit > 1 && (resultDim < 0 || resultDim == rank - 2)) {
      resultDim = rank - 2;
      resultGranule = std::lcm(resultGranule, unit);
    }

  // Packed rows (dense stores): every tile starts on a granule.
  if (int64_t unit = packedRowUnit(group, model);
      unit > 1 && (resultDim < 0 || resultDim == rank - 2)) {
    resultDim = rank - 2;
    resultGranule = std::lcm(resultGranule, unit);
  }

  auto fits = [&](ArrayRef<int64_t> candidate) -> FailureOr<bool> {
    auto uses = memoryUse(group, candidate, model);
    if (failed(uses))
      return failure();
    return llvm::all_of(*uses, [](const MemoryUse &u) { return u.need <= u.budget; });
  };
  // Shrinks the tile from the share until it fits, the result dimension in
  // steps of `resultStep`.
  auto search = [&](int64_t resultStep) -> FailureOr<bool> {
  tile = share;
  int64_t lastStep = resultDim == rank - 1 ? std::lcm(step, resultStep) : step;
  FailureOr<bool> ok = fits(tile);
  if (failed(ok))
    return failure();
  for (int64_t d = 0; d < rank && !*ok; ++d) {
    if (llvm::is_contained(group.getReduceDims(), d))
      continue;
    int64_t unit = d == rank - 1 ? std::min(lastStep, share[d])
                   : d == resultDim ? std::min(resultStep, share[d])
                                    : 1;
    // Largest multiple of `unit` (or the whole extent) that fits: binary
    // search over the number of units.
    int64_t lo = 1, hi = share[d] / unit, best = 0;
    while (lo <= hi) {
      int64_t mid = (lo + hi) / 2;
      tile[d] = mid * unit;
      FailureOr<bool> f = fits(tile);
      if (failed(f))
        return failure();
      if (*f) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    tile[d] = std::max<int64_t>(best, 1) * unit;
    ok = best > 0;
  }
  return ok;
  };
  // A table updated in place through its indices (a scatter-add) reads
  // every row of a grid tile before it writes any: its share (the whole
  // grid tile, on one instance) is one tile, in one slot per buffer where
  // two do not fit (ScheduleUtils.h, updatesGatheredRows).
  if (updatesGatheredRows(group)) {
    FailureOr<bool> whole = fits(share);
    if (succeeded(whole) && !*whole) {
      Builder b(group.getContext());
      for (BufferOp buffer : groupBuffers(group))
        buffer->setAttr("depth", decide(b.getI64IntegerAttr(1), kHeuristic));
      whole = fits(share);
    }
    if (failed(whole))
      return failure();
    if (!*whole) {
      std::string shape;
      llvm::raw_string_ostream os(shape);
      llvm::interleave(share, os, "x");
      return group.emitError("group @")
             << group.getSymName() << " updates a table in place through its indices (a "
             << "scatter-add): every row of a grid tile is read before any is written, so its "
             << "grid tile of " << shape << " must be one tile, which does not fit the "
             << "scratchpad budget even in one slot per buffer (grid tiles of fewer rows are "
             << "needed)";
    }
    tile = share;
  }
  FailureOr<bool> ok = updatesGatheredRows(group) ? FailureOr<bool>(true) : search(resultGranule);
  if (succeeded(ok) && !*ok && resultGranule > 1) {
    // No tile with whole granules of results fits at this depth: single
    // buffering (no overlap of transfers and compute, but every result
    // run legal) before tiles whose results the DMA cannot store (which
    // the lowering then diagnoses with their sizes).
    SmallVector<std::pair<BufferOp, Attribute>> depths;
    Builder b(group.getContext());
    for (BufferOp buffer : groupBuffers(group)) {
      depths.push_back({buffer, buffer->getAttr("depth")});
      buffer->setAttr("depth", decide(b.getI64IntegerAttr(1), kHeuristic));
    }
    ok = search(resultGranule);
    if (succeeded(ok) && !*ok) {
      for (auto [buffer, depth] : depths) {
        if (depth)
          buffer->setAttr("depth", depth);
        else
          buffer->removeAttr("depth");
      }
      ok = search(1);
    }
  }
  if (failed(ok))
    return failure();
  // A group of phases whose rows do not fit even one at a time streams
  // them: the tile is one row, and every phase reads it again from global
  // memory in passes of `stream_columns` elements, the largest that fits:
  // whole vector steps and granules that divide the row into a whole
  // number of the buffers' rotations (each phase starts at the first slot).
  std::optional<int64_t> streamed;
  if (!*ok && streamableGroup(group) && share.back() % step == 0) {
    int64_t depth = 1;
    for (BufferOp buffer : groupBuffers(group))
      depth = std::max<int64_t>(depth, decisionInt(buffer, "depth").value_or(1));
    int64_t units = share.back() / step;
    SmallVector<int64_t> slot(rank, 1);
    for (int64_t k = units; k >= 1 && !streamed; --k) {
      if (units % k != 0 || (units / k) % depth != 0 || units / k < 2)
        continue;
      slot.back() = k * step;
      FailureOr<bool> f = fits(slot);
      if (failed(f))
        return failure();
      if (*f)
        streamed = k * step;
    }
    if (streamed) {
      tile.assign(rank, 1);
      tile.back() = share.back();
      ok = true;
    }
  }
  if (!*ok) {
    auto uses = memoryUse(group, tile, model);
    std::string detail;
    llvm::raw_string_ostream os(detail);
    for (const MemoryUse &use : *uses)
      os << " @" << model.node(use.memory).name << ": need " << use.need.count()
         << " bytes, budget " << use.budget.count() << ";";
    std::string shape;
    llvm::raw_string_ostream shapeOs(shape);
    llvm::interleave(tile, shapeOs, "x");
    return group.emitError("no tile of group @")
           << group.getSymName() << " fits the scratchpad budget; smallest tile " << shape
           << ":" << detail;
  }
  // No larger than the pipeline needs: nothing overlaps the first tile's
  // load (fill) and the last tile's store (drain), so a tile far larger
  // than necessary only lengthens them. The pipeline keeps its links busy
  // when a tile's transfer takes at least the latency of the load route
  // plus that of the store route (the DMA releases and refills a buffer
  // across both); shrink the outermost dimension to the fewest rows whose
  // bytes need that long on the routes' slowest link.
  if (rank > 0 && !llvm::is_contained(group.getReduceDims(), int64_t(0)) &&
      !updatesGatheredRows(group) &&
      llvm::equal(ArrayRef<int64_t>(tile).drop_front(), ArrayRef<int64_t>(share).drop_front()))
    if (std::optional<int64_t> rows = rowsCoveringLatency(group, compute, model, tile)) {
      int64_t needed = std::max({*rows, rowsAmortisingInvariants(group, model, tile, share[0]),
                                 rowsAmortisingIndexFetch(group, compute, model, tile, share[0])});
      // As many tiles as fit whole covers, the rows spread evenly over them.
      int64_t count = std::max<int64_t>(1, share[0] / needed);
      int64_t fitted = tile[0];
      tile[0] = std::min(fitted, (share[0] + count - 1) / count);
      // A reduction's results along the rows stay whole granules per tile.
      if (resultDim == 0 && resultGranule > 1)
        tile[0] = std::min<int64_t>(fitted, llvm::alignTo(tile[0], resultGranule));
      // A one-dimensional space (a flat run) is cut in the innermost
      // dimension's steps: whole vectors and granules, so only the run's
      // last tile can end in a partial vector.
      if (rank == 1)
        tile[0] = std::min<int64_t>(fitted, llvm::alignTo(tile[0], step));
    }
  Builder b(group.getContext());
  SmallVector<int64_t> counts, order;
  for (int64_t d = 0; d < rank; ++d) {
    counts.push_back((share[d] + tile[d] - 1) / tile[d]);
    order.push_back(d);
  }
  pipeline->setAttr("tile", decide(b.getDenseI64ArrayAttr(tile), kHeuristic));
  pipeline->removeAttr(kResidency);
  pipeline->removeAttr(kStreamColumns);
  if (streamed) {
    pipeline->setAttr(kResidency, decide(b.getStringAttr(kStreamed), kHeuristic));
    pipeline->setAttr(kStreamColumns, decide(b.getI64IntegerAttr(*streamed), kHeuristic));
  }
  pipeline->setAttr("loop_order", decide(b.getDenseI64ArrayAttr(order), kHeuristic));
  pipeline->setAttr("tile_counts", b.getDenseI64ArrayAttr(counts));
  return success();
}

namespace {
struct SelectTilesPass : ktflow::ktsched::impl::SelectTilesBase<SelectTilesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto model = getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>())
        if (failed(selectTile(group, *model)))
          return signalPassFailure();
  }
};
} // namespace
