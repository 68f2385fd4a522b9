//===- StreamedPhases.cpp - a group of phases whose rows are streamed -----===//
//
// Strategy. A group of phases whose row does not fit the scratchpad is
// streamed (the schedule's `residency = streamed`, SelectTiles.cpp): a tile
// is one row, and each phase that reads the row reads it again from global
// memory in parts of `stream_columns` elements, one buffer slot each. The
// compute unit does not see the parts: it receives the row's vectors once
// per phase in the order PhaseNest emits them (one row, phase by phase,
// `phase_values = recompute`), so its accumulators carry the row's
// statistics (max, sum, sum of squares) across the parts in registers, and
// the per-row values of a phase broadcast into the next as in a resident
// row. Only the units around the slots step through the parts:
//
// * the DMA, per row, per phase that reads it, per part: fills an input
//   slot with the part of every load (a row of `x`, the same columns of a
//   broadcast row such as layernorm's weight); in the final phase the part
//   `lead` parts back is stored after each load, and the last ones after
//   the row's last load;
// * the load unit, per row, per such phase, per part: waits for the slot,
//   pushes the part's vectors of the arguments that phase reads, frees it;
// * the store unit, per row, per part of the final phase: fills an output
//   slot with the part's result vectors.
//
// The schedule's parts divide the row into whole rotations of the slots,
// so every phase starts at the first slot and a part's slot is its index
// modulo the depth; runs of parts are counted loops over periods of the
// rotation (only the global addresses step, by the part). Rows go one
// after another (a tile per row: a row this long has no neighbours in a
// slot), rows alike but for where they start as one loop around a row's
// code (the global addresses step by the row), so code size grows with
// neither the rows nor the parts; the sub-cores' parts are interleaved on
// the DMA so every core's sub-cores stream together.
//
// On two scratchpad levels (`deep`) the outer DMA fills the outer slots
// part by part as above, the tile DMA copies each part between the levels,
// and the compute unit, which reads and writes the inner slots itself,
// takes each part's slots in turn: PhaseNest visits the row's vectors in
// parts (PhaseNest::Parts), acquiring and freeing a part's inner slots
// around its vectors.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::checkStreamed() {
  if (!phased || !streamColumns || *streamColumns < 1)
    return computeStage->emitError("a streamed group that is not a group of phases");
  if (phased->carriesInRegisters())
    return computeStage->emitError("phase_values = registers is not lowered for a streamed row");
  const SmallVector<Transfer> &read = twoLevel ? innerLoads : loads;
  if (!columnLoadIndices().empty() || hasDenseLoads() || symbolic() ||
      llvm::any_of(read, [&](const Transfer &t) {
        return t.overFetch || t.hoisted || lacksVectorDim(t);
      }))
    return computeStage->emitError(
        "a streamed row with column operands, dense rows, over-fetched or hoisted loads or "
        "unbound loop bounds is not lowered");
  if (loads.empty() || stores.empty())
    return computeStage->emitError("a streamed group without loads or stores");
  const int64_t columns = *streamColumns;
  for (const std::vector<Tile> &list : tiles)
    for (const Tile &tile : list)
      if (tile.extent.back() % columns != 0 || columns % vectorWidth != 0 ||
          tile.extent.back() != tiles.front().front().extent.back() ||
          llvm::any_of(ArrayRef<int64_t>(tile.extent).drop_back(),
                       [](int64_t e) { return e != 1; }))
        return computeStage->emitError("a streamed tile of ")
               << tile.extent.back() << " columns is not one row of whole parts of " << columns
               << " columns in whole vectors of " << vectorWidth;
  streamPasses = phased->inputPhases();
  if (streamPasses.size() != phased->phaseCount())
    return computeStage->emitError("a streamed group with a phase that reads no row");
  streamParts = tiles.front().front().extent.back() / columns;
  if (streamParts % tilePeriod() != 0)
    return computeStage->emitError("a streamed row of ")
           << streamParts << " parts is not a whole number of rotations of " << tilePeriod()
           << " buffer slots: every phase must start at the first slot";
  return success();
}

Tile GroupLowering::streamPart(const Tile &tile, int64_t c) const {
  Tile part = tile;
  part.origin.back() += c * *streamColumns;
  part.extent.back() = *streamColumns;
  return part;
}

LogicalResult GroupLowering::visitStreamParts(ArrayRef<ktunit::ProgramBuilder *> programs,
                                              int64_t first,
                                              llvm::function_ref<LogicalResult(int64_t)> emitPart) {
  // A plain counted loop (not a loop around): the row's tiles may be one
  // already. The copies in it step their global addresses by partLater.
  int64_t period = tilePeriod();
  int64_t repeat = (streamParts - first) / period;
  int64_t c = first;
  if (repeat >= 2) {
    partLoopDepth = programs.front()->loopDepth();
    for (ktunit::ProgramBuilder *p : programs)
      p->loop(repeat);
    partPeriod = period;
    for (int64_t u = 0; u < period; ++u)
      if (failed(emitPart(first + u)))
        return failure();
    partPeriod = 0;
    for (ktunit::ProgramBuilder *p : programs)
      p->end();
    c = first + repeat * period;
  }
  for (; c < streamParts; ++c)
    if (failed(emitPart(c)))
      return failure();
  return success();
}

int64_t GroupLowering::streamedTileRun() const {
  int64_t n = std::numeric_limits<int64_t>::max();
  for (const std::vector<Tile> &list : tiles)
    n = std::min<int64_t>(n, list.size());
  if (tiles.empty() || n < 2)
    return 0;
  const SmallVector<Transfer> &moved = loads; // the global copies
  for (const std::vector<Tile> &list : tiles) {
    auto steps = [&](int64_t k) {
      SmallVector<int64_t, 8> d;
      for (const Transfer &t : llvm::concat<const Transfer>(moved, stores))
        d.push_back(tileElementOffset(t, list[k + 1]) - tileElementOffset(t, list[k]));
      return d;
    };
    SmallVector<int64_t, 8> first = steps(0);
    for (int64_t k = 0; k + 1 < n; ++k)
      if (list[k].extent != list[0].extent || list[k + 1].extent != list[0].extent ||
          steps(k) != first)
        return 0;
  }
  return n;
}

LogicalResult GroupLowering::emitStreamSteps(
    ArrayRef<ktunit::ProgramBuilder *> programs, int64_t lag,
    llvm::function_ref<void(int64_t, ArrayRef<bool>)> load,
    llvm::function_ref<void(int64_t)> store) {
  for (size_t p = 0; p < streamPasses.size(); ++p) {
    ArrayRef<bool> args = streamPasses[p];
    if (p + 1 < streamPasses.size()) {
      if (failed(visitStreamParts(programs, 0, [&](int64_t c) {
            load(c, args);
            return success();
          })))
        return failure();
      continue;
    }
    // The final phase: part c - lag leaves after part c arrives (inside a
    // rolled loop the store steps as the load does).
    int64_t first = std::min(lag, streamParts);
    for (int64_t c = 0; c < first; ++c)
      load(c, args);
    if (failed(visitStreamParts(programs, first, [&](int64_t c) {
          load(c, args);
          store(c - lag);
          return success();
        })))
      return failure();
    for (int64_t m = std::max<int64_t>(0, streamParts - lag); m < streamParts; ++m)
      store(m);
  }
  return success();
}

LogicalResult GroupLowering::emitStreamed() {
  if (failed(checkStreamed()))
    return failure();
  if (twoLevel)
    return emitStreamedTwoLevel();
  const int64_t columns = *streamColumns;
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  int64_t nsub = tiles.size();
  recordUnboundLaunchValues();

  // --- DMA: one program over every core, as for a resident group. -------
  uint32_t nTransfers = loads.size() + stores.size();
  std::vector<int64_t> dmaInstances;
  for (int64_t c : coreIds)
    dmaInstances.push_back(coreOf(c));
  std::unique_ptr<ktunit::ProgramBuilder> dmaProgram =
      makeProgram("dma", dmaUnit, dmaInstances, nTransfers + 2 * nsub);
  ktunit::ProgramBuilder &dma = *dmaProgram;
  if (failed(addDmaTableRows(dma)))
    return failure();
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  int64_t inDepth = std::numeric_limits<int64_t>::max(), outDepth = inDepth;
  for (const Transfer &t : loads)
    inDepth = std::min(inDepth, t.depth);
  for (const Transfer &t : stores)
    outDepth = std::min(outDepth, t.depth);
  FailureOr<int64_t> leadOr = leadOfLoads(inDepth);
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  SmallVector<ktunit::ChannelOp> inputs, outputs;
  for (int64_t j = 0; j < nsub; ++j) {
    std::string sub = std::to_string(j);
    inputs.push_back(makeChannel(
        "in" + sub, inDepth, "dma", "ld" + sub,
        dc::ProgramBuilder::node(ldUnit, {dc::InstanceSelector::Kind::TableColumn,
                                          int64_t(nTransfers + j)}),
        nearest(dmaUnit)));
    outputs.push_back(makeChannel(
        "out" + sub, outDepth, "st" + sub, "dma", nearest(dmaUnit),
        dc::ProgramBuilder::node(stUnit, {dc::InstanceSelector::Kind::TableColumn,
                                          int64_t(nTransfers + nsub + j)})));
  }
  using ktunit::Side;
  int64_t maxTiles = 0;
  for (auto &list : tiles)
    maxTiles = std::max<int64_t>(maxTiles, list.size());
  // Every sub-core's part c of its tile s: the loads (of the arguments
  // `args` reads), or the stores.
  auto copyParts = [&](int64_t s, int64_t c, bool isLoad, ArrayRef<bool> args) {
    for (int64_t j = 0; j < nsub; ++j) {
      if (s >= (int64_t)tiles[j].size())
        continue;
      Tile part = streamPart(tiles[j][s], c), nextPart = streamPart(tiles[j][s], c + partPeriod);
      Tile nextTile = streamPart(tiles[j][std::min<int64_t>(s + 1, tiles[j].size() - 1)], c);
      partLater = partPeriod ? &nextPart : nullptr;
      periodLater = rolledTiles ? &nextTile : nullptr;
      ktunit::ChannelOp channel = isLoad ? inputs[j] : outputs[j];
      dma.acquire(channel, isLoad ? Side::producer : Side::consumer);
      if (isLoad) {
        for (size_t i = 0; i < loads.size(); ++i)
          if (llvm::any_of(llvm::enumerate(computeInputs), [&](auto in) {
                return in.value().loadIndex == (int)i && args[in.index()];
              }))
            copyTile(dma, loads[i], loadSymbols[i], i, Bytes(0), part,
                     slotAddress(loads[i], j, c), true);
      } else {
        for (auto [i, t] : llvm::enumerate(stores))
          copyTile(dma, t, storeSymbols[i], loads.size() + i, Bytes(0), part,
                   slotAddress(t, j, c), false);
      }
      dma.release(channel, isLoad ? Side::producer : Side::consumer);
      periodLater = partLater = nullptr;
    }
  };
  // Rows alike but for where they start are one loop around a row's code
  // (its global addresses step by the row); the others follow one by one.
  int64_t run = streamedTileRun();
  for (int64_t s = 0; s < maxTiles;) {
    rolledTiles = s == 0 && run >= 2;
    if (rolledTiles)
      dma.loopAround(run);
    if (failed(emitStreamSteps(
            {&dma}, lag, [&](int64_t c, ArrayRef<bool> args) { copyParts(s, c, true, args); },
            [&](int64_t m) { copyParts(s, m, false, {}); })))
      return failure();
    if (rolledTiles)
      dma.endLoopAround();
    s += rolledTiles ? run : 1;
  }
  rolledTiles = false;
  if (dmaProblem) {
    InFlightDiagnostic diag = dmaProblem->first->emitError(dmaProblem->second)
                              << ": unaligned transfers are not lowered";
    if (!dmaProblemRule.empty())
      diag.attachNote() << dmaProblemRule;
    return diag;
  }

  // --- Load, compute and store units: one program per sub-core index. ---
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
  int64_t vectorsPerPart = columns / vectorWidth;
  ArrayRef<ArrayRef<bool>> passes = streamPasses;
  Block &body = computeStage->getRegion(0).front();
  for (int64_t j = 0; j < nsub; ++j) {
    std::vector<int64_t> subInstances;
    for (int64_t c : coreIds)
      subInstances.push_back(ldInstances[c][j]);
    std::string sub = std::to_string(j);
    std::unique_ptr<ktunit::ProgramBuilder> ldProgram = makeProgram("ld" + sub, ldUnit, subInstances),
                                            vecProgram =
                                                makeProgram("vec" + sub, computeUnit, subInstances),
                                            stProgram = makeProgram("st" + sub, stUnit, subInstances);
    ktunit::ProgramBuilder &ld = *ldProgram, &vec = *vecProgram, &st = *stProgram;
    llvm::DenseMap<Value, ktunit::Reg> reg;
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      reg[arg] = vec.newReg();
      if (computeInputs[i].splat)
        vec.vconst(reg[arg], registerType(arg.getType()).value_or(elemType),
                   Elements(vectorWidth), *computeInputs[i].splat);
    }
    allocatePieceRegisters(vec);
    if (failed(phased->allocate(vec, reg)))
      return failure();
    // Vector v of a part in slot c of transfer t: a loop term over the
    // part's vectors at the loop the caller opens next.
    auto partVector = [&](const Transfer &t, int64_t c, ktunit::ProgramBuilder &b) {
      dc::Address address = slotAddress(t, j, c);
      if (vectorsPerPart > 1)
        address.terms.push_back(
            {b.loopDepth(), toBytes(Elements(vectorWidth), t.esize), 0});
      return address;
    };
    auto openPart = [&](ktunit::ProgramBuilder &b) {
      if (vectorsPerPart > 1)
        b.loop(vectorsPerPart);
    };
    auto closePart = [&](ktunit::ProgramBuilder &b) {
      if (vectorsPerPart > 1)
        b.end();
    };
    auto ldNode = model.lookupNode(ldUnit);
    std::optional<std::pair<const Transfer *, Bytes>> unaligned;
    for (int64_t s = 0; s < (int64_t)tiles[j].size(); s += s == 0 && run >= 2 ? run : 1) {
      // A run of alike rows is one loop around a row's code (nothing the
      // units around the slots or the compute unit emit depends on the row).
      bool around = s == 0 && run >= 2;
      if (around)
        for (ktunit::ProgramBuilder *b : {&ld, &vec, &st})
          b->loopAround(run);
      // Load unit: each phase's parts, the arguments it reads.
      for (ArrayRef<bool> args : passes)
        if (failed(visitStreamParts({&ld}, 0, [&](int64_t c) {
              ld.acquire(inputs[j], Side::consumer);
              SmallVector<dc::Address> addresses;
              SmallVector<const Transfer *> moved;
              for (auto [i, in] : llvm::enumerate(computeInputs))
                if (!in.splat && args[i]) {
                  moved.push_back(&loads[in.loadIndex]);
                  addresses.push_back(partVector(loads[in.loadIndex], c, ld));
                }
              openPart(ld);
              for (auto [t, address] : llvm::zip(moved, addresses)) {
                if (auto memNode = model.lookupNode(t->memory); ldNode && memNode)
                  if (const arch::AccessRule *rule = model.node(*ldNode).accessTo(*memNode))
                    for (const dc::LoopTerm &term : address.terms)
                      if (!rule->allowsAddress(term.stride) && !unaligned)
                        unaligned = {t, rule->alignment};
                for (int64_t p = 0; p < piecesOf(*t); ++p) {
                  dc::Address piece = address;
                  piece.offset = piece.offset + vectorBytes * p;
                  ld.push(nearest(computeUnit), piece, vectorBytes);
                }
              }
              closePart(ld);
              ld.release(inputs[j], Side::consumer);
              return success();
            })))
          return failure();
      // Compute unit: the row phase by phase, as if it were resident.
      auto read = [&](const SpacePosition &, ArrayRef<bool> args) -> LogicalResult {
        for (auto [i, arg] : llvm::enumerate(body.getArguments()))
          if (!computeInputs[i].splat && args[i])
            gatherPieces(vec, reg[arg], loads[computeInputs[i].loadIndex],
                         piecesOf(loads[computeInputs[i].loadIndex]),
                         [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t) {
                           vec.recv(r, type, count, nearest(ldUnit));
                         });
        return success();
      };
      auto compute = [&](const llvm::DenseSet<Operation *> &only,
                         const llvm::DenseMap<Value, ktunit::Reg> &fixed, PhaseNest::SinkFn sink) {
        return emitBody(vec, reg, sink, &fixed, &only);
      };
      auto write = [&](unsigned i, ktunit::Reg r, const SpacePosition &) {
        scatterPieces(vec, r, stores[i],
                      [&](ktunit::Reg piece, int64_t) { vec.send(nearest(stUnit), piece); });
      };
      if (failed(phased->emitCompute(vec, tiles[j][s].extent, reg, read, compute, write)))
        return failure();
      // Store unit: the final phase's parts.
      if (failed(visitStreamParts({&st}, 0, [&](int64_t c) {
            st.acquire(outputs[j], Side::producer);
            SmallVector<dc::Address> addresses;
            for (const Transfer &t : stores)
              addresses.push_back(partVector(t, c, st));
            openPart(st);
            for (auto [t, address] : llvm::zip(stores, addresses))
              for (int64_t p = 0; p < piecesOf(t); ++p) {
                dc::Address piece = address;
                piece.offset = piece.offset + vectorBytes * p;
                st.pop(nearest(computeUnit), piece, vectorBytes);
              }
            closePart(st);
            st.release(outputs[j], Side::producer);
            return success();
          })))
        return failure();
      if (around)
        for (ktunit::ProgramBuilder *b : {&ld, &vec, &st})
          b->endLoopAround();
    }
    if (unaligned)
      return unaligned->first->tensor.emitError("a load unit push stepping ")
             << unaligned->second.count() << "-byte units is not aligned: not lowered";
  }
  return success();
}

void GroupLowering::copyBetweenLevels(ktunit::ProgramBuilder &b, dc::Address dst,
                                      dc::Address src, Bytes bytes) {
  Bytes chunk = bytes;
  if (auto tileDmaNode = model.lookupNode(tileDmaUnit))
    for (const arch::AccessRule &rule : model.node(*tileDmaNode).access)
      if (rule.maxSize.count() > 0)
        chunk = std::min(chunk, rule.maxSize);
  for (Bytes done(0); done < bytes; done = done + chunk) {
    dc::Address d = dst, s = src;
    d.offset = d.offset + done;
    s.offset = s.offset + done;
    b.copy(d, s, std::min(chunk, bytes - done), {});
  }
}

/// Two scratchpad levels, per core c and part: the outer DMA fills outer
/// input slots and drains outer output slots (one program for every core),
/// the tile DMA copies each part between the levels, the compute unit
/// takes a part's inner slots around its vectors (as emitTwoLevel, a part
/// for a tile).
LogicalResult GroupLowering::emitStreamedTwoLevel() {
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  recordUnboundLaunchValues();
  const std::vector<Tile> &list = tiles.front();
  int64_t n = list.size();
  auto minDepth = [](ArrayRef<Transfer> ts) {
    int64_t d = std::numeric_limits<int64_t>::max();
    for (const Transfer &t : ts)
      d = std::min(d, t.depth);
    return ts.empty() ? int64_t(1) : d;
  };
  int64_t outerIn = minDepth(loads), outerOut = minDepth(stores),
          innerIn = minDepth(innerLoads), innerOut = minDepth(innerStores);
  FailureOr<int64_t> leadOr = leadOfLoads(std::min(outerIn, innerIn));
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  auto computeInstance = [&](int64_t c) { return ldInstances[c].front(); };
  auto outerSlot = [&](const Transfer &t, int64_t c, int64_t k) {
    return slotAddress(t, computeInstance(c) % std::max<int64_t>(1, cores * subcores), k);
  };
  auto innerSlot = [&](const Transfer &t, int64_t k) { return slotAddress(t, 0, k); };
  auto tileDmaOf = [&](int64_t c) {
    return dc::ProgramBuilder::node(tileDmaUnit,
                                    {dc::InstanceSelector::Kind::Absolute, coreOf(c)});
  };
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  using ktunit::Side;
  std::map<int64_t, ktunit::ChannelOp> outerInputs, innerInputs, innerOutputs, outerOutputs;
  for (int64_t c : coreIds) {
    std::string core = std::to_string(c);
    outerInputs[c] = makeChannel("outer_in" + core, outerIn, "dma", "tdma" + core,
                                 tileDmaOf(c), nearest(dmaUnit));
    innerInputs[c] = makeChannel("inner_in" + core, innerIn, "tdma" + core, "vec" + core,
                                 nearest(computeUnit), nearest(tileDmaUnit));
    innerOutputs[c] = makeChannel("inner_out" + core, innerOut, "vec" + core, "tdma" + core,
                                  nearest(tileDmaUnit), nearest(computeUnit));
    outerOutputs[c] = makeChannel("outer_out" + core, outerOut, "tdma" + core, "dma",
                                  nearest(dmaUnit), tileDmaOf(c));
  }
  // Whether a phase reading `args` reads load i.
  auto readsLoad = [&](ArrayRef<bool> args, size_t i) {
    return llvm::any_of(llvm::enumerate(computeInputs), [&](auto in) {
      return in.value().loadIndex == (int)i && args[in.index()];
    });
  };

  // --- Outer DMA: one program serving every core. ------------------------
  std::unique_ptr<ktunit::ProgramBuilder> dmaProgram =
      makeProgram("dma", dmaUnit, std::vector<int64_t>{0});
  ktunit::ProgramBuilder &dma = *dmaProgram;
  std::map<int64_t, SmallVector<int64_t>> loadOffsets, storeOffsets;
  for (int64_t c : coreIds) {
    for (const Transfer &t : loads) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      loadOffsets[c].push_back(*offset);
    }
    for (const Transfer &t : stores) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      storeOffsets[c].push_back(*offset);
    }
  }
  auto outerCopies = [&](int64_t s, int64_t part, bool isLoad, ArrayRef<bool> args) {
    Tile at = streamPart(list[s], part), nextPart = streamPart(list[s], part + partPeriod);
    Tile nextTile = streamPart(list[std::min<int64_t>(s + 1, n - 1)], part);
    for (int64_t c : coreIds) {
      partLater = partPeriod ? &nextPart : nullptr;
      periodLater = rolledTiles ? &nextTile : nullptr;
      ktunit::ChannelOp channel = isLoad ? outerInputs[c] : outerOutputs[c];
      dma.acquire(channel, isLoad ? Side::producer : Side::consumer);
      if (isLoad) {
        for (size_t i = 0; i < loads.size(); ++i)
          if (readsLoad(args, i))
            copyTile(dma, loads[i], loadSymbols[i], std::nullopt, Bytes(loadOffsets[c][i]), at,
                     outerSlot(loads[i], c, part), true);
      } else {
        for (auto [i, t] : llvm::enumerate(stores))
          copyTile(dma, t, storeSymbols[i], std::nullopt, Bytes(storeOffsets[c][i]), at,
                   outerSlot(t, c, part), false);
      }
      dma.release(channel, isLoad ? Side::producer : Side::consumer);
      periodLater = partLater = nullptr;
    }
  };
  // Alike rows: one loop around a row's code on every program.
  int64_t run = streamedTileRun();
  auto rows = [&](ArrayRef<ktunit::ProgramBuilder *> programs,
                  llvm::function_ref<LogicalResult(int64_t)> emitRow) -> LogicalResult {
    for (int64_t s = 0; s < n;) {
      rolledTiles = s == 0 && run >= 2;
      if (rolledTiles)
        for (ktunit::ProgramBuilder *b : programs)
          b->loopAround(run);
      if (failed(emitRow(s)))
        return failure();
      if (rolledTiles)
        for (ktunit::ProgramBuilder *b : programs)
          b->endLoopAround();
      s += rolledTiles ? run : 1;
    }
    rolledTiles = false;
    return success();
  };
  if (failed(rows({&dma}, [&](int64_t s) {
        return emitStreamSteps(
            {&dma}, lag, [&](int64_t c, ArrayRef<bool> args) { outerCopies(s, c, true, args); },
            [&](int64_t m) { outerCopies(s, m, false, {}); });
      })))
    return failure();

  // --- Tile DMA and compute unit: one program each per core. -------------
  Block &body = computeStage->getRegion(0).front();
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
  for (int64_t c : coreIds) {
    std::string core = std::to_string(c);
    std::unique_ptr<ktunit::ProgramBuilder> tdmaProgram =
        makeProgram("tdma" + core, tileDmaUnit, std::vector<int64_t>{coreOf(c)});
    ktunit::ProgramBuilder &tdma = *tdmaProgram;
    auto copyIn = [&](int64_t part, ArrayRef<bool> args) {
      tdma.acquire(outerInputs[c], Side::consumer);
      tdma.acquire(innerInputs[c], Side::producer);
      for (auto [i, t] : llvm::enumerate(loads))
        if (readsLoad(args, i))
          copyBetweenLevels(tdma, innerSlot(innerLoads[i], part), outerSlot(t, c, part),
                            std::min(t.bytes, innerLoads[i].bytes));
      tdma.release(outerInputs[c], Side::consumer);
      tdma.release(innerInputs[c], Side::producer);
    };
    auto copyOut = [&](int64_t part) {
      tdma.acquire(innerOutputs[c], Side::consumer);
      tdma.acquire(outerOutputs[c], Side::producer);
      for (auto [i, t] : llvm::enumerate(stores))
        copyBetweenLevels(tdma, outerSlot(t, c, part), innerSlot(innerStores[i], part),
                          std::min(t.bytes, innerStores[i].bytes));
      tdma.release(innerOutputs[c], Side::consumer);
      tdma.release(outerOutputs[c], Side::producer);
    };
    if (failed(rows({&tdma}, [&](int64_t) { return emitStreamSteps({&tdma}, lag, copyIn, copyOut); })))
      return failure();

    std::unique_ptr<ktunit::ProgramBuilder> vecProgram =
        makeProgram("vec" + core, computeUnit, std::vector<int64_t>{computeInstance(c)});
    ktunit::ProgramBuilder &vec = *vecProgram;
    llvm::DenseMap<Value, ktunit::Reg> reg;
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      reg[arg] = vec.newReg();
      if (computeInputs[i].splat)
        vec.vconst(reg[arg], registerType(arg.getType()).value_or(elemType),
                   Elements(vectorWidth), *computeInputs[i].splat);
    }
    allocatePieceRegisters(vec);
    if (failed(phased->allocate(vec, reg)))
      return failure();
    std::optional<std::string> vectorProblem;
    auto checkAligned = [&](const Transfer &t, const dc::Address &address) {
      auto unit = model.lookupNode(computeUnit);
      auto memory = model.lookupNode(t.memory);
      if (!vectorProblem && unit && memory)
        if (const arch::AccessRule *rule = model.node(*unit).accessTo(*memory)) {
          bool aligned = rule->allowsAddress(address.offset);
          for (const dc::LoopTerm &term : address.terms)
            aligned &= rule->allowsAddress(term.stride);
          if (!aligned)
            vectorProblem = "a vector of " + t.memory + " that is not aligned to " +
                            std::to_string(rule->alignment.count()) + " bytes";
        }
    };
    // The part whose inner slots the compute unit holds.
    int64_t current = 0;
    unsigned finalPhase = phased->phaseCount() - 1;
    PhaseNest::Parts partsOfRow;
    partsOfRow.vectorsPerPart = *streamColumns / vectorWidth;
    partsOfRow.count = streamParts;
    partsOfRow.begin = [&](unsigned phase, int64_t part) {
      current = part;
      vec.acquire(innerInputs[c], Side::consumer);
      if (phase == finalPhase)
        vec.acquire(innerOutputs[c], Side::producer);
    };
    partsOfRow.end = [&](unsigned phase, int64_t) {
      vec.release(innerInputs[c], Side::consumer);
      if (phase == finalPhase)
        vec.release(innerOutputs[c], Side::producer);
    };
    phased->setParts(partsOfRow);
    llvm::scope_exit resetParts([&] { phased->setParts(std::nullopt); });
    auto read = [&](const SpacePosition &pos, ArrayRef<bool> args) -> LogicalResult {
      for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
        if (computeInputs[i].splat || !args[i])
          continue;
        const Transfer &t = innerLoads[computeInputs[i].loadIndex];
        bool broadcast;
        dc::Address address = positionAddress(t, innerSlot(t, current), pos, broadcast);
        gatherPieces(vec, reg[arg], t, piecesOf(t),
                     [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t p) {
                       dc::Address piece = address;
                       piece.offset = piece.offset + vectorBytes * p;
                       checkAligned(t, piece);
                       vec.vload(r, type, count, piece);
                     });
      }
      return success();
    };
    auto compute = [&](const llvm::DenseSet<Operation *> &only,
                       const llvm::DenseMap<Value, ktunit::Reg> &fixed, PhaseNest::SinkFn sink) {
      return emitBody(vec, reg, sink, &fixed, &only);
    };
    auto write = [&](unsigned i, ktunit::Reg r, const SpacePosition &pos) {
      const Transfer &t = innerStores[i];
      bool broadcast;
      dc::Address address = positionAddress(t, innerSlot(t, current), pos, broadcast);
      scatterPieces(vec, r, t, [&](ktunit::Reg piece, int64_t p) {
        dc::Address at = address;
        at.offset = at.offset + vectorBytes * p;
        checkAligned(t, at);
        vec.vstore(at, piece);
      });
    };
    if (failed(rows({&vec}, [&](int64_t s) {
          return phased->emitCompute(vec, list[s].extent, reg, read, compute, write);
        })))
      return failure();
    if (vectorProblem)
      return computeStage->emitError(*vectorProblem)
             << ": unaligned vector accesses are not lowered";
  }
  if (dmaProblem) {
    InFlightDiagnostic diag = dmaProblem->first->emitError(dmaProblem->second)
                              << ": unaligned transfers are not lowered";
    if (!dmaProblemRule.empty())
      diag.attachNote() << dmaProblemRule;
    return diag;
  }
  return success();
}
