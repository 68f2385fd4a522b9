//===- EmitOneLevel.cpp - one scratchpad level: DMA, load, compute, store ---===//
//
// Strategy. global --dma--> scratchpad --load unit--> FIFO --> compute -->
// FIFO --store unit--> scratchpad --dma--> global: one DMA program over
// every core (a table row per core: global offsets, peer instances), and
// per sub-core instance j a load, a compute and a store program. Each
// buffer hand-off is a channel of the buffer's depth: `in j` (DMA fills,
// load unit drains) and `out j` (store unit fills, DMA drains); the DMA
// runs its loads `lead` tiles ahead of its stores (the schedule's
// decision). Sync insertion turns the channels into semaphores.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::addDmaTableRows(ktunit::ProgramBuilder &dma) {
  for (int64_t c : coreIds) {
    std::vector<int64_t> row;
    for (const Transfer &t : llvm::concat<const Transfer>(loads, stores)) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      row.push_back(*offset);
    }
    for (int64_t j = 0; j < int64_t(tiles.size()); ++j)
      row.push_back(ldInstances[c][j]);
    for (int64_t j = 0; j < int64_t(tiles.size()); ++j)
      row.push_back(stInstances[c][j]);
    dma.addTableRow(row);
  }
  return success();
}

LogicalResult GroupLowering::emit(unsigned groupIndex) {
  // Checked here, not in collect(): a lowering of every core only probes
  // for classes of cores (coreClasses()) when some grid tiles are masked,
  // and only the cores lowered together must agree on where data ends.
  for (const std::vector<Tile> &list : tiles)
    for (const Tile &tile : list) {
      if (hasDenseStores() && failed(checkDenseStores(tile)))
        return failure();
      if (hasPartialVector(tile) && failed(checkPartialVector(tile)))
        return failure();
    }
  if (streamColumns)
    return emitStreamed();
  if (twoLevel)
    return emitTwoLevel();
  if (failed(markHoistedLoads()))
    return failure();
  // Symbols: one per kernel argument a transfer touches.
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  int64_t nsub = tiles.size();
  (void)groupIndex;
  recordUnboundLaunchValues();

  // --- DMA: one program over every core, one table row per core. ---------
  // Columns: a byte offset per transfer (load then store), then the load
  // and store unit instance of every sub-core.
  uint32_t nTransfers = loads.size() + stores.size();
  uint32_t columns = nTransfers + 2 * nsub;
  std::vector<int64_t> dmaInstances;
  for (int64_t c : coreIds)
    dmaInstances.push_back(coreOf(c));
  std::unique_ptr<ktunit::ProgramBuilder> dmaProgram =
      makeProgram("dma", dmaUnit, dmaInstances, columns);
  ktunit::ProgramBuilder &dma = *dmaProgram;
  // Further columns: the per-core starts of over-fetched loads.
  InstanceTable overFetchStarts(coreIds.size(), columns);
  if (failed(addDmaTableRows(dma)))
    return failure();
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  auto ldPeer = [&](int64_t j) {
    return dc::ProgramBuilder::node(
        ldUnit, {dc::InstanceSelector::Kind::TableColumn, int64_t(nTransfers + j)});
  };
  auto stPeer = [&](int64_t j) {
    return dc::ProgramBuilder::node(
        stUnit, {dc::InstanceSelector::Kind::TableColumn, int64_t(nTransfers + nsub + j)});
  };
  // The rotating depth of the inputs: that of the loads moved per tile
  // (a hoisted load stays in its slot; of all loads if every one is).
  bool anyPerTile = llvm::any_of(loads, [](const Transfer &t) { return !t.hoisted; });
  int64_t inDepth = 1, outDepth = 1;
  for (const Transfer &t : loads)
    if (!t.hoisted || !anyPerTile)
      inDepth = std::max(inDepth, t.depth);
  for (const Transfer &t : stores)
    outDepth = std::max(outDepth, t.depth);
  for (const Transfer &t : loads)
    if (!t.hoisted || !anyPerTile)
      inDepth = std::min(inDepth, t.depth);
  for (const Transfer &t : stores)
    outDepth = std::min(outDepth, t.depth);
  FailureOr<int64_t> leadOr = leadOfLoads(inDepth);
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  // Per sub-core instance j: the input slots the DMA fills and the load
  // unit drains, and the output slots the store unit fills and the DMA
  // drains.
  SmallVector<ktunit::ChannelOp> inputs, outputs;
  for (int64_t j = 0; j < nsub; ++j) {
    std::string sub = std::to_string(j);
    inputs.push_back(makeChannel("in" + sub, inDepth, "dma", "ld" + sub, ldPeer(j),
                                 nearest(dmaUnit)));
    outputs.push_back(makeChannel("out" + sub, outDepth, "st" + sub, "dma", nearest(dmaUnit),
                                  stPeer(j)));
  }
  using ktunit::Side;
  int64_t maxTiles = 0;
  for (auto &list : tiles)
    maxTiles = std::max<int64_t>(maxTiles, list.size());
  // Step s loads tile s and stores tile s - lag of every sub-core.
  auto emitStep = [&](int64_t s) -> LogicalResult {
    for (int64_t j = 0; j < nsub; ++j) {
      if (s >= (int64_t)tiles[j].size())
        continue;
      bool guarded = openTileGuard(dma, overFetchStarts, j, s, coreIds);
      dma.acquire(inputs[j], Side::producer);
      // A hoisted load is copied with the instance's first tile only: the
      // first tile's "full" signal covers it, and no later copy reuses its
      // slot.
      periodLater = rollingPeriod ? &tiles[j][s + rollingPeriod] : nullptr;
      for (auto [i, t] : llvm::enumerate(loads))
        if (!t.hoisted || s == 0)
          copyTile(dma, t, loadSymbols[i], i, Bytes(0), tiles[j][s], slotAddress(t, j, s), true,
                   &overFetchStarts);
      dma.release(inputs[j], Side::producer);
      closeTileGuard(dma, guarded);
    }
    for (int64_t j = 0; j < nsub; ++j) {
      int64_t m = s - lag;
      if (m < 0 || m >= (int64_t)tiles[j].size())
        continue;
      bool guarded = openTileGuard(dma, overFetchStarts, j, m, coreIds);
      dma.acquire(outputs[j], Side::consumer);
      periodLater = rollingPeriod ? &tiles[j][m + rollingPeriod] : nullptr;
      for (auto [i, t] : llvm::enumerate(stores))
        copyTile(dma, t, storeSymbols[i], loads.size() + i, Bytes(0), tiles[j][m],
                 slotAddress(t, j, m), false, &overFetchStarts);
      dma.release(outputs[j], Side::consumer);
      closeTileGuard(dma, guarded);
    }
    return success();
  };
  if (failed(visitTiles({&dma}, maxTiles + lag, stepRoll(lag), emitStep)))
    return failure();
  overFetchStarts.install(dma);
  if (dmaProblem) {
    InFlightDiagnostic diag = dmaProblem->first->emitError(dmaProblem->second)
                              << ": unaligned transfers are not lowered";
    if (!dmaProblemRule.empty())
      diag.attachNote() << dmaProblemRule;
    return diag;
  }
  // The drain of the frees the load units still owe is ktunit-insert-sync's.

  // --- Load, compute and store units: one program per sub-core index. ---
  // The vector loop nest of a tile: outer dims of the space, then the
  // vectors of the last dim. Returns the loop depth of each space dim.
  auto openLoops = [&](ktunit::ProgramBuilder &b, const Tile &tile) {
    for (size_t d = 0; d + 1 < space.size(); ++d)
      b.loop(tile.extent[d]);
    b.loop(vectorsPerRow(tile));
  };
  auto closeLoops = [&](ktunit::ProgramBuilder &b) {
    for (size_t d = 0; d < space.size(); ++d)
      b.end();
  };
  // The address of the current vector of transfer t in slot (j, k).
  auto vectorAddress = [&](const Transfer &t, int64_t j, int64_t k, bool &broadcast) {
    return vectorInSlot(t, slotAddress(t, j, k), broadcast);
  };
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);

  // Column operands (see isColumnLoad): their rows go in segments of blocks.
  const int64_t rowDim = (int64_t)space.size() - 2;
    SmallVector<size_t> columnLoads = columnLoadIndices();
  auto openSegment = [&](ktunit::ProgramBuilder &b, const Tile &tile, const RowSegment &seg) {
    for (int64_t d = 0; d < rowDim; ++d)
      b.loop(tile.extent[d]);
    b.loop(seg.blocks);
  };
  auto closeSegment = [&](ktunit::ProgramBuilder &b) {
    for (int64_t d = 0; d < rowDim + 3; ++d)
      b.end();
  };
  // Where column load c's values of a tile start in its slot, per core (in
  // coreIds order, the order of the programs' instances), and whether a
  // block of `rows` rows needs the vector after the one it starts in on
  // any core.
  auto phasesOf = [&](size_t c, const Tile &tile) {
    SmallVector<ColumnPhase> phases;
    for (int64_t core : coreIds)
      phases.push_back(columnPhase(loads[c], core, tile));
    return phases;
  };
  auto needsNextVector = [&](ArrayRef<ColumnPhase> phases, int64_t rows) {
    return llvm::any_of(phases, [&](const ColumnPhase &p) {
      return spansTwoVectors(p.lane, rows);
    });
  };

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

    // Registers: virtual, one per input and per vop.
    llvm::DenseMap<Value, ktunit::Reg> reg;
    auto newReg = [&](Location) -> FailureOr<ktunit::Reg> { return vec.newReg(); };
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      auto r = newReg(computeStage->getLoc());
      if (failed(r))
        return failure();
      reg[arg] = *r;
      if (computeInputs[i].splat)
        vec.vconst(*r, registerType(arg.getType()).value_or(elemType), Elements(vectorWidth),
                   *computeInputs[i].splat);
    }
    allocatePieceRegisters(vec);
    if (reduction && failed(reduction->allocate(vec, computeStage->getLoc())))
      return failure();
    if (phased && (!columnLoads.empty() || failed(phased->allocate(vec, reg))))
      return columnLoads.empty() ? failure()
                                 : computeStage->emitError("a column operand in a group of "
                                                           "phases is not lowered");
    // Column operands (one value per row, e.g. a broadcast column): one
    // value per row is no load-unit access, so the rows go in blocks of a
    // vector: the load unit pushes the block's column vector once, and the
    // compute unit holds it, broadcasting lane 0 for each row and sliding
    // the next row's value into lane 0.
    SmallVector<ktunit::Reg> heldColumn(loads.size(), 0);
    for (size_t c : columnLoads) {
      auto r = newReg(computeStage->getLoc());
      if (failed(r))
        return failure();
      heldColumn[c] = *r;
    }
    // A column slice that starts inside a vector (an over-fetched load, on
    // some core) is read from the vector it starts in, and from the next
    // one where a block crosses into it: `ext` moves the block's values
    // down to lane 0 (the lane per core from the table), into a register
    // held as before. `nextColumn` receives the second vector.
    std::optional<ktunit::Reg> nextColumn;
    for (size_t c : columnLoads)
      for (const Tile &tile : tiles[j])
        for (const RowSegment &seg : rowSegments(tile))
          if (!nextColumn && needsNextVector(phasesOf(c, tile), seg.rows)) {
            auto r = newReg(computeStage->getLoc());
            if (failed(r))
              return failure();
            nextColumn = *r;
          }
    // Dense rows (RowRealign.cpp): the current and next aligned vector of
    // each dense load, held while its rows are realigned.
    SmallVector<std::pair<ktunit::Reg, ktunit::Reg>> denseHeld(loads.size());
    for (auto [i, t] : llvm::enumerate(loads))
      if (t.denseRows)
        denseHeld[i] = {vec.newReg(), vec.newReg()};
    // Dense stores (DenseStores.cpp): each store's pending lanes, and the
    // packed vector being sent.
    SmallVector<ktunit::Reg> densePending;
    ktunit::Reg densePacked = 0;
    if (hasDenseStores()) {
      for (size_t i = 0; i < stores.size(); ++i)
        densePending.push_back(vec.newReg());
      densePacked = vec.newReg();
    }
    InstanceTable ldTable(coreIds.size()), vecTable(coreIds.size()), stTable(coreIds.size());
    // The carried values through a scratchpad slot (PhaseScratch.cpp).
    if (auto form = llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(group, ks::kPhaseValues));
        phased && form && form.getValue() == ks::kPhaseValuesInScratchpad) {
      FailureOr<PhaseNest::Spill> spill = phaseScratch(j, ld, vec, st, ldTable, stTable);
      if (failed(spill))
        return failure();
      phased->setSpill(std::move(*spill));
    }

    auto emitTileBody = [&](int64_t k) -> LogicalResult {
      const Tile &tile = tiles[j][k];
      std::optional<DenseRowTile> dense;
      if (hasDenseLoads()) {
        FailureOr<DenseRowTile> realign = denseRowTile(tile);
        if (failed(realign))
          return failure();
        dense = *realign;
      }
      // Load unit: wait for the tile, stream its vectors, free the slots.
      ld.acquire(inputs[j], Side::consumer);
      // A column operand steps one element per row: each push must still
      // start where the load unit's access rule allows.
      std::optional<std::pair<const Transfer *, Bytes>> unalignedPush;
      // A step of a wider type than the narrowest is several accesses; a
      // broadcast element is one, whatever its type.
      auto push = [&](const Transfer &t, const dc::Address &address,
                      std::optional<int64_t> pieces = std::nullopt) {
        auto ldNode = model.lookupNode(ldUnit), memNode = model.lookupNode(t.memory);
        if (ldNode && memNode)
          if (const arch::AccessRule *rule = model.node(*ldNode).accessTo(*memNode))
            for (const dc::LoopTerm &term : address.terms)
              if (!rule->allowsAddress(term.stride) && !unalignedPush)
                unalignedPush = {&t, rule->alignment};
        int64_t n = pieces.value_or(lacksVectorDim(t) ? 1 : piecesOf(t));
        for (int64_t p = 0; p < n; ++p) {
          dc::Address piece = address;
          piece.offset = piece.offset + vectorBytes * p;
          ld.push(nearest(computeUnit), piece, vectorBytes);
        }
      };
      // A block of `rows` column values of each column operand, from the
      // block's place `blockAddress(t)` in its slot: the whole vector (in
      // its pieces) the block starts in, and (where a core's block crosses
      // into it) the next; other cores read their first vector again
      // rather than past their data.
      auto pushHeldColumns = [&](llvm::function_ref<dc::Address(const Transfer &)> blockAddress,
                                 int64_t rows) {
        for (size_t c : columnLoads) {
          const Transfer &t = loads[c];
          SmallVector<ColumnPhase> phases = phasesOf(c, tile);
          std::vector<int64_t> first, next;
          for (const ColumnPhase &p : phases) {
            first.push_back(p.vectorOffset.count());
            next.push_back((p.vectorOffset + (spansTwoVectors(p.lane, rows)
                                                  ? toBytes(Elements(vectorWidth), t.esize)
                                                  : Bytes(0)))
                               .count());
          }
          dc::Address address = blockAddress(t);
          ldTable.addTo(address, first);
          push(t, address, piecesOf(t));
          if (needsNextVector(phases, rows)) {
            dc::Address second = blockAddress(t);
            ldTable.addTo(second, next);
            push(t, second, piecesOf(t));
          }
        }
      };
      // Every block of rows a tile's column operands are read in must lie
      // inside their slots, on every core.
      for (size_t c : columnLoads)
        for (const RowSegment &seg : rowSegments(tile))
          for (const ColumnPhase &p : phasesOf(c, tile))
            if (failed(checkColumnReadFits(loads[c], p, spansTwoVectors(p.lane, seg.rows), seg)))
              return failure();
      // Column operands of a row fold, pushed a block of rows at a time
      // (the dense and the padded row folds alike; HeldRows refers to it).
      auto pushColumnBlock = [&](const SpacePosition &pos, int64_t rows) -> LogicalResult {
        pushHeldColumns(
            [&](const Transfer &t) {
              bool broadcast;
              return positionAddress(t, slotAddress(t, j, k), pos, broadcast);
            },
            rows);
        return success();
      };
      if (hasDenseStores()) {
        // Column operands a block of rows at a time, as beside any rows.
        ReductionNest::HeldRows held;
        held.block = pushColumnBlock;
        if (failed(pushDenseSteps(ld, dense ? &*dense : nullptr, tile, j, k,
                                  [&](const Transfer &t, const SpacePosition &pos) {
                                    bool broadcast;
                                    push(t, positionAddress(t, slotAddress(t, j, k), pos,
                                                            broadcast));
                                  },
                                  columnLoads.empty() ? nullptr : &held)))
          return failure();
      } else if (phased) {
        // Every phase drains the resident slot again (one acquire).
        phased->emitInputOrder(ld, tile.extent, [&](const SpacePosition &pos, ArrayRef<bool> args) {
          for (auto [i, in] : llvm::enumerate(computeInputs))
            if (!in.splat && args[i]) {
              bool broadcast;
              const Transfer &t = loads[in.loadIndex];
              push(t, positionAddress(t, slotAddress(t, j, k), pos, broadcast));
            }
        });
      } else if (dense) {
        ReductionNest::HeldRows held;
        held.block = pushColumnBlock;
        if (failed(pushDenseRows(
                ld, *dense, j, k,
                [&](const Transfer &t, const SpacePosition &pos) {
                  bool broadcast;
                  push(t, positionAddress(t, slotAddress(t, j, k), pos, broadcast));
                },
                columnLoads.empty() ? nullptr : &held)))
          return failure();
      } else if (reduction) {
        ReductionNest::HeldRows held;
        held.block = pushColumnBlock;
        if (failed(reduction->emitInputOrder(
                ld, tile.extent,
                [&](const SpacePosition &pos) {
                  for (auto [i, t] : llvm::enumerate(loads)) {
                    if (llvm::is_contained(columnLoads, i))
                      continue;
                    bool broadcast;
                    push(t, positionAddress(t, slotAddress(t, j, k), pos, broadcast));
                  }
                },
                columnLoads.empty() ? nullptr : &held)))
          return failure();
      } else if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          openSegment(ld, tile, seg);
          pushHeldColumns(
              [&](const Transfer &t) { return segmentAddress(t, slotAddress(t, j, k), seg); },
              seg.rows);
          ld.loop(seg.rows);
          ld.loop(vectorsPerRow(tile));
          for (auto [i, t] : llvm::enumerate(loads))
            if (!llvm::is_contained(columnLoads, i))
              push(t, segmentAddress(t, slotAddress(t, j, k), seg));
          closeSegment(ld);
        }
      } else {
        openLoops(ld, tile);
        for (const Transfer &t : loads) {
          bool broadcast;
          push(t, vectorAddress(t, j, k, broadcast));
        }
        closeLoops(ld);
      }
      if (unalignedPush)
        return unalignedPush->first->tensor.emitError("a load unit push stepping ")
               << bufferPitch(*unalignedPush->first).back() << " bytes per row is not aligned to "
               << unalignedPush->second.count()
               << " bytes (a column broadcast of one element per row): "
               << "unaligned vector accesses are not lowered";
      ld.release(inputs[j], Side::consumer);

      // Compute unit: the loaded inputs of one vector step arrive in load
      // order; an input without the vector dimension is broadcast.
      auto receive = [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t) {
        vec.recv(r, type, count, nearest(ldUnit));
      };
      // Each result leaves in its buffer's pieces.
      auto sendResult = [&](unsigned i, ktunit::Reg r) {
        scatterPieces(vec, r, stores[i], [&](ktunit::Reg piece, int64_t) {
          vec.send(nearest(stUnit), piece);
        });
      };
      auto receiveInput = [&](unsigned i, BlockArgument arg) {
        const ComputeInput &in = computeInputs[i];
        if (in.splat || llvm::is_contained(columnLoads, size_t(in.loadIndex)))
          return;
        const Transfer &t = loads[in.loadIndex];
        bool broadcast = lacksVectorDim(t);
        gatherPieces(vec, reg[arg], t, broadcast ? 1 : piecesOf(t), receive);
        if (broadcast)
          vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
      };
      auto receiveInputs = [&]() {
        for (auto [i, arg] : llvm::enumerate(body.getArguments()))
          receiveInput(i, arg);
      };
      // A block of `rows` column values of each column operand, held: the
      // vector they start in (and the next), `ext` moving them down to
      // lane 0 (the lane per core from the table).
      auto receiveHeldColumns = [&](int64_t rows) {
        for (size_t c : columnLoads) {
          const Transfer &t = loads[c];
          gatherPieces(vec, heldColumn[c], t, piecesOf(t), receive);
          SmallVector<ColumnPhase> phases = phasesOf(c, tile);
          bool next = needsNextVector(phases, rows);
          if (next)
            gatherPieces(vec, *nextColumn, t, piecesOf(t), receive);
          if (llvm::all_of(phases, [](const ColumnPhase &p) { return p.lane == 0; }))
            continue;
          std::vector<int64_t> lanes;
          for (const ColumnPhase &p : phases)
            lanes.push_back(p.lane);
          std::optional<uint32_t> column = vecTable.columnFor(lanes);
          vec.ext(heldColumn[c], heldColumn[c], next ? *nextColumn : heldColumn[c],
                  lanes.front(), column);
        }
      };
      // Column operands, for dense stores and reductions alike: a block's
      // values received at its start, one broadcast per row.
      auto heldBlock = [&](const SpacePosition &, int64_t rows) -> LogicalResult {
        receiveHeldColumns(rows);
        return success();
      };
      auto heldRow = [&]() { broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn); };
      ReductionNest::HeldRows held{heldBlock, heldRow};
      if (hasDenseStores()) {
        // Each step's results packed after the rows before them.
        if (dense)
          primeDenseRows(vec, *dense, denseHeld);
        LogicalResult emitted = success();
        LogicalResult walked = walkDenseSteps(vec, tile, denseStorePeriod(tile),
                       [&](const SpacePosition &pos, int64_t phase, int64_t lanes) {
                         if (dense)
                           readDenseRows(vec, *dense, pos, reg, denseHeld, receiveInput);
                         else
                           receiveInputs();
                         if (failed(emitBody(vec, reg, [&](unsigned i, ktunit::Reg r) {
                               scatterPieces(vec, r, stores[i], [&](ktunit::Reg piece, int64_t) {
                                 packDenseStep(vec, tile, piece, densePending[i], densePacked,
                                               phase, lanes);
                               });
                             })))
                           emitted = failure();
                       }, columnLoads.empty() ? nullptr : &held);
        if (failed(walked) || failed(emitted))
          return failure();
        flushDenseStores(vec, tile, densePending, densePacked);
      } else if (phased) {
        auto read = [&](const SpacePosition &, ArrayRef<bool> args) -> LogicalResult {
          for (auto [i, arg] : llvm::enumerate(body.getArguments()))
            if (!computeInputs[i].splat && args[i])
              receiveInput(i, arg);
          return success();
        };
        auto compute = [&](const llvm::DenseSet<Operation *> &only,
                           const llvm::DenseMap<Value, ktunit::Reg> &fixed,
                           PhaseNest::SinkFn sink) {
          return emitBody(vec, reg, sink, &fixed, &only);
        };
        if (failed(phased->emitCompute(vec, tile.extent, reg, read, compute,
                                       [&](unsigned i, ktunit::Reg r, const SpacePosition &) {
                                         sendResult(i, r);
                                       })))
          return failure();
      } else if (reduction) {
        auto read = [&](const SpacePosition &pos) -> LogicalResult {
          if (dense)
            readDenseRows(vec, *dense, pos, reg, denseHeld, receiveInput);
          else
            receiveInputs();
          return success();
        };
        if (dense)
          primeDenseRows(vec, *dense, denseHeld);
        reduction->setRowPeriod(dense ? dense->period : 1);
        reduction->setDenseColumns(dense.has_value());
        llvm::scope_exit resetPeriod([&] {
          reduction->setRowPeriod(1);
          reduction->setDenseColumns(false);
        });
        auto compute = [&](const llvm::DenseMap<Value, ktunit::Reg> &fixed) {
          return emitBody(vec, reg, [](unsigned, ktunit::Reg) {}, &fixed);
        };
        if (failed(reduction->emitCompute(vec, tile.extent, reg, body, read, compute,
                                          [&](unsigned i, ktunit::Reg r, const SpacePosition &pos) {
                                            scatterPieces(
                                                vec, r, stores[i],
                                                [&](ktunit::Reg piece, int64_t) {
                                                  vec.send(nearest(stUnit), piece);
                                                },
                                                resultPieces(stores[i], pos, tile.extent));
                                          },
                                          columnLoads.empty() ? nullptr : &held)))
          return failure();
      } else if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          openSegment(vec, tile, seg);
          receiveHeldColumns(seg.rows);
          vec.loop(seg.rows);
          broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn);
          vec.loop(vectorsPerRow(tile));
          receiveInputs();
          if (failed(emitBody(vec, reg, sendResult)))
            return failure();
          closeSegment(vec);
        }
      } else {
      openLoops(vec, tile);
      receiveInputs();
      if (failed(emitBody(vec, reg, sendResult)))
        return failure();
      closeLoops(vec);
      }

      // Store unit: wait for free output slots, take the vectors, tell the
      // DMA the tile is complete.
      st.acquire(outputs[j], Side::producer);
      if (hasDenseStores()) {
        popDenseStores(st, tile, j, k);
        st.release(outputs[j], Side::producer);
        return success();
      }
      if (phased) {
        phased->emitOutputOrder(st, tile.extent, [&](const SpacePosition &pos) {
          for (const Transfer &t : stores) {
            bool broadcast;
            dc::Address address = positionAddress(t, slotAddress(t, j, k), pos, broadcast);
            for (int64_t p = 0; p < piecesOf(t); ++p) {
              dc::Address piece = address;
              piece.offset = piece.offset + vectorBytes * p;
              st.pop(nearest(computeUnit), piece, vectorBytes);
            }
          }
        });
        st.release(outputs[j], Side::producer);
        return success();
      }
      if (reduction) {
        reduction->emitOutputOrder(st, tile.extent, [&](const SpacePosition &pos) {
          for (const Transfer &t : stores) {
            bool broadcast;
            dc::Address address = positionAddress(t, slotAddress(t, j, k), pos, broadcast);
            for (int64_t p = 0; p < resultPieces(t, pos, tile.extent); ++p) {
              dc::Address piece = address;
              piece.offset = piece.offset + vectorBytes * p;
              st.pop(nearest(computeUnit), piece, vectorBytes);
            }
          }
        });
        st.release(outputs[j], Side::producer);
        return success();
      }
      openLoops(st, tile);
      for (const Transfer &t : stores) {
        bool broadcast;
        dc::Address address = vectorAddress(t, j, k, broadcast);
        if (broadcast)
          return outer->emitError("a stored tensor must span the vector dimension");
        for (int64_t p = 0; p < piecesOf(t); ++p) {
          dc::Address piece = address;
          piece.offset = piece.offset + vectorBytes * p;
          st.pop(nearest(computeUnit), piece, vectorBytes);
        }
      }
      closeLoops(st);
      st.release(outputs[j], Side::producer);
      return success();
    };
    // A tile some launch values do not run is guarded on all three units.
    auto emitTile = [&](int64_t k) -> LogicalResult {
      bool guarded = openTileGuard(ld, ldTable, j, k, coreIds);
      openTileGuard(vec, vecTable, j, k, coreIds);
      openTileGuard(st, stTable, j, k, coreIds);
      LogicalResult result = emitTileBody(k);
      for (ktunit::ProgramBuilder *p : {&ld, &vec, &st})
        closeTileGuard(*p, guarded);
      return result;
    };
    if (failed(visitTiles({&ld, &vec, &st}, tiles[j].size(), tileRoll(j), emitTile)))
      return failure();
    ldTable.install(ld);
    vecTable.install(vec);
    stTable.install(st);
  }
  return success();
}
