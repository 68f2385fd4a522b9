//===- CheckTransfers.cpp - what the DMA and load units can carry -----------===//
//
// Strategy. Legality of a group's transfers against the description's
// access rules, checked before anything is emitted: reduction results as
// whole DMA runs, partial vectors, column operands whose slices start
// inside a DMA unit (over-fetched from the unit they start in), and the
// runs a load may be widened to. Each failure is a located diagnostic
// saying what is not lowered.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::planColumnLeads() {
  const arch::AccessRule *rule = globalDmaRule();
  if (!rule || rule->alignment.count() <= 1)
    return success();
  overFetchUnit = rule->alignment;
  for (Transfer &t : loads) {
    // A slice must start on a whole element of the unit to be addressed by
    // lanes; otherwise its DMA start is diagnosed.
    if (!isColumnLoad(t) || !overFetchUnit.isAlignedTo(t.esize.bytes))
      continue;
    for (int64_t c : coreIds) {
      if (!hasWork(c))
        continue; // a fully masked tile moves nothing
      FailureOr<int64_t> offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      for (const std::vector<Tile> &list : tiles)
        for (const Tile &tile : list)
          t.overFetch |= !(Bytes(*offset) + toBytes(Elements(tileElementOffset(t, tile)), t.esize))
                              .isAlignedTo(overFetchUnit);
    }
  }
  return success();
}

std::optional<Bytes> GroupLowering::coveringLoadRun(const Transfer &t, Bytes need) const {
  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  auto local = model.lookupNode(t.memory);
  if (!dmaNode || globalMemories.empty() || !local)
    return std::nullopt;
  Bytes size = need, multiple(1);
  std::optional<Bytes> limit;
  for (arch::NodeId memory : {globalMemories.front(), *local}) {
    const arch::AccessRule *rule = model.node(*dmaNode).accessTo(memory);
    if (!rule)
      return std::nullopt;
    size = std::max(size, rule->minSize);
    multiple = Bytes(std::lcm(multiple.count(), std::max<int64_t>(1, rule->sizeMultiple.count())));
    limit = limit ? std::min(*limit, rule->maxSize) : rule->maxSize;
  }
  size = size.alignTo(multiple);
  if (limit && size > *limit)
    return std::nullopt;
  return size;
}

/// A reduction's results leave the compute unit as whole vectors (a row
/// reduction's last vector of a tile padded, and of a wide result type only
/// its pieces that hold results), so each result buffer must hold them;
/// and each tile's results are one DMA run into global memory, which must
/// be a legal access there. Cores never share a DMA access (no
/// read-modify-write of a neighbour's results), so a run below the DMA's
/// minimum is not lowered; the scheduler merges grid tiles to avoid that
/// where it can (MergeGridTiles), so what reaches here had no such merge.
LogicalResult GroupLowering::checkReductionStores() {
  int64_t resultDim = reduction->resultDim();
  auto resultOp = [&](size_t i) -> Operation * {
    auto outs = reduction->outputs();
    return i < outs.size() ? outs[i].op : group.getOperation();
  };
  auto checkBuffer = [&](const Transfer &t, size_t i) -> LogicalResult {
    if (resultDim >= 0 && (t.dims.empty() || t.dims.back() != resultDim))
      return resultOp(i)->emitError("a reduction result stored across its vector dimension: "
                                    "not lowered");
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < t.dims.size(); ++k)
      rows *= t.dims[k] >= 0 ? tileShape[t.dims[k]] : t.shape[k];
    int64_t valid = resultDim >= 0 ? tileShape[resultDim] : 1;
    int64_t padded = reduction->resultElements(tileShape);
    if (rows > 1 && padded != valid)
      return resultOp(i)->emitError("reduction results in rows of ")
             << valid << " elements, not whole " << vectorWidth
             << "-element vectors: padded result rows are not lowered";
    Bytes need = toBytes(Elements(storedResultElements(t, tileShape) * rows), t.esize);
    if (t.bytes < need)
      return resultOp(i)->emitError("result buffer of ")
             << t.bytes.count() << " bytes cannot take the " << need.count()
             << " bytes of whole result vectors: not lowered";
    return success();
  };
  // The buffer the compute side writes (with two levels, the outer one
  // receives only the valid bytes).
  for (auto [i, t] : llvm::enumerate(stores))
    if (failed(checkBuffer(twoLevel ? innerStores[i] : t, i)))
      return failure();

  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  if (!dmaNode || globalMemories.empty())
    return success();
  const arch::AccessRule *rule = model.node(*dmaNode).accessTo(globalMemories.front());
  if (!rule)
    return success();
  std::string memoryName = model.node(globalMemories.front()).name;
  // Why the scheduler did not coarsen the grid instead (MergeGridTiles).
  auto explain = [&](InFlightDiagnostic diag) -> LogicalResult {
    auto decision = kernel->getAttrOfType<ks::DecisionAttr>("merge");
    auto merge = decision ? llvm::dyn_cast<DictionaryAttr>(decision.getValue()) : nullptr;
    if (merge && i64Of(merge.get("factor"), 1) == 1) {
      if (decision.getSource() == ks::kPlan)
        diag.attachNote() << "the plan merges no grid tiles";
      else
        diag.attachNote() << "grid tiles were not merged: no factor dividing the grid gives "
                             "merged tiles that are contiguous in every transfer and whose "
                             "results are legal DMA runs";
    }
    if (!group->hasAttr("granule_blocks"))
      diag.attachNote() << "the rows were not re-divided into blocks of whole granules per "
                           "grid tile: that needs every transfer along them to cover the same "
                           "rows, all stored, moving with one block index of the grid or of a cyclic "
                           "or chunked loop (contiguous chunks of rows per tile)";
    return diag;
  };
  for (auto [i, t] : llvm::enumerate(stores))
    for (const std::vector<Tile> &list : tiles)
      for (const Tile &tile : list) {
        int64_t elements = resultDim >= 0 ? tile.extent[resultDim] : 1;
        Bytes run = toBytes(Elements(elements), t.esize);
        if (widenedResultRun(t, tile, run))
          continue;
        if (run < rule->minSize)
          return explain(resultOp(i)->emitError("per-tile reduction result of ")
                         << run.count() << " bytes is below the DMA minimum of "
                         << rule->minSize.count() << " bytes of @" << memoryName
                         << ": not lowered");
        if (rule->sizeMultiple.count() > 0 && run.count() % rule->sizeMultiple.count() != 0)
          return explain(resultOp(i)->emitError("per-tile reduction result of ")
                         << run.count() << " bytes is not a multiple of the DMA's "
                         << rule->sizeMultiple.count() << "-byte access size of @"
                         << memoryName << ": not lowered");
      }
  return success();
}

std::optional<Bytes> GroupLowering::widenedResultRun(const Transfer &t, const Tile &tile,
                                                    Bytes run) {
  // Laid out at the upperbound, the last tile is not where the data of a
  // smaller launch value ends.
  if (symbolic())
    return std::nullopt;
  // A reduction's one-dimensional results, or a partial last vector (the
  // callers ensure its tile is a single row, so the run is one copy).
  bool partialRow = !reduction && hasPartialVector(tile) && !t.dims.empty() &&
                    t.dims.back() == (int64_t)space.size() - 1;
  if (!(reduction && t.dims.size() <= 1) && !partialRow)
    return std::nullopt;
  const arch::AccessRule *rule = globalDmaRule();
  if (!rule || rule->allowsSize(run))
    return std::nullopt;
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  Bytes widened = std::max(run, rule->minSize).alignTo(rule->sizeMultiple);
  if (!rule->allowsSize(widened))
    return std::nullopt;
  // The slot holds whole result vectors; the widened run must stay inside.
  const Transfer &slot = twoLevel ? innerStores[&t - stores.begin()] : t;
  if (widened > std::min(t.bytes, slot.bytes))
    return std::nullopt;
  // Nothing else of this kernel argument may live in the padding.
  for (const Transfer &load : loads)
    if (load.arg == t.arg)
      return std::nullopt;
  // Another view of the same argument may extend further: the padding
  // starts after all of them.
  Bytes end = argumentDataEnd(t.arg, t.esize);
  Bytes allocated = end.alignTo(model.node(globalMemories.front()).memory.alignment);
  Bytes tileStart = toBytes(Elements(tileElementOffset(t, tile)), t.esize);
  for (int64_t c : coreIds) {
    FailureOr<int64_t> offset = gridOffset(t, c);
    if (failed(offset))
      return std::nullopt;
    Bytes start = Bytes(*offset) + tileStart;
    if (start + run != end || start + widened > allocated)
      return std::nullopt;
  }
  return widened;
}

Bytes GroupLowering::argumentDataEnd(int64_t arg, ElementSize size) {
  int64_t last = 0;
  for (ks::TensorOp tensor : kernel.getBody().getOps<ks::TensorOp>()) {
    if (tensor.getArg() != arg)
      continue;
    last = std::max(last, ks::tensorDataEnd(tensor).count());
  }
  return toBytes(Elements(last), size);
}

LogicalResult GroupLowering::checkPartialVector(const Tile &tile) {
  int64_t n = tile.extent.back();
  auto masked = [&](const Twine &why) {
    std::string text = ("a tile row of " + Twine(n) + " elements is not a whole number of " +
                        Twine(vectorWidth) + "-element vectors")
                           .str();
    if (!why.isTriviallyEmpty())
      text += " " + why.str();
    return outer->emitError(text) << ": masked vectors are not lowered";
  };
  // A reduction's row fold replaces the padding lanes of a row's last
  // vector by its combiner's identity (ReductionNest: `ext` of an identity
  // vector), and a column fold's padding lanes are results nobody stores: a
  // reduction is checked like an element-wise row below.
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < space.size(); ++d)
    rows *= tile.extent[d];
  const int64_t vectorDim = (int64_t)space.size() - 1;
  // Several rows: each must start on a vector boundary of its slot and
  // hold its last vector whole before the next row starts, which a dense
  // slot of rows that are not whole vectors does not give; the schedule
  // pads such slots' rows (`row_pitch`, AllocateScratchpad).
  auto rowsApart = [&](const Transfer &t) -> LogicalResult {
    // Dense rows are realigned in registers (RowRealign.cpp).
    if (rows == 1 || t.dims.size() < 2 || t.dims.back() != vectorDim || t.denseRows)
      return success();
    Bytes vector = toBytes(Elements(vectorWidth), t.esize);
    Bytes pitch(bufferPitch(t)[t.dims.size() - 2]);
    if (pitch >= vector * vectorsPerRow(tile) && pitch.isAlignedTo(vector))
      return success();
    return masked("and the rows of @" + t.tensor.getSymName() + "'s slot are " +
                  Twine(pitch.count()) + " bytes apart, not whole vectors");
  };
  for (auto [i, t] : llvm::enumerate(loads))
    if (failed(rowsApart(t)) || (twoLevel && failed(rowsApart(innerLoads[i]))))
      return failure();
  for (auto [i, t] : llvm::enumerate(stores))
    if (failed(rowsApart(t)) || (twoLevel && failed(rowsApart(innerStores[i]))))
      return failure();
  // A column operand (one value per row) is held per block of rows and
  // broadcast per row; each row's vectors, the last one partial, follow
  // from the row's own start (the slot's rows are checked apart above).
  auto spansVector = [&](const Transfer &t) {
    return !t.dims.empty() && t.dims.back() == vectorDim;
  };
  // The compute side moves whole vectors through the slot it reads or
  // writes (the inner one on two levels).
  Bytes whole = toBytes(Elements(vectorsPerRow(tile) * vectorWidth), esize);
  auto slotHolds = [&](const Transfer &t, Bytes bytes) -> LogicalResult {
    if (t.bytes >= bytes)
      return success();
    return masked("and a slot of " + Twine(t.bytes.count()) + " bytes for @" +
                  t.tensor.getSymName() + " cannot hold its last vector whole");
  };
  for (auto [i, t] : llvm::enumerate(loads)) {
    // A dense slot is read as aligned vectors, checked by denseRowTile.
    if (!spansVector(t) || t.denseRows)
      continue;
    if (failed(slotHolds(twoLevel ? innerLoads[i] : t, whole)))
      return failure();
    Bytes run = toBytes(Elements(n), t.esize);
    // A row of several is read within the slot's row pitch (copyTile).
    Bytes room = rows > 1 && t.dims.size() >= 2 ? Bytes(bufferPitch(t)[t.dims.size() - 2])
                                                : t.bytes;
    if (std::optional<Bytes> covering = coveringLoadRun(t, run); covering && *covering <= room)
      run = *covering;
    if (!twoLevel && failed(slotHolds(t, std::max(run, whole))))
      return failure();
  }
  const arch::AccessRule *rule = globalDmaRule();
  for (auto [i, t] : llvm::enumerate(stores)) {
    // Dense stores leave as one packed run (DenseStores.cpp, copyTile).
    if (!spansVector(t) || t.denseRows)
      continue;
    if (failed(slotHolds(twoLevel ? innerStores[i] : t, whole)))
      return failure();
    // Only the valid bytes, or whole granules whose excess lies past the
    // end of the argument's data, may be written: anything else would
    // clobber the data that follows in memory.
    Bytes run = toBytes(Elements(n), t.esize);
    // Each of several rows leaves as its own run of valid bytes: none can
    // be widened into the data of the row after it.
    int64_t storedRows = 1;
    for (size_t k = 0; k + 1 < t.dims.size(); ++k)
      storedRows *= t.dims[k] >= 0 ? tile.extent[t.dims[k]] : t.shape[k];
    if (rule && !rule->allowsSize(run) && storedRows > 1)
      return masked("and each of its " + Twine(storedRows) + " rows of @" +
                    t.tensor.getSymName() +
                    " is a " + Twine(run.count()) + "-byte DMA run, which the DMA's access "
                    "rule for global memory does not allow (" +
                    Twine(rule->minSize.count()) + " to " + Twine(rule->maxSize.count()) +
                    " bytes in multiples of " + Twine(rule->sizeMultiple.count()) + ")");
    if (rule && !rule->allowsSize(run) && !widenedResultRun(t, tile, run))
      return masked("and its " + Twine(run.count()) + "-byte DMA run of @" +
                    t.tensor.getSymName() +
                    " is neither a legal access nor at the end of the data");
  }
  return success();
}
