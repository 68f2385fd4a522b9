//===- EmitTwoLevel.cpp - two scratchpad levels -----------------------------===//
//
// Strategy. global --outer dma--> shared memory --tile dma--> memory the
// compute unit reads and writes directly. Per core c four channels:
// outer in (outer DMA -> tile DMA), inner in (tile DMA -> compute), inner
// out (compute -> tile DMA), outer out (tile DMA -> outer DMA); the outer
// DMA serves every core from one program, the tile DMA copies whole slots
// between the levels, the compute unit vloads and vstores its vectors. Both
// DMAs run their stores `lead` tiles behind their loads.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

/// Two scratchpad levels. Per core c and tile k (slots rotate per level):
///   outer DMA: global -> outer in-slot; signal tile DMA sem 0 ("in full");
///              wait sem 2c+1 ("out full"), outer out-slot -> global,
///              signal tile DMA sem 3 ("outer out free")
///   tile DMA:  wait 0, [wait 4: "inner in free"], outer -> inner in-slot,
///              signal outer DMA sem 2c ("outer in free"), compute sem 0;
///              wait 5 ("inner out full"), [wait 3], inner out -> outer out,
///              signal compute sem 1 ("inner out free"), outer DMA sem 2c+1
///   compute:   wait 0, [wait 1], vload / compute / vstore every vector,
///              signal tile DMA sems 4 and 5.
/// Both DMAs run their stores `lag` tiles behind their loads, one lag for
/// both levels so that no DMA waits on a step the other has not reached.
LogicalResult GroupLowering::emitTwoLevel() {
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  // Tables and semaphores are indexed by core number (coreIds ascend; a
  // lowering of a class of cores may skip some).
  int64_t nCores = coreIds.empty() ? 0 : coreIds.back() + 1;
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
  for (Transfer &t : llvm::concat<Transfer>(loads, innerLoads))
    if (auto hoist = llvm::dyn_cast_or_null<BoolAttr>(decisionValue(t.buffer.getOperation(), "hoist"));
        hoist && hoist.getValue())
      return t.buffer->emitError("hoisted loads are not lowered with two scratchpad levels");
  FailureOr<int64_t> leadOr = leadOfLoads(std::min(outerIn, innerIn));
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  auto computeInstance = [&](int64_t c) { return ldInstances[c].front(); };
  // The outer memory is shared: core c's copy of the layout is that of its
  // compute instance; the inner memory holds one layout per sub-core (0).
  auto outerSlot = [&](const Transfer &t, int64_t c, int64_t k) {
    return slotAddress(t, computeInstance(c) % std::max<int64_t>(1, cores * subcores), k);
  };
  auto innerSlot = [&](const Transfer &t, int64_t k) { return slotAddress(t, 0, k); };
  auto tileDmaOf = [&](int64_t c) {
    return dc::ProgramBuilder::node(tileDmaUnit,
                                    {dc::InstanceSelector::Kind::Absolute, coreOf(c)});
  };
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  // A whole-slot copy between the levels, cut to the DMA's largest access.
  auto copySlot = [&](ktunit::ProgramBuilder &b, dc::Address dst, dc::Address src, Bytes bytes) {
    copyBetweenLevels(b, dst, src, bytes);
  };

  // Per core c, four rings of slots: the outer input slots (outer DMA ->
  // tile DMA), the inner input slots (tile DMA -> compute unit), the inner
  // output slots (compute unit -> tile DMA) and the outer output slots
  // (tile DMA -> outer DMA).
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

  // --- Outer DMA: one program serving every core. ------------------------
  std::unique_ptr<ktunit::ProgramBuilder> dmaProgram =
      makeProgram("dma", dmaUnit, std::vector<int64_t>{0});
  ktunit::ProgramBuilder &dma = *dmaProgram;
  recordUnboundLaunchValues();
  // Launch-table entries guarding tiles some launch values do not run:
  // the program's one row takes each core's.
  InstanceTable dmaTable(1);
  auto guard = [&](ktunit::ProgramBuilder &b, InstanceTable &table, int64_t c, int64_t k) {
    return openTileGuard(b, table, 0, k, {c});
  };
  SmallVector<SmallVector<int64_t>> loadOffsets(nCores), storeOffsets(nCores);
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
  // Tiles alike but for where they start are rolled into loops (as on one
  // level); only the outer DMA's copies step with the tiles.
  auto emitOuterStep = [&](int64_t s) -> LogicalResult {
    for (int64_t c : coreIds) {
      if (s >= n)
        break;
      bool guarded = guard(dma, dmaTable, c, s);
      dma.acquire(outerInputs[c], Side::producer);
      periodLater = rollingPeriod ? &list[s + rollingPeriod] : nullptr;
      servedCore = c;
      for (auto [i, t] : llvm::enumerate(loads))
        copyTile(dma, t, loadSymbols[i], std::nullopt, Bytes(loadOffsets[c][i]), list[s],
                 outerSlot(t, c, s), true);
      servedCore = -1;
      dma.release(outerInputs[c], Side::producer);
      closeTileGuard(dma, guarded);
    }
    int64_t m = s - lag;
    if (m < 0 || m >= n)
      return success();
    for (int64_t c : coreIds) {
      bool guarded = guard(dma, dmaTable, c, m);
      dma.acquire(outerOutputs[c], Side::consumer);
      periodLater = rollingPeriod ? &list[m + rollingPeriod] : nullptr;
      servedCore = c;
      for (auto [i, t] : llvm::enumerate(stores))
        copyTile(dma, t, storeSymbols[i], std::nullopt, Bytes(storeOffsets[c][i]), list[m],
                 outerSlot(t, c, m), false);
      servedCore = -1;
      dma.release(outerOutputs[c], Side::consumer);
      closeTileGuard(dma, guarded);
    }
    return success();
  };
  if (failed(visitTiles({&dma}, n + lag, stepRoll(lag), emitOuterStep)))
    return failure();
  dmaTable.install(dma);

  // --- Tile DMA and compute unit: one program each per core. -------------
  Block &body = computeStage->getRegion(0).front();
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
  for (int64_t c : coreIds) {
    std::string core = std::to_string(c);
    std::unique_ptr<ktunit::ProgramBuilder> tdmaProgram =
        makeProgram("tdma" + core, tileDmaUnit, std::vector<int64_t>{coreOf(c)});
    ktunit::ProgramBuilder &tdma = *tdmaProgram;
    InstanceTable tdmaTable(1);
    auto emitTileStep = [&](int64_t s) -> LogicalResult {
      if (s < n) {
        bool guarded = guard(tdma, tdmaTable, c, s);
        tdma.acquire(outerInputs[c], Side::consumer);
        tdma.acquire(innerInputs[c], Side::producer);
        for (auto [i, t] : llvm::enumerate(loads))
          copySlot(tdma, innerSlot(innerLoads[i], s), outerSlot(t, c, s),
                   std::min(t.bytes, innerLoads[i].bytes));
        tdma.release(outerInputs[c], Side::consumer);
        tdma.release(innerInputs[c], Side::producer);
        closeTileGuard(tdma, guarded);
      }
      int64_t m = s - lag;
      if (m < 0 || m >= n)
        return success();
      bool guarded = guard(tdma, tdmaTable, c, m);
      tdma.acquire(innerOutputs[c], Side::consumer);
      tdma.acquire(outerOutputs[c], Side::producer);
      for (auto [i, t] : llvm::enumerate(stores))
        copySlot(tdma, outerSlot(t, c, m), innerSlot(innerStores[i], m),
                 std::min(t.bytes, innerStores[i].bytes));
      tdma.release(innerOutputs[c], Side::consumer);
      tdma.release(outerOutputs[c], Side::producer);
      closeTileGuard(tdma, guarded);
      return success();
    };
    if (failed(visitTiles({&tdma}, n + lag, stepRoll(lag), emitTileStep)))
      return failure();
    tdmaTable.install(tdma);

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
    if (reduction && failed(reduction->allocate(vec, computeStage->getLoc())))
      return failure();
    if (phased && failed(phased->allocate(vec, reg)))
      return failure();
    // Column operands: as on one level (emit), the rows go in blocks; the
    // block's column vector is vloaded once, from the vector its values
    // start in (and the next one, where the block crosses into it), moved
    // down to lane 0 with `ext`, held, broadcast per row and slid. This
    // program serves one core, so its lane is a constant.
    const int64_t rowDim = (int64_t)space.size() - 2;
    SmallVector<size_t> columnLoads = columnLoadIndices();
    SmallVector<ktunit::Reg> heldColumn(loads.size(), 0);
    std::optional<ktunit::Reg> nextColumn;
    for (size_t i : columnLoads) {
      heldColumn[i] = vec.newReg();
      for (const Tile &tile : list)
        for (const RowSegment &seg : rowSegments(tile))
          if (!nextColumn && spansTwoVectors(columnPhase(loads[i], c, tile).lane, seg.rows))
            nextColumn = vec.newReg();
    }
    // Dense rows (RowRealign.cpp): the two aligned vectors of each dense
    // load a read spans.
    SmallVector<std::pair<ktunit::Reg, ktunit::Reg>> denseHeld(loads.size());
    for (auto [i, t] : llvm::enumerate(loads))
      if (t.denseRows)
        denseHeld[i] = {vec.newReg(), vec.newReg()};
    // Dense stores (DenseStores.cpp): each store's pending lanes, and the
    // packed vector being stored.
    SmallVector<ktunit::Reg> densePending;
    ktunit::Reg densePacked = 0;
    if (hasDenseStores()) {
      for (size_t i = 0; i < stores.size(); ++i)
        densePending.push_back(vec.newReg());
      densePacked = vec.newReg();
    }
    std::optional<std::string> vectorProblem;
    // The compute unit reads its memory directly: every vector must start
    // where its access rule allows (a column broadcast steps one element
    // per row, which is rarely aligned).
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
    // The address of the current vector of transfer t in inner slot k.
    auto vectorAddress = [&](const Transfer &t, int64_t k, bool &broadcast) {
      dc::Address address = vectorInSlot(t, innerSlot(t, k), broadcast);
      checkAligned(t, address);
      return address;
    };
    // Every loaded input of one vector step from memory at `addressOf(t,
    // broadcast)`: a wide type's step is several accesses (a broadcast
    // element one), an input without the vector dimension is broadcast.
    // Body argument `arg` from transfer t's vector at `address`.
    auto loadInput = [&](BlockArgument arg, const Transfer &t, const dc::Address &address,
                         bool broadcast) {
      gatherPieces(vec, reg[arg], t, broadcast ? 1 : piecesOf(t),
                   [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t p) {
                     dc::Address piece = address;
                     piece.offset = piece.offset + vectorBytes * p;
                     checkAligned(t, piece);
                     vec.vload(r, type, count, piece);
                   });
      if (broadcast)
        vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
    };
    auto loadInputs = [&](llvm::function_ref<dc::Address(const Transfer &, bool &)> addressOf) {
      for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
        const ComputeInput &in = computeInputs[i];
        if (in.splat || llvm::is_contained(columnLoads, size_t(in.loadIndex)))
          continue;
        const Transfer &t = innerLoads[in.loadIndex];
        bool broadcast;
        dc::Address address = addressOf(t, broadcast);
        loadInput(arg, t, address, broadcast);
      }
    };
    auto emitTileBody = [&](int64_t k) -> LogicalResult {
      const Tile &tile = list[k];
      std::optional<DenseRowTile> dense;
      if (hasDenseLoads()) {
        FailureOr<DenseRowTile> realign = denseRowTile(tile);
        if (failed(realign))
          return failure();
        dense = *realign;
      }
      vec.acquire(innerInputs[c], Side::consumer);
      vec.acquire(innerOutputs[c], Side::producer);
      if (phased) {
        // Every phase reads the resident inner slot again.
        if (!columnLoads.empty())
          return computeStage->emitError("a column operand in a group of phases is not lowered");
        auto read = [&](const SpacePosition &pos, ArrayRef<bool> args) -> LogicalResult {
          for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
            if (computeInputs[i].splat || !args[i])
              continue;
            const Transfer &t = innerLoads[computeInputs[i].loadIndex];
            bool broadcast;
            dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
            loadInput(arg, t, address, broadcast);
          }
          return success();
        };
        auto compute = [&](const llvm::DenseSet<Operation *> &only,
                           const llvm::DenseMap<Value, ktunit::Reg> &fixed,
                           PhaseNest::SinkFn sink) {
          return emitBody(vec, reg, sink, &fixed, &only);
        };
        auto write = [&](unsigned i, ktunit::Reg r, const SpacePosition &pos) {
          const Transfer &t = innerStores[i];
          bool broadcast;
          dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
          scatterPieces(vec, r, t, [&](ktunit::Reg piece, int64_t p) {
            dc::Address at = address;
            at.offset = at.offset + vectorBytes * p;
            checkAligned(t, at);
            vec.vstore(at, piece);
          });
        };
        if (failed(phased->emitCompute(vec, tile.extent, reg, read, compute, write)))
          return failure();
        vec.release(innerInputs[c], Side::consumer);
        vec.release(innerOutputs[c], Side::producer);
        return success();
      }
      // A block of `rows` column values of each column operand, from the
      // block's place `blockAddress(t)` in its slot: the whole vector (in
      // its pieces) they start in, and the next where the block crosses
      // into it, moved down to lane 0 and held.
      auto loadHeldColumns = [&](llvm::function_ref<dc::Address(const Transfer &)> blockAddress,
                                 int64_t rows) {
        for (size_t i : columnLoads) {
          const Transfer &t = innerLoads[i];
          ColumnPhase phase = columnPhase(loads[i], c, tile);
          bool next = spansTwoVectors(phase.lane, rows);
          dc::Address address = blockAddress(t);
          address.offset = address.offset + phase.vectorOffset;
          auto fetchFrom = [&](dc::Address from) {
            return [&, from](ktunit::Reg r, dc::ElemType type, Elements count, int64_t p) {
              dc::Address piece = from;
              piece.offset = piece.offset + vectorBytes * p;
              checkAligned(t, piece);
              vec.vload(r, type, count, piece);
            };
          };
          gatherPieces(vec, heldColumn[i], t, piecesOf(t), fetchFrom(address));
          if (next) {
            address.offset = address.offset + toBytes(Elements(vectorWidth), t.esize);
            gatherPieces(vec, *nextColumn, t, piecesOf(t), fetchFrom(address));
          }
          if (phase.lane != 0)
            vec.ext(heldColumn[i], heldColumn[i], next ? *nextColumn : heldColumn[i],
                    phase.lane);
        }
      };
      for (size_t i : columnLoads)
        for (const RowSegment &seg : rowSegments(tile)) {
          ColumnPhase phase = columnPhase(loads[i], c, tile);
          if (failed(checkColumnReadFits(innerLoads[i], phase,
                                         spansTwoVectors(phase.lane, seg.rows), seg)))
            return failure();
        }
      // Column operands, for reductions and dense stores alike: a block's
      // values loaded from the inner slot at its start, one broadcast per
      // row.
      auto heldBlock = [&](const SpacePosition &pos, int64_t rows) -> LogicalResult {
        loadHeldColumns(
            [&](const Transfer &t) {
              bool broadcast;
              return positionAddress(t, innerSlot(t, k), pos, broadcast);
            },
            rows);
        return success();
      };
      auto heldRow = [&]() { broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn); };
      ReductionNest::HeldRows held{heldBlock, heldRow};
      if (reduction) {
        auto read = [&](const SpacePosition &pos) -> LogicalResult {
          if (!dense) {
            loadInputs([&](const Transfer &t, bool &broadcast) {
              return positionAddress(t, innerSlot(t, k), pos, broadcast);
            });
            return success();
          }
          loadDenseRows(
              vec, *dense, pos, reg, denseHeld,
              [&](const Transfer &t) { return innerSlot(t, k); }, checkAligned,
              [&](unsigned i, BlockArgument arg) {
                if (llvm::is_contained(columnLoads, size_t(computeInputs[i].loadIndex)))
                  return;
                const Transfer &t = innerLoads[computeInputs[i].loadIndex];
                bool broadcast;
                dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
                loadInput(arg, t, address, broadcast);
              });
          return success();
        };
        // Dense rows are folded in periods of rows with one shift each.
        reduction->setRowPeriod(dense ? dense->period : 1);
        reduction->setDenseColumns(dense.has_value());
        llvm::scope_exit resetPeriod([&] {
          reduction->setRowPeriod(1);
          reduction->setDenseColumns(false);
        });
        auto compute = [&](const llvm::DenseMap<Value, ktunit::Reg> &fixed) {
          return emitBody(vec, reg, [](unsigned, ktunit::Reg) {}, &fixed);
        };
        auto write = [&](unsigned i, ktunit::Reg r, const SpacePosition &pos) {
          const Transfer &t = innerStores[i];
          bool broadcast;
          dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
          scatterPieces(
              vec, r, t,
              [&](ktunit::Reg piece, int64_t p) {
                dc::Address at = address;
                at.offset = at.offset + vectorBytes * p;
                checkAligned(t, at);
                vec.vstore(at, piece);
              },
              resultPieces(t, pos, tile.extent));
        };
        if (failed(reduction->emitCompute(vec, tile.extent, reg, body, read, compute, write,
                                          columnLoads.empty() ? nullptr : &held)))
          return failure();
        vec.release(innerInputs[c], Side::consumer);
        vec.release(innerOutputs[c], Side::producer);
        return success();
      }
      if (hasDenseStores()) {
        // Each step's results packed after the rows before them, every
        // vector that fills vstored into the next vector of the inner
        // slot (the tile DMA copies the slot whole); column operands held
        // a block of rows at a time.
        auto loadOther = [&](const SpacePosition &pos) {
          return [&, pos](unsigned i, BlockArgument arg) {
            if (llvm::is_contained(columnLoads, size_t(computeInputs[i].loadIndex)))
              return;
            const Transfer &t = innerLoads[computeInputs[i].loadIndex];
            bool broadcast;
            dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
            loadInput(arg, t, address, broadcast);
          };
        };
        LogicalResult emitted = success();
        LogicalResult walked = walkDenseSteps(
            vec, tile, denseStorePeriod(tile),
            [&](const SpacePosition &pos, int64_t phase, int64_t lanes) {
              if (dense) {
                loadDenseRows(
                    vec, *dense, pos, reg, denseHeld,
                    [&](const Transfer &t) { return innerSlot(t, k); }, checkAligned,
                    loadOther(pos));
              } else {
                auto other = loadOther(pos);
                for (auto [i, arg] : llvm::enumerate(body.getArguments()))
                  if (!computeInputs[i].splat)
                    other(i, arg);
              }
              if (failed(emitBody(vec, reg, [&](unsigned i, ktunit::Reg r) {
                    const Transfer &t = innerStores[i];
                    packDenseStep(vec, tile, r, densePending[i], densePacked, phase, lanes,
                                  [&](ktunit::Reg v) {
                                    dc::Address at =
                                        packedVectorAddress(innerSlot(t, k), tile, pos);
                                    checkAligned(t, at);
                                    vec.vstore(at, v);
                                  });
                  })))
                emitted = failure();
            },
            columnLoads.empty() ? nullptr : &held);
        if (failed(walked) || failed(emitted))
          return failure();
        flushDenseStores(vec, tile, densePending, densePacked, [&](unsigned i, ktunit::Reg v) {
          const Transfer &t = innerStores[i];
          dc::Address at = lastPackedVectorAddress(innerSlot(t, k), tile);
          checkAligned(t, at);
          vec.vstore(at, v);
        });
        vec.release(innerInputs[c], Side::consumer);
        vec.release(innerOutputs[c], Side::producer);
        return success();
      }
      if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          for (int64_t d = 0; d < rowDim; ++d)
            vec.loop(tile.extent[d]);
          vec.loop(seg.blocks);
          loadHeldColumns(
              [&](const Transfer &t) { return segmentAddress(t, innerSlot(t, k), seg); },
              seg.rows);
          vec.loop(seg.rows);
          broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn);
          vec.loop(vectorsPerRow(tile));
          loadInputs([&](const Transfer &t, bool &broadcast) {
            broadcast = lacksVectorDim(t);
            return segmentAddress(t, innerSlot(t, k), seg);
          });
          bool storeBroadcast = false;
          if (failed(emitBody(vec, reg, [&](unsigned i, ktunit::Reg r) {
                const Transfer &t = innerStores[i];
                dc::Address address = segmentAddress(t, innerSlot(t, k), seg);
                storeBroadcast |= lacksVectorDim(t);
                scatterPieces(vec, r, t, [&](ktunit::Reg piece, int64_t p) {
                  dc::Address at = address;
                  at.offset = at.offset + vectorBytes * p;
                  checkAligned(t, at);
                  vec.vstore(at, piece);
                });
              })))
            return failure();
          if (storeBroadcast)
            return outer->emitError("a stored tensor must span the vector dimension");
          for (int64_t d = 0; d < rowDim + 3; ++d)
            vec.end();
        }
        vec.release(innerInputs[c], Side::consumer);
        vec.release(innerOutputs[c], Side::producer);
        return success();
      }
      for (size_t d = 0; d + 1 < space.size(); ++d)
        vec.loop(tile.extent[d]);
      vec.loop(vectorsPerRow(tile));
      loadInputs([&](const Transfer &t, bool &broadcast) { return vectorAddress(t, k, broadcast); });
      bool storeBroadcast = false;
      if (failed(emitBody(vec, reg, [&](unsigned i, ktunit::Reg r) {
            bool broadcast;
            dc::Address address = vectorAddress(innerStores[i], k, broadcast);
            storeBroadcast |= broadcast;
            scatterPieces(vec, r, innerStores[i], [&](ktunit::Reg piece, int64_t p) {
              dc::Address at = address;
              at.offset = at.offset + vectorBytes * p;
              checkAligned(innerStores[i], at);
              vec.vstore(at, piece);
            });
          })))
        return failure();
      if (storeBroadcast)
        return outer->emitError("a stored tensor must span the vector dimension");
      for (size_t d = 0; d < space.size(); ++d)
        vec.end();
      vec.release(innerInputs[c], Side::consumer);
      vec.release(innerOutputs[c], Side::producer);
      return success();
    };
    InstanceTable vecTable(1);
    auto emitTile = [&](int64_t k) -> LogicalResult {
      bool guarded = guard(vec, vecTable, c, k);
      LogicalResult result = emitTileBody(k);
      closeTileGuard(vec, guarded);
      return result;
    };
    if (failed(visitTiles({&vec}, n, tileRoll(0), emitTile)))
      return failure();
    vecTable.install(vec);
    if (vectorProblem)
      return computeStage->emitError(*vectorProblem)
             << ": unaligned vector accesses are not lowered";
    (void)vectorBytes;
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
