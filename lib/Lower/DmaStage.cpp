//===- DmaStage.cpp - the DMA stage: global addresses and copies ------------===//
//
// Strategy. The DMA stage kind: where a tile's bytes are in global memory
// (a grid tile's origin per core, as a table column; a tile's offset inside
// it; inside a rolled tile loop, a loop term stepping by a period's
// bytes), where its buffer slot is, and the one n-D copy between them, with
// the DMA's access rules checked (a problem is reported once the program is
// built). The load/store stage's vector addresses in a slot are here too:
// both kinds address the same buffers.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

FailureOr<int64_t> GroupLowering::gridOffset(const Transfer &t, int64_t linear) {
  auto grid = kernel.getGrid();
  SmallVector<int64_t> coords = {linear % grid[0], (linear / grid[0]) % grid[1],
                                 linear / (grid[0] * grid[1])};
  // The induction variable (dim 3) starts at this grid tile's lower bound.
  coords.push_back(loopLower[linear]);
  coords.resize(t.origin.getNumDims(), 0);
  SmallVector<int64_t> origin = t.origin.compose(coords);
  auto strides = t.tensor.getStrides();
  auto lower = t.tensor.getLowerCorner();
  if (origin.size() != strides.size() || lower.size() != strides.size())
    return t.tensor.emitError("transfer origin rank does not match the tensor");
  auto shape = t.tensor.getShape();
  for (size_t i = 0; i < strides.size() && i < shape.size(); ++i)
    if (origin[i] < lower[i] || origin[i] - lower[i] >= shape[i])
      return t.tensor.emitError("grid tile ")
             << linear << " starts outside the buffer (a fully masked tile): not lowered";
  int64_t elements = t.tensor.getOffset();
  for (size_t i = 0; i < strides.size(); ++i)
    elements += (origin[i] - lower[i]) * strides[i];
  return toBytes(Elements(elements), t.esize).count();
}

bool GroupLowering::hasWork(int64_t linear) const {
  auto classes = llvm::dyn_cast_or_null<ArrayAttr>(decisionValue(outer, "classes"));
  if (!classes)
    return true;
  for (Attribute entry : classes)
    if (auto dict = llvm::dyn_cast<DictionaryAttr>(entry))
      if (auto tiles = dict.getAs<DenseI64ArrayAttr>("tiles"))
        if (llvm::is_contained(tiles.asArrayRef(), linear))
          return true;
  return false;
}

int64_t GroupLowering::tileElementOffset(const Transfer &t, const Tile &tile) const {
  auto strides = t.tensor.getStrides();
  int64_t elements = 0;
  for (size_t i = 0; i < t.dims.size() && i < strides.size(); ++i)
    if (t.dims[i] >= 0)
      elements += tile.origin[t.dims[i]] * strides[i];
  // The loop's advance: origin is affine in the induction variable, so the
  // difference between iterations is the same on every grid tile.
  if (tile.iteration > 0 && t.origin.getNumDims() > 3) {
    SmallVector<int64_t> first(t.origin.getNumDims(), 0), later;
    first[3] = loopLower.empty() ? 0 : loopLower[0];
    later = first;
    later[3] += tile.iteration * loopStep;
    SmallVector<int64_t> a = t.origin.compose(first), b = t.origin.compose(later);
    for (size_t i = 0; i < a.size() && i < strides.size(); ++i)
      elements += (b[i] - a[i]) * strides[i];
  }
  return elements;
}

/// Bytes between consecutive indices of each transfer dimension in the
/// buffer: a row-major copy of the full tile, dense or with the rows the
/// schedule padded (`row_pitch`) `rowPitch` bytes apart.
SmallVector<int64_t> GroupLowering::bufferPitch(const Transfer &t) const {
  SmallVector<int64_t> pitch(t.dims.size(), 0);
  int64_t step = t.esize.bytes.count();
  for (int i = (int)t.dims.size() - 1; i >= 0; --i) {
    pitch[i] = step;
    step *= t.dims[i] >= 0 ? tileShape[t.dims[i]] : t.shape[i];
    if (i == (int)t.dims.size() - 1 && t.rowPitch.count() > 0)
      step = t.rowPitch.count();
  }
  return pitch;
}

dc::Address GroupLowering::slotAddress(const Transfer &t, int64_t j, int64_t tileIndex) const {
  return dc::ProgramBuilder::memoryAddress(
      t.memory,
      t.address + t.instanceStride * j + t.bytes * (t.hoisted ? 0 : tileIndex % t.depth));
}

void GroupLowering::copyTile(ktunit::ProgramBuilder &dma, const Transfer &t, uint32_t symbol,
                           std::optional<uint32_t> column, Bytes gridBytes, const Tile &tile,
                           dc::Address local, bool isLoad, InstanceTable *perCore) {
  if (isDistributed(t))
    return copyPieces(dma, t, tile, local, isLoad, perCore);
  if (isGathered(t))
    return gatherRows(dma, t, tile, local, isLoad, perCore);
  dc::Address global = dc::ProgramBuilder::symbolAddress(
      symbol, gridBytes + toBytes(Elements(tileElementOffset(t, tile)), t.esize));
  if (column)
    global.tableColumn = *column;
  SmallVector<int64_t> pitch = bufferPitch(t);
  auto strides = t.tensor.getStrides();
  SmallVector<int64_t> extent;
  for (size_t i = 0; i < t.dims.size(); ++i)
    extent.push_back(t.dims[i] >= 0 ? tile.extent[t.dims[i]] : t.shape[i]);
  Bytes run = toBytes(Elements(extent.back()), t.esize);
  SmallVector<dc::CopyDim> dims;
  for (size_t i = 0; i + 1 < extent.size(); ++i) {
    if (extent[i] == 1)
      continue;
    Bytes global = toBytes(Elements(strides[i]), t.esize), localStep(pitch[i]);
    dims.push_back({extent[i], isLoad ? global : localStep, isLoad ? localStep : global});
  }
  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  // Where each core's copy starts in the symbol: the table column holds a
  // per-core offset (one-level lowering), else `gridBytes` is the offset.
  // An over-fetched load starts `lead` bytes before its slice, on the DMA
  // unit the slice starts in.
  Bytes tileStart = toBytes(Elements(tileElementOffset(t, tile)), t.esize);
  SmallVector<Bytes, 8> starts, leads;
  if (column) {
    for (int64_t c : coreIds)
      if (FailureOr<int64_t> coreOffset = gridOffset(t, c); succeeded(coreOffset)) {
        Bytes l = isLoad ? leadOf(t, c, tile) : Bytes(0);
        starts.push_back(Bytes(*coreOffset) + tileStart - l);
        leads.push_back(l);
      }
    if (llvm::any_of(leads, [](Bytes l) { return l.count() != 0; })) {
      // The start differs from the transfer's column by each core's lead.
      // Every core of the class has a start (a core without one was
      // diagnosed by gridOffset); a copy without its per-core table cannot
      // be emitted right, so it is reported rather than emitted wrong.
      if (!perCore || starts.size() != coreIds.size()) {
        if (!dmaProblem)
          dmaProblem = {t.tensor.getOperation(),
                        "an over-fetched copy without a start for every core"};
        return;
      }
      std::vector<int64_t> bases;
      for (Bytes start : starts)
        bases.push_back((start - tileStart).count());
      global.tableColumn.reset();
      global.offset = tileStart;
      perCore->addTo(global, bases);
    }
  } else {
    Bytes l = isLoad && t.overFetch ? (gridBytes + tileStart) % overFetchUnit : Bytes(0);
    starts.push_back(gridBytes + tileStart - l);
    leads.push_back(l);
    global.offset = global.offset - l;
  }
  // Reads may over-fetch: a single run that is not a legal DMA access (a
  // scalar, a short row, a column slice starting inside a DMA unit) reads
  // the smallest legal run from its (aligned) start that covers the wanted
  // bytes of every core; the extra bytes land in the slot's padding and are
  // never used. Stores always write only valid bytes: over-writing a
  // neighbour's bytes would be wrong.
  if (isLoad && t.denseRows) {
    // Dense rows: the tile's rows follow each other in global memory (the
    // schedule's condition), so they are one run, read from the DMA unit
    // it starts in (the same lead on every core: denseRowTile) and rounded
    // up to a legal access inside the slot.
    // The run spans from the first row's first element to the last row's
    // last: rows of a column block carry the gaps between them (a strided
    // span), which the compute unit skips.
    Bytes lead = denseLead(t, tile), need = lead;
    int64_t elements = extent.back();
    for (size_t i = 0; i + 1 < extent.size(); ++i)
      elements += (extent[i] - 1) * strides[i];
    need = need + toBytes(Elements(elements), t.esize);
    dims.clear();
    for (Bytes &start : starts)
      start = start - lead;
    global.offset = global.offset - lead;
    std::optional<Bytes> covering = coveringLoadRun(t, need);
    run = covering && *covering <= t.bytes ? *covering : need;
  } else if (isLoad && dims.empty()) {
    Bytes need = run, furthest(0);
    for (Bytes l : leads) {
      need = std::max(need, l + run);
      furthest = std::max(furthest, l);
    }
    std::optional<Bytes> covering = coveringLoadRun(t, need);
    if (covering && *covering <= t.bytes)
      run = *covering;
    else if (furthest.count() > 0 && !dmaProblem)
      dmaProblem = {t.tensor.getOperation(),
                    "a column slice of " + std::to_string(run.count()) + " bytes starting " +
                        std::to_string(furthest.count()) +
                        " bytes into a DMA unit needs a read of " +
                        (covering ? std::to_string(covering->count()) + " bytes"
                                  : std::string("more than the DMA's largest access")) +
                        ", which its " + std::to_string(t.bytes.count()) +
                        "-byte buffer slot cannot take"};
  }
  // Each row of a tile of several rows is read the same way, within the
  // slot's row pitch (whole vectors, padded where the schedule chose
  // `row_pitch`): the extra bytes are the row's padding.
  if (isLoad && !dims.empty() && t.dims.size() >= 2 && !t.denseRows)
    if (std::optional<Bytes> covering = coveringLoadRun(t, run);
        covering && *covering <= Bytes(pitch[t.dims.size() - 2]))
      run = *covering;
  // Dense stores: the packed rows follow each other in global memory (the
  // schedule's condition), one run of their valid bytes from the tile's
  // first, widened into the symbol's padding where the data ends there.
  if (!isLoad && t.denseRows) {
    int64_t elements = 1;
    for (int64_t e : extent)
      elements *= e;
    run = toBytes(Elements(elements), t.esize);
    dims.clear();
  }
  if (!isLoad && dims.empty())
    if (std::optional<Bytes> widened = widenedResultRun(t, tile, run))
      run = *widened;
  // The bytes from a copy's start to the start of its last run.
  Bytes lastRun(0);
  for (const dc::CopyDim &dim : dims)
    lastRun = lastRun + (isLoad ? dim.srcStride : dim.dstStride) * (dim.count - 1);
  if (dmaNode && !globalMemories.empty())
    if (const arch::AccessRule *rule = model.node(*dmaNode).accessTo(globalMemories.front())) {
      bool hadProblem = dmaProblem.has_value();
      // A widened short load may end past the tensor's last alignment unit
      // (a short tile near the end): the symbol, what the runtime
      // allocates, grows to cover it.
      dc::Symbol &sym = out.bundle.symbols[symbol];
      if (isLoad)
        for (Bytes start : starts)
          if (sym.size < start + lastRun + run) {
            sym.size = (start + lastRun + run)
                           .alignTo(model.node(globalMemories.front()).memory.alignment);
            sym.shape = {toElements(sym.size, t.esize).count()};
          }
      if (!dmaProblem && !rule->allowsSize(run))
        dmaProblem = {t.tensor.getOperation(), "a " + std::to_string(run.count()) +
                                                   "-byte DMA run is outside the DMA's access sizes"};
      for (const dc::CopyDim &dim : dims)
        if (!dmaProblem && !rule->allowsAddress(isLoad ? dim.srcStride : dim.dstStride))
          dmaProblem = {t.tensor.getOperation(), "a DMA stride is not aligned to " +
                                                     std::to_string(rule->alignment.count()) +
                                                     " bytes"};
      for (Bytes start : starts)
        if (!dmaProblem && !rule->allowsAddress(start))
          dmaProblem = {t.tensor.getOperation(),
                        "a tile starting at byte " + std::to_string(start.count()) +
                            " is not aligned to the DMA's " +
                            std::to_string(rule->alignment.count()) + " bytes"};
      if (!hadProblem && dmaProblem)
        dmaProblemRule = accessRuleText(*dmaNode, globalMemories.front(), *rule);
    }
  if (periodLater) {
    // Inside a loop over periods of alike tiles: each iteration's copy
    // starts this many bytes further on (the tiles step uniformly).
    Bytes stride = toBytes(Elements(tileElementOffset(t, *periodLater) -
                                    tileElementOffset(t, tile)),
                           t.esize);
    global.terms.push_back({ktunit::ProgramBuilder::kLoopAround, stride, 0});
    if (const arch::AccessRule *rule = globalDmaRule();
        rule && !dmaProblem && !rule->allowsAddress(stride)) {
      dmaProblem = {t.tensor.getOperation(), "tiles " + std::to_string(stride.count()) +
                                                 " bytes apart are not aligned to the DMA's " +
                                                 std::to_string(rule->alignment.count()) +
                                                 " bytes"};
      if (dmaNode && !globalMemories.empty())
        dmaProblemRule = accessRuleText(*dmaNode, globalMemories.front(), *rule);
    }
  }
  if (partLater) {
    // Inside a loop over a streamed row's parts: each iteration's copy
    // starts this many bytes further on.
    Bytes stride = toBytes(Elements(tileElementOffset(t, *partLater) -
                                    tileElementOffset(t, tile)),
                           t.esize);
    global.terms.push_back({partLoopDepth, stride, 0});
    if (const arch::AccessRule *rule = globalDmaRule();
        rule && !dmaProblem && !rule->allowsAddress(stride))
      dmaProblem = {t.tensor.getOperation(), "parts of a row " + std::to_string(stride.count()) +
                                                 " bytes apart are not aligned to the DMA's " +
                                                 std::to_string(rule->alignment.count()) +
                                                 " bytes"};
  }
  if (isLoad)
    dma.copy(local, global, run, dims);
  else
    dma.copy(global, local, run, dims);
}

std::string GroupLowering::accessRuleText(arch::NodeId unit, arch::NodeId memory,
                                          const arch::AccessRule &rule) const {
  return ("the description's access rule of @" + model.node(unit).name + " to @" +
          model.node(memory).name + " forbids it: min_size " + Twine(rule.minSize.count()) +
          ", max_size " + Twine(rule.maxSize.count()) + ", size_multiple " +
          Twine(rule.sizeMultiple.count()) + ", alignment " + Twine(rule.alignment.count()) +
          " bytes")
      .str();
}

uint32_t GroupLowering::symbolOf(const Transfer &t, bool isOutput) {
  dc::Bundle &bundle = out.bundle;
  for (size_t s = 0; s < out.symbolArgs.size(); ++s)
    if (out.symbolArgs[s] == t.arg) {
      bundle.symbols[s].isInput |= !isOutput;
      bundle.symbols[s].isOutput |= isOutput;
      return s;
    }
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  t.tensor.getElementType().print(os);
  // The runtime allocates whole alignment units past every view of the
  // argument, so short loads may read up to the end of the last one, and
  // a store ending in a partial vector may write its padding.
  auto global = model.memoriesBacking(arch::KtirSpace::Global);
  Bytes size = argumentDataEnd(t.arg, t.esize);
  if (!global.empty())
    size = size.alignTo(model.node(global.front()).memory.alignment);
  dc::Symbol symbol{"arg" + std::to_string(t.arg), typeName,
                    {toElements(size, t.esize).count()}, size, !isOutput, isOutput};
  bundle.symbols.push_back(symbol);
  symbols.names.push_back(symbol.name);
  symbols.types.push_back(t.tensor.getElementType());
  out.symbolArgs.push_back(t.arg);
  return bundle.symbols.size() - 1;
}

dc::Address GroupLowering::vectorInSlot(const Transfer &t, dc::Address slot,
                                        bool &broadcast) const {
  SmallVector<int64_t> pitch = bufferPitch(t);
  broadcast = true;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t d = t.dims[i];
    if (d < 0)
      continue;
    int64_t stride = pitch[i];
    bool vectorDim = d == (int64_t)space.size() - 1;
    if (vectorDim) {
      stride *= vectorWidth;
      broadcast = false;
    }
    // A loop of one trip (a tile one row or one vector wide) never steps:
    // its term would only state a stride the access rules need not allow.
    int64_t trips = vectorDim ? (tileShape[d] + vectorWidth - 1) / vectorWidth : tileShape[d];
    if (trips > 1)
      slot.terms.push_back({uint32_t(d), Bytes(stride), 0});
  }
  return slot;
}

dc::Address GroupLowering::positionAddress(const Transfer &t, dc::Address slot,
                                           const SpacePosition &pos, bool &broadcast) const {
  SmallVector<int64_t> pitch = bufferPitch(t);
  broadcast = true;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t d = t.dims[i];
    if (d < 0)
      continue;
    if (d == (int64_t)space.size() - 1)
      broadcast = false;
    slot.offset = slot.offset + Bytes(pitch[i] * pos.constant[d]);
    for (auto [depth, multiplier] : pos.terms[d])
      slot.terms.push_back({depth, Bytes(pitch[i] * multiplier), 0});
  }
  return slot;
}

dc::Address GroupLowering::segmentAddress(const Transfer &t, dc::Address address,
                                          const RowSegment &seg) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  SmallVector<int64_t> pitch = bufferPitch(t);
  bool column = llvm::all_of(t.dims, [&](int64_t e) { return e == rowDim; });
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t d = t.dims[i];
    if (d < 0)
      continue;
    // Loops of one trip never step (as in vectorInSlot): no term.
    auto term = [&](int64_t depth, int64_t trips, int64_t stride) {
      if (trips > 1)
        address.terms.push_back({uint32_t(depth), Bytes(stride), 0});
    };
    if (d < rowDim) {
      term(d, tileShape[d], pitch[i]);
    } else if (d == rowDim) {
      address.offset = address.offset + Bytes(pitch[i] * seg.rowOffset);
      term(rowDim, seg.blocks, pitch[i] * vectorWidth);
      if (!column)
        term(rowDim + 1, seg.rows, pitch[i]);
    } else {
      term(rowDim + 2, (tileShape[d] + vectorWidth - 1) / vectorWidth, pitch[i] * vectorWidth);
    }
  }
  return address;
}
