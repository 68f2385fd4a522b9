//===- MatrixRound.cpp - one round of a contraction's grid tiles ----------===//
//
// The unit programs of one round of grid tiles of a contraction (tile t on
// core t mod cores), following the decisions MatrixCompute.cpp collected:
// the DMA, and per sub-core instance the load unit, the vector unit, the
// matrix unit and the store unit. MatrixCompute.cpp's header says what
// each does; docs/run.md, "Matrix units".
//
//===----------------------------------------------------------------------===//
#include "MatrixCompute.h"
#include "ContractionEpilogue.h"
#include "MatrixLowering.h"

#include "llvm/ADT/StringSwitch.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

using ktunit::Reg;
using ktunit::Side;

LogicalResult MatrixLowering::emitRound(ktunit::BundleOp bundle, ArrayRef<int64_t> tiles) {
  using dc::ProgramBuilder;
  MLIRContext *ctx = op.getContext();
  uint32_t symA = symbolOf(a, false), symB = symbolOf(b, false), symC = symbolOf(c, true);
  SmallVector<uint32_t> symRows;
  for (const Operand &row : rowOperands)
    symRows.push_back(symbolOf(row, false));
  // Sub-core instance j of a core runs the panel rows [j, j + 1) x TM /
  // split of every panel (the `split` decision).
  std::vector<int64_t> dmaInstances;
  std::vector<std::vector<int64_t>> unitInstances(split);
  for (int64_t tile : tiles) {
    int64_t core = tile % cores;
    dmaInstances.push_back(core);
    for (int64_t j = 0; j < split; ++j)
      unitInstances[j].push_back(core * unitsPerCore + j);
  }
  Location loc = op.getLoc();
  auto program = [&](StringRef name, StringRef unit, std::vector<int64_t> instances,
                     uint32_t columns) {
    return std::make_unique<ktunit::ProgramBuilder>(bundle, name, unit, std::move(instances),
                                                    columns, symbols.names, loc);
  };
  auto channel = [&](StringRef name, int64_t depth, StringRef producer, StringRef consumer,
                     const dc::NodeRef &consumerRef, const dc::NodeRef &producerRef) {
    OpBuilder builder(ctx);
    builder.setInsertionPointToStart(&bundle.getBody().front());
    return ktunit::ChannelOp::create(builder, loc, name, depth, producer, consumer,
                                     ktunit::ProgramBuilder::nodeRef(ctx, consumerRef),
                                     ktunit::ProgramBuilder::nodeRef(ctx, producerRef));
  };
  auto nearest = [](StringRef unit) { return ProgramBuilder::node(unit); };
  auto fromTable = [](StringRef unit, int64_t column) {
    return ProgramBuilder::node(unit, {dc::InstanceSelector::Kind::TableColumn, column});
  };
  const int64_t msg = inAccess.count(), es = a.esize, eo = c.esize;
  const int64_t inElems = msg / es, outElems = outAccess.count() / eo;
  // Per step: its blocks, operand sticks and stored accesses.
  const int64_t mb = tm / bm, nb = tn / bn, kb = tk / bk;
  // Per sub-core instance: its rows and blocks of the panel.
  const int64_t tms = tm / split, mbs = mb / split;
  // Groups of `reuse` accumulator blocks along N sharing each A block.
  const int64_t groups = nb / reuse;
  // Each instance relays a share of B's K blocks; every instance reads all.
  const int64_t kbs = kb / split;
  const int64_t aSticks = tk * es / msg, bSticks = tn * es / msg,
                cSticks = tn * eo / outAccess.count();
  const int64_t accBlock = bm * bn * accBytes, accSticks = accBlock / msg;
  const int64_t panelsM = m / tm, panelsN = n / tn, steps = k / tk;
  // The accumulator goes through scratchpad between K steps, and after the
  // last one where its path to the epilogue is not a FIFO.
  const bool carried = steps > 1 || !directAccumulator;
  // With the blocks in a ring of two slots (`block_buffers`), each K step
  // but the last relays the next one's rows inside its products: per block
  // row m of the instance, the relay units (bm rows of A or bk rows of B,
  // by one access) of A's row m and bPerRow of B's, one per group of
  // accumulator blocks (round robin); each panel's first step is relaid
  // before its products.
  const bool overlap = blockBuffers == 2;
  const int64_t bPerRow = overlap ? kbs * bSticks / mbs : 0;

  // The programs and channels of sub-core instance j: unsuffixed where
  // one instance runs the tile.
  auto named = [&](StringRef name, int64_t j) {
    return split == 1 ? name.str() : name.str() + std::to_string(j);
  };
  // DMA table: A, B, C byte offsets of the core's grid tile, the ld and
  // then the st peer of each sub-core instance, the row operands' offsets.
  const uint32_t rowColumn = 3 + 2 * split;
  SmallVector<ktunit::ChannelOp> inputs, blocks, accumulated, outputs, epilogueRows;
  for (int64_t j = 0; j < split; ++j) {
    std::string ldj = named("ld", j), stj = named("st", j);
    inputs.push_back(channel(named("in", j), buffers, "dma", ldj, fromTable(ldUnit, 3 + j),
                             nearest(dmaUnit)));
    // The load and store units reach each other through the scratchpad
    // every instance shares: each names the others by its table (column
    // j: sub-core instance j's unit).
    blocks.push_back(channel(named("blocks", j), blockBuffers, stj, ldj, fromTable(ldUnit, j),
                             fromTable(stUnit, j)));
    // One slot per accumulator block of the instance's share of the panel:
    // each block is written (carried out) before it is read back (carried
    // in), in the same order.
    if (carried)
      accumulated.push_back(
          channel(named("acc", j), mbs * nb, stj, ldj, fromTable(ldUnit, j), fromTable(stUnit, j)));
    outputs.push_back(channel(named("out", j), 1, stj, "dma", nearest(dmaUnit),
                              fromTable(stUnit, 3 + split + j)));
    // The epilogue's row operands (the panel's columns): filled with each
    // panel's first step, read at its last; a channel of their own, so a
    // relay ahead (`block_buffers`) that has released the last step's rows
    // before the epilogue still finds them.
    if (!rowOperands.empty())
      epilogueRows.push_back(channel(named("epi", j), 1, "dma", ldj, fromTable(ldUnit, 3 + j),
                                     nearest(dmaUnit)));
  }
  // B's blocks instance j relays, for each other instance i to read.
  std::vector<std::vector<ktunit::ChannelOp>> shared(split, std::vector<ktunit::ChannelOp>(split));
  for (int64_t j = 0; j < split; ++j)
    for (int64_t i = 0; i < split; ++i)
      if (i != j)
        shared[j][i] = channel("b" + std::to_string(j) + "to" + std::to_string(i), blockBuffers,
                               named("st", j), named("ld", i), fromTable(ldUnit, i),
                               fromTable(stUnit, j));

  auto spad = [&](StringRef name, int64_t offset = 0) {
    return ProgramBuilder::memoryAddress(memory, Bytes(region[name.str()] + offset));
  };
  auto term = [](dc::Address addr, uint32_t depth, int64_t stride) {
    addr.terms.push_back({depth, Bytes(stride), 0});
    return addr;
  };
  // Every program loops over the panels (depth 0: rows, 1: columns) and
  // the K steps (depth 2): the first and the last step are loops of one
  // trip of their own (their accumulator comes from its init and goes to
  // the epilogue), the steps between them one loop, so every step's code
  // sits at depth 3.
  struct Step {
    bool first = false, last = false;
    int64_t index = 0;  ///< K step, plus the depth-2 loop's index if looped
    bool looped = false;
  };
  auto forSteps = [&](ktunit::ProgramBuilder &p, llvm::function_ref<LogicalResult(Step)> body) {
    if (steps == 1) {
      p.loop(1);
      LogicalResult r = body({true, true, 0, false});
      p.end();
      return r;
    }
    p.loop(1);
    if (failed(body({true, false, 0, false})))
      return failure();
    p.end();
    if (steps > 2) {
      p.loop(steps - 2);
      if (failed(body({false, false, 1, true})))
        return failure();
      p.end();
    }
    p.loop(1);
    LogicalResult r = body({false, true, steps - 1, false});
    p.end();
    return r;
  };
  // `addr` moved to K step `s` (stride bytes per step).
  auto atStep = [&](dc::Address addr, Step s, int64_t stride) {
    addr.offset = addr.offset + Bytes(s.index * stride);
    return s.looped ? term(addr, 2, stride) : addr;
  };
  // `addr` in the ring slot of step `s` (slots of `slot` bytes): with two
  // slots, the index mod 2 of the innermost loop of several trips; over
  // the steps, slot (s + 1) mod 2, so the looped middle steps (s = i + 1)
  // take i mod 2.
  // `ahead` 1: the slot of step s + 1 ((i + 1) mod 2 in the looped middle
  // steps, i the depth-2 loop's index).
  auto slotAt = [&](dc::Address addr, Step s, int64_t slot, int64_t ring, int64_t ahead) {
    if (ring == 1)
      return addr;
    if (steps > 1) {
      if (s.looped && ahead) {
        addr.offset = addr.offset + Bytes(slot);
        addr.terms.push_back({2, Bytes(-slot), 2});
      } else if (s.looped) {
        addr.terms.push_back({2, Bytes(slot), 2});
      } else {
        addr.offset = addr.offset + Bytes(((s.index + 1 + ahead) % 2) * slot);
      }
    } else {
      addr.terms.push_back({panelsN > 1 ? 1u : 0u, Bytes(slot), 2});
    }
    return addr;
  };
  auto inSlot = [&](dc::Address addr, Step s, int64_t slot) {
    return slotAt(addr, s, slot, buffers, 0);
  };
  auto slotOf = [&](int64_t bytes) { return Bytes(bytes).alignTo(slotAlignment).count(); };
  const int64_t aSlot = slotOf(tm * tk * es), bSlot = slotOf(tk * tn * es);
  // The blocks' slots: a step's A and B blocks of every instance.
  const int64_t aBlockSlot = slotOf(mb * kb * msg), bBlockSlot = slotOf(kb * nb * msg);
  // B's relay unit t of block row m (the depth-3 index) of an overlapped
  // step: unit u = m bPerRow + t, K block u div bSticks, access u mod
  // bSticks; where a row's units are a divisor of B's accesses, the K
  // block is m div d, d = bSticks / bPerRow, in terms of m and m mod d.
  auto bUnitAt = [&](dc::Address addr, int64_t t, int64_t kbStride, int64_t stickStride) {
    if (bPerRow % bSticks == 0) {
      addr.offset = addr.offset + Bytes((t / bSticks) * kbStride + (t % bSticks) * stickStride);
      return term(addr, 3, (bPerRow / bSticks) * kbStride);
    }
    int64_t d = bSticks / bPerRow;
    addr.offset = addr.offset + Bytes(t * stickStride);
    addr.terms.push_back({3, Bytes(kbStride / d), 0});
    addr.terms.push_back({3, Bytes(bPerRow * stickStride - kbStride / d), d});
    return addr;
  };
  // The relay units of block row m, by group of accumulator blocks: A's
  // access columns, then B's share; unit u in group u mod groups. Groups
  // that relay are one-trip loops of their own, the rest one loop.
  struct GroupRun {
    int64_t first = 0, count = 1;
    SmallVector<std::pair<bool, int64_t>> units; ///< (is A, column or B unit)
  };
  SmallVector<GroupRun> groupRuns;
  {
    SmallVector<std::pair<bool, int64_t>> units;
    if (overlap) {
      for (int64_t t = 0; t < aSticks; ++t)
        units.push_back({true, t});
      for (int64_t t = 0; t < bPerRow; ++t)
        units.push_back({false, t});
    }
    int64_t relaying = std::min<int64_t>(groups, units.size());
    for (int64_t g = 0; g < relaying; ++g) {
      GroupRun run{g, 1, {}};
      for (size_t u = g; u < units.size(); u += groups)
        run.units.push_back(units[u]);
      groupRuns.push_back(run);
    }
    if (groups > relaying)
      groupRuns.push_back({relaying, groups - relaying, {}});
  }
  // The same units by stored access of the epilogue (access c holds the
  // groups [c G, (c + 1) G), G = groups / cSticks), for a panel's last step
  // whose accumulators go to the epilogue over a FIFO.
  struct AccessRun {
    int64_t first = 0, count = 1;
    SmallVector<SmallVector<std::pair<bool, int64_t>>> groupUnits; ///< per group of the access
  };
  SmallVector<AccessRun> accessRuns;
  {
    const int64_t perAccessGroups = std::max<int64_t>(1, groups / cSticks);
    SmallVector<SmallVector<std::pair<bool, int64_t>>> unitsOf(groups);
    int64_t relayingGroups = 0;
    for (const GroupRun &run : groupRuns)
      if (!run.units.empty()) {
        unitsOf[run.first] = run.units;
        relayingGroups = run.first + 1;
      }
    int64_t relayingAccesses = (relayingGroups + perAccessGroups - 1) / perAccessGroups;
    for (int64_t a = 0; a < relayingAccesses; ++a) {
      AccessRun run{a, 1, {}};
      for (int64_t j = 0; j < perAccessGroups; ++j)
        run.groupUnits.push_back(unitsOf[a * perAccessGroups + j]);
      accessRuns.push_back(run);
    }
    if (cSticks > relayingAccesses)
      accessRuns.push_back({relayingAccesses, cSticks - relayingAccesses, {}});
  }
  // Every program but the DMA's and the matrix unit's loops over the
  // panels; overlapped, the first panel's first step is relaid before them
  // and each panel but the last relays the next panel's first step inside
  // its last step's products, so the last panel is a loop of its own (the
  // programs' addresses do not depend on the panel: the DMA's do).
  // Panels in one row or one column only: the DMA's next panel is one
  // panel stride on (it fills that panel's first step before it stores
  // this one's rows); elsewhere each panel's first step is relaid alone.
  const bool crossPanels = overlap && panelsM * panelsN > 1 && (panelsM == 1 || panelsN == 1);
  bool relayAfterLast = false;
  auto forPanels = [&](ktunit::ProgramBuilder &p, llvm::function_ref<void()> prologue,
                       llvm::function_ref<LogicalResult()> panel) -> LogicalResult {
    if (!crossPanels) {
      p.loop(panelsM);
      p.loop(panelsN);
      if (overlap) {
        p.loop(1);
        prologue();
        p.end();
      }
      LogicalResult r = panel();
      p.end();
      p.end();
      return r;
    }
    p.loop(1);
    p.loop(1);
    p.loop(1);
    prologue();
    p.end();
    p.end();
    p.end();
    if (panelsM * panelsN > 1) {
      relayAfterLast = true;
      p.loop(panelsM * panelsN - 1);
      p.loop(1);
      LogicalResult r = panel();
      p.end();
      p.end();
      relayAfterLast = false;
      if (failed(r))
        return failure();
    }
    p.loop(1);
    p.loop(1);
    LogicalResult r = panel();
    p.end();
    p.end();
    return r;
  };

  {
    auto dma = program("dma", dmaUnit, dmaInstances, rowColumn + rowOperands.size());
    for (int64_t tile : tiles) {
      int64_t core = tile % cores;
      std::vector<int64_t> row = {tileOffset(a, tile), tileOffset(b, tile), tileOffset(c, tile)};
      for (int64_t peer = 0; peer < 2 * split; ++peer)
        row.push_back(core * unitsPerCore + peer % split);
      for (const Operand &operand : rowOperands)
        row.push_back(tileOffset(operand, tile));
      dma->addTableRow(row);
    }
    auto global = [&](uint32_t sym, uint32_t column) {
      dc::Address addr = ProgramBuilder::symbolAddress(sym);
      addr.tableColumn = column;
      return addr;
    };
    const int64_t strideA = a.tensor.getStrides()[0] * es, strideB = b.tensor.getStrides()[0] * es,
                  strideC = c.tensor.getStrides()[0] * eo;
    // The rows of step `k` of the panel `shift` panels on (along the one
    // dimension panels step in, with crossPanels), in the slot of step s
    // `ahead` of it.
    auto fill = [&](Step s, int64_t ahead, Step k, int64_t shift) {
      int64_t shiftA = panelsN == 1 ? shift * tm * strideA : 0;
      int64_t shiftB = panelsN == 1 ? 0 : shift * tn * es;
      // The step's rows serve every sub-core instance.
      for (ktunit::ChannelOp in : inputs)
        dma->acquire(in, Side::producer);
      dc::Address srcA = atStep(term(global(symA, 0), 0, tm * strideA), k, tk * es);
      srcA.offset = srcA.offset + Bytes(shiftA);
      dc::Address srcB = atStep(term(global(symB, 1), 1, tn * es), k, tk * strideB);
      srcB.offset = srcB.offset + Bytes(shiftB);
      dma->copy(slotAt(spad("a_rows"), s, aSlot, buffers, ahead), srcA, Bytes(tk * es),
                {{tm, Bytes(strideA), Bytes(tk * es)}});
      dma->copy(slotAt(spad("b_rows"), s, bSlot, buffers, ahead), srcB, Bytes(tn * es),
                {{tk, Bytes(strideB), Bytes(tn * es)}});
      for (ktunit::ChannelOp in : inputs)
        dma->release(in, Side::producer);
      if (!k.first || rowOperands.empty())
        return;
      for (ktunit::ChannelOp rows : epilogueRows)
        dma->acquire(rows, Side::producer);
      for (auto [i, row] : llvm::enumerate(rowOperands)) {
        int64_t bytes = tn * row.esize;
        dc::Address src = term(global(symRows[i], rowColumn + i), 1, bytes);
        src.offset = src.offset + Bytes(panelsN == 1 ? 0 : shift * bytes);
        dma->copy(spad("epilogue_" + std::to_string(i)), src, Bytes(bytes),
                  {{1, Bytes(bytes), Bytes(bytes)}});
      }
      for (ktunit::ChannelOp rows : epilogueRows)
        dma->release(rows, Side::producer);
    };
    // Each sub-core instance's stored rows of the panel `shift` panels on.
    auto store = [&](int64_t shift) {
      for (int64_t j = 0; j < split; ++j) {
        dma->acquire(outputs[j], Side::consumer);
        dc::Address rows = term(term(global(symC, 2), 0, tm * strideC), 1, tn * eo);
        rows.offset = rows.offset + Bytes(j * tms * strideC) +
                      Bytes(shift * (panelsN == 1 ? tm * strideC : tn * eo));
        dma->copy(rows, spad("c_rows", j * tms * tn * eo), Bytes(tn * eo),
                  {{tms, Bytes(tn * eo), Bytes(strideC)}});
        dma->release(outputs[j], Side::consumer);
      }
    };
    if (!crossPanels) {
      dma->loop(panelsM);
      dma->loop(panelsN);
      if (failed(forSteps(*dma, [&](Step s) {
            fill(s, 0, s, 0);
            return success();
          })))
        return failure();
      store(0);
      dma->end();
      dma->end();
    } else {
      // The first panel's first step; then in step s of a panel step s + 1
      // (in the last, the next panel's first), as the load unit relays
      // them; a panel's rows stored after the next panel's first step.
      Step first{true, steps == 1, 0, false};
      dma->loop(1);
      dma->loop(1);
      dma->loop(1);
      fill(first, 0, first, 0);
      dma->end();
      dma->end();
      dma->end();
      int64_t panels = panelsM * panelsN;
      for (bool lastPanel : {false, true}) {
        int64_t shift = lastPanel ? panels - 1 : 0;
        dma->loop(panelsN == 1 && !lastPanel ? panels - 1 : 1);
        dma->loop(panelsN != 1 && !lastPanel ? panels - 1 : 1);
        if (failed(forSteps(*dma, [&](Step s) {
              if (!s.last)
                fill(s, 1, Step{false, false, s.index + 1, s.looped}, shift);
              else if (!lastPanel)
                fill(s, 1, first, shift + 1);
              return success();
            })))
          return failure();
        store(shift);
        dma->end();
        dma->end();
      }
    }
    if (failed(dma->status()))
      return failure();
  }
  // Sub-core instance j's programs: its share of each panel's rows, blocks,
  // accumulators and stored rows (the ring's rows of B and the row
  // operands are every instance's; each relays a share of B's K blocks,
  // which every instance reads).
  const int64_t initBlock = slotOf(accBlock);
  for (int64_t sc = 0; sc < split; ++sc) {
  auto sub = [&, sc](StringRef name, int64_t offset = 0) {
    int64_t share = llvm::StringSwitch<int64_t>(name)
                        .Case("a_rows", tms * tk * es)
                        .Case("a_blocks", mbs * kb * msg)
                        .Case("b_rows", kbs * bk * tn * es)
                        .Case("b_blocks", kbs * nb * msg)
                        .Case("init", initBlock)
                        .Case("acc", mbs * nb * accBlock)
                        .Case("c_rows", tms * tn * eo)
                        .Default(0);
    return spad(name, sc * share + offset);
  };
  // The accumulator block (m, g R + r) of the panel, loops m, g, r at
  // depths 3, 4, 5.
  auto accInGroup = [&](int64_t offset = 0) {
    return term(term(term(sub("acc", offset), 3, nb * accBlock), 4, reuse * accBlock), 5,
                accBlock);
  };
  {
    auto ld = program(named("ld", sc), ldUnit, unitInstances[sc], split);
    for (int64_t instance : unitInstances[sc]) {
      std::vector<int64_t> peers;
      for (int64_t j = 0; j < split; ++j)
        peers.push_back(instance - sc + j);
      ld->addTableRow(peers);
    }
    dc::NodeRef vec = nearest(vecUnit), mxu = nearest(mxuUnit);
    // The epilogue's row operands to the vector unit, at a panel's last
    // step before its starts and products.
    auto pushEpilogueRows = [&]() {
      if (rowOperands.empty())
        return;
      ld->acquire(epilogueRows[sc], Side::consumer);
      for (auto [i, row] : llvm::enumerate(rowOperands))
        for (int64_t j = 0; j < tn * row.esize / msg; ++j)
          ld->push(vec, spad("epilogue_" + std::to_string(i), j * msg), inAccess);
      ld->release(epilogueRows[sc], Side::consumer);
    };
    // The rows of step s to the vector unit, relayed whole (A's rows bm at
    // a time per access column, B's bk at a time).
    auto relayRows = [&](Step s) {
      ld->acquire(inputs[sc], Side::consumer);
      ld->loop(mbs);
      ld->loop(aSticks);
      for (int64_t r = 0; r < bm; ++r)
        ld->push(vec,
                 term(term(inSlot(sub("a_rows", r * tk * es), s, aSlot), 3, bm * tk * es), 4,
                      msg),
                 inAccess);
      ld->end();
      ld->end();
      ld->loop(kbs);
      ld->loop(bSticks);
      for (int64_t r = 0; r < bk; ++r)
        ld->push(vec,
                 term(term(inSlot(sub("b_rows", r * tn * es), s, bSlot), 3, bk * tn * es), 4,
                      msg),
                 inAccess);
      ld->end();
      ld->end();
      if (s.last)
        pushEpilogueRows();
      ld->release(inputs[sc], Side::consumer);
    };
    // One relay unit of step s + 1 inside block row m's products.
    auto relayUnit = [&](std::pair<bool, int64_t> unit, Step s) {
      auto [isA, t] = unit;
      if (isA) {
        for (int64_t r = 0; r < bm; ++r)
          ld->push(vec,
                   term(slotAt(sub("a_rows", r * tk * es + t * msg), s, aSlot, buffers, 1), 3,
                        bm * tk * es),
                   inAccess);
        return;
      }
      for (int64_t r = 0; r < bk; ++r)
        ld->push(vec,
                 bUnitAt(slotAt(sub("b_rows", r * tn * es), s, bSlot, buffers, 1), t,
                         bk * tn * es, msg),
                 inAccess);
    };
    auto ldStep = [&](Step s) -> LogicalResult {
          if (!overlap)
            relayRows(s);
          else if (s.last)
            pushEpilogueRows();
          // Per accumulator block: its init or carried value, then the K
          // blocks of the step in order.
          ld->acquire(blocks[sc], Side::consumer);
          for (int64_t j = 0; j < split; ++j)
            if (j != sc)
              ld->acquire(shared[j][sc], Side::consumer);
          bool relaying = overlap && (!s.last || relayAfterLast);
          if (relaying)
            ld->acquire(inputs[sc], Side::consumer);
          // Per group of `reuse` accumulator blocks (m, g R + r): their
          // inits or carried values in order, then (overlapped) the group's
          // relay units of the next step, then per K block the A block
          // once and the group's B blocks.
          ld->loop(mbs);
          for (const GroupRun &run : groupRuns) {
            ld->loop(run.count);
            ld->loop(reuse);
            if (s.first) {
              if (!presetAccumulator && !vectorInit)
                ld->push(mxu, sub("init"), Bytes(accBlock));
            } else {
              ld->acquire(accumulated[sc], Side::consumer);
              int64_t at = run.first * reuse * accBlock;
              if (carry == "scratchpad")
                ld->push(mxu, accInGroup(at), Bytes(accBlock));
              else
                for (int64_t j = 0; j < accSticks; ++j)
                  ld->push(vec, accInGroup(at + j * msg), inAccess);
              ld->release(accumulated[sc], Side::consumer);
            }
            ld->end();
            if (relaying)
              for (auto unit : run.units)
                relayUnit(unit, s);
            ld->loop(kb);
            ld->push(mxu,
                     term(term(slotAt(sub("a_blocks"), s, aBlockSlot, blockBuffers, 0), 3,
                               kb * msg),
                          5, msg),
                     inAccess);
            ld->loop(reuse);
            dc::Address bBlock = slotAt(spad("b_blocks", run.first * reuse * msg), s, bBlockSlot,
                                        blockBuffers, 0);
            ld->push(mxu, term(term(term(bBlock, 5, nb * msg), 4, reuse * msg), 6, msg),
                     inAccess);
            ld->end();
            ld->end();
            ld->end();
          }
          ld->end();
          if (relaying)
            ld->release(inputs[sc], Side::consumer);
          for (int64_t j = 0; j < split; ++j)
            if (j != sc)
              ld->release(shared[j][sc], Side::consumer);
          ld->release(blocks[sc], Side::consumer);
          return success();
    };
    auto ldPanel = [&]() -> LogicalResult {
    if (failed(forSteps(*ld, ldStep)))
      return failure();
    // The accumulator blocks of each stored access, to the epilogue.
    if (!directAccumulator) {
      int64_t perAccess = outElems / bn;
      ld->loop(mbs);
      ld->loop(cSticks);
      for (int64_t j = 0; j < perAccess; ++j) {
        ld->acquire(accumulated[sc], Side::consumer);
        ld->push(vec,
                 term(term(sub("acc", j * accBlock), 2, nb * accBlock), 3, perAccess * accBlock),
                 Bytes(accBlock));
        ld->release(accumulated[sc], Side::consumer);
      }
      ld->end();
      ld->end();
    }
    return success();
    };
    if (failed(forPanels(*ld, [&] { relayRows({true, steps == 1, 0, false}); }, ldPanel)))
      return failure();
    if (failed(ld->status()))
      return failure();
  }
  {
    auto vec = program(named("vec", sc), vecUnit, unitInstances[sc], 0);
    dc::NodeRef ld = nearest(ldUnit), st = nearest(stUnit), mxu = nearest(mxuUnit);
    Reg init = vec->newReg();
    if (!presetAccumulator) {
      vec->vconst(init, accType, Elements(bm * bn), op.getInit().convertToDouble());
      if (!vectorInit)
        vec->send(st, init);
    }
    // Blocks of `width` lanes from `count` rows: concat of their slices.
    auto emitBlocks = [&](int64_t rows, int64_t width) {
      SmallVector<Reg> row;
      for (int64_t r = 0; r < rows; ++r) {
        row.push_back(vec->newReg());
        vec->recv(row.back(), a.regType, Elements(inElems), ld);
      }
      for (int64_t j = 0; j < inElems / width; ++j) {
        Reg joined = vec->newReg();
        vec->slice(joined, row[0], j * width, Elements(width));
        for (int64_t r = 1; r < rows; ++r) {
          Reg piece = vec->newReg(), next = vec->newReg();
          vec->slice(piece, row[r], j * width, Elements(width));
          vec->concat(next, joined, piece);
          joined = next;
        }
        vec->send(st, joined);
      }
    };
    // The accumulator's start for a block of step `s`, where the vector
    // unit hands it to the matrix unit: the init of the first step, the
    // carried block joined from its accesses of a later one.
    auto carryIn = [&](Step s) {
      if (s.first) {
        if (vectorInit)
          vec->send(mxu, init);
        return;
      }
      if (carry != "vector")
        return;
      Reg joined = vec->newReg();
      vec->recv(joined, accType, Elements(msg / accBytes), ld);
      for (int64_t j = 1; j < accSticks; ++j) {
        Reg piece = vec->newReg(), next = vec->newReg();
        vec->recv(piece, accType, Elements(msg / accBytes), ld);
        vec->concat(next, joined, piece);
        joined = next;
      }
      vec->send(mxu, joined);
    };
    // Epilogue: cast the blocks of one stored access (or run the epilogue
    // body on them), join their rows. Row operands unroll the accesses.
    auto emitEpilogueLoop = [&](std::optional<Step> s,
                                ArrayRef<SmallVector<Reg>> rows) -> LogicalResult {
      int64_t perAccess = outElems / bn;
      bool unrolled = !rowOperands.empty();
      // A panel's last step that relays the next panel's first: by stored
      // access, the relay units of each group after its starts.
      bool relaying = s && overlap && relayAfterLast;
      SmallVector<AccessRun> plain = {{0, cSticks, {}}};
      ArrayRef<AccessRun> runs = relaying ? ArrayRef<AccessRun>(accessRuns) : plain;
      vec->loop(mbs);
      for (const AccessRun &run : runs) {
      if (!unrolled)
        vec->loop(run.count);
      // Unrolled, the run's stored accesses one by one (the row operands'
      // columns differ); else one loop over them.
      const int64_t firstStick = unrolled ? run.first : 0;
      const int64_t endStick = unrolled ? run.first + run.count : 1;
      for (int64_t stick = firstStick; stick < endStick; ++stick) {
        SmallVector<Reg> cast;
        for (int64_t j = 0; j < perAccess; ++j) {
          Reg block = vec->newReg();
          // A group's starts just before its first result: the matrix
          // unit takes them, folds K, sends the results back.
          if (s && j % reuse == 0) {
            for (int64_t r = 0; r < reuse; ++r)
              carryIn(*s);
            if (j / reuse < int64_t(run.groupUnits.size()))
              for (auto [isA, t] : run.groupUnits[j / reuse]) {
                (void)t;
                if (isA)
                  emitBlocks(bm, bk);
                else
                  emitBlocks(bk, bn);
              }
          }
          vec->recv(block, accType, Elements(bm * bn), s ? mxu : ld);
          if (epilogue) {
            FailureOr<Reg> result = emitEpilogue(*vec, block, stick * perAccess + j, rows);
            if (failed(result))
              return failure();
            block = *result;
          } else if (c.regType != accType) {
            Reg narrowed = vec->newReg();
            vec->cast(narrowed, c.regType, block);
            block = narrowed;
          }
          cast.push_back(block);
        }
        for (int64_t r = 0; r < bm; ++r) {
          Reg joined = vec->newReg();
          vec->slice(joined, cast[0], r * bn, Elements(bn));
          for (int64_t j = 1; j < perAccess; ++j) {
            Reg piece = vec->newReg(), next = vec->newReg();
            vec->slice(piece, cast[j], r * bn, Elements(bn));
            vec->concat(next, joined, piece);
            joined = next;
          }
          vec->send(st, joined);
        }
      }
      if (!unrolled)
        vec->end();
      }
      vec->end();
      return success();
    };
    SmallVector<SmallVector<Reg>> rows;
    // A step's rows into blocks, whole.
    auto relayAll = [&]() {
      vec->loop(mbs);
      vec->loop(aSticks);
      emitBlocks(bm, bk);
      vec->end();
      vec->end();
      vec->loop(kbs);
      vec->loop(bSticks);
      emitBlocks(bk, bn);
      vec->end();
      vec->end();
    };
    auto vecStep = [&](Step s) -> LogicalResult {
          if (!overlap)
            relayAll();
          if (s.last) {
            // The epilogue's row operands (the panel's columns), held for
            // the panel.
            rows.clear();
            for (const Operand &row : rowOperands) {
              rows.emplace_back();
              for (int64_t j = 0; j < tn * row.esize / msg; ++j) {
                rows.back().push_back(vec->newReg());
                vec->recv(rows.back().back(), row.regType, Elements(msg / row.esize), ld);
              }
            }
          }
          if (s.last && directAccumulator)
            return emitEpilogueLoop(s, rows);
          // The step's blocks go back to scratchpad: the vector unit hands
          // each its start and, carrying them, cuts the result into accesses.
          bool startsHere = (s.first && vectorInit) || (!s.first && carry == "vector");
          bool relaying = overlap && (!s.last || relayAfterLast);
          if (!startsHere && carry != "vector" && !relaying)
            return success();
          // A group's starts go first: the matrix unit takes them all
          // before it sends the first result; overlapped, the group's relay
          // units of the next step run while the matrix unit folds K.
          vec->loop(mbs);
          for (const GroupRun &run : groupRuns) {
            vec->loop(run.count);
            for (int64_t r = 0; startsHere && r < reuse; ++r)
              carryIn(s);
            if (relaying)
              for (auto [isA, t] : run.units) {
                (void)t;
                if (isA)
                  emitBlocks(bm, bk);
                else
                  emitBlocks(bk, bn);
              }
            if (carry == "vector") {
              vec->loop(reuse);
              Reg result = vec->newReg();
              vec->recv(result, accType, Elements(bm * bn), mxu);
              for (int64_t j = 0; j < accSticks; ++j) {
                Reg piece = vec->newReg();
                vec->slice(piece, result, j * (msg / accBytes), Elements(msg / accBytes));
                vec->send(st, piece);
              }
              vec->end();
            }
            vec->end();
          }
          vec->end();
          return success();
    };
    auto vecPanel = [&]() -> LogicalResult {
      if (failed(forSteps(*vec, vecStep)))
        return failure();
      if (!directAccumulator && failed(emitEpilogueLoop(std::nullopt, rows)))
        return failure();
      return success();
    };
    if (failed(forPanels(*vec, relayAll, vecPanel)))
      return failure();
    if (failed(vec->status()))
      return failure();
  }
  {
    auto mxu = program(named("mxu", sc), mxuUnit, unitInstances[sc], 0);
    dc::NodeRef ld = nearest(ldUnit), st = nearest(stUnit), vec = nearest(vecUnit);
    // `reuse` accumulators resident: each A block received once feeds
    // the group's B blocks, every accumulator folding K in order.
    SmallVector<Reg> acc;
    for (int64_t r = 0; r < reuse; ++r)
      acc.push_back(mxu->newReg());
    Reg lhs = mxu->newReg(), rhs = mxu->newReg();
    mxu->loop(panelsM);
    mxu->loop(panelsN);
    if (failed(forSteps(*mxu, [&](Step s) {
          mxu->loop(mbs);
          mxu->loop(groups);
          for (Reg r : acc) {
            if (s.first && presetAccumulator)
              mxu->vconst(r, accType, Elements(bm * bn), op.getInit().convertToDouble());
            else if (s.first)
              mxu->recv(r, accType, Elements(bm * bn), vectorInit ? vec : ld);
            else
              mxu->recv(r, accType, Elements(bm * bn), carry == "vector" ? vec : ld);
          }
          mxu->loop(kb);
          mxu->recv(lhs, a.regType, Elements(bm * bk), ld);
          for (Reg r : acc) {
            mxu->recv(rhs, b.regType, Elements(bk * bn), ld);
            mxu->mma(r, lhs, rhs, Elements(bk));
          }
          mxu->end();
          bool toVector = s.last ? directAccumulator : carry == "vector";
          for (Reg r : acc)
            mxu->send(toVector ? vec : st, r);
          mxu->end();
          mxu->end();
          return success();
        })))
      return failure();
    mxu->end();
    mxu->end();
    if (failed(mxu->status()))
      return failure();
  }
  {
    auto st = program(named("st", sc), stUnit, unitInstances[sc], split);
    for (int64_t instance : unitInstances[sc]) {
      std::vector<int64_t> peers;
      for (int64_t j = 0; j < split; ++j)
        peers.push_back(instance - sc + j);
      st->addTableRow(peers);
    }
    dc::NodeRef vec = nearest(vecUnit), mxu = nearest(mxuUnit);
    if (!presetAccumulator && !vectorInit)
      st->pop(vec, sub("init"), Bytes(accBlock));
    // The stored rows of the panel, from the epilogue (loops from depth d).
    auto emitStored = [&](uint32_t d) {
      st->acquire(outputs[sc], Side::producer);
      st->loop(mbs);
      st->loop(cSticks);
      for (int64_t r = 0; r < bm; ++r)
        st->pop(vec,
                term(term(sub("c_rows", r * tn * eo), d, bm * tn * eo), d + 1,
                     outAccess.count()),
                outAccess);
      st->end();
      st->end();
      st->release(outputs[sc], Side::producer);
    };
    // The blocks of step s (its slot `ahead` of it), from the relay.
    auto acquireBlocks = [&](Side side) {
      st->acquire(blocks[sc], side);
      for (int64_t i = 0; i < split; ++i)
        if (i != sc)
          st->acquire(shared[sc][i], side);
    };
    auto releaseBlocks = [&](Side side) {
      for (int64_t i = 0; i < split; ++i)
        if (i != sc)
          st->release(shared[sc][i], side);
      st->release(blocks[sc], side);
    };
    auto storeAll = [&](Step s) {
      st->acquire(blocks[sc], Side::producer);
      st->loop(mbs);
      st->loop(aSticks);
      for (int64_t j = 0; j < inElems / bk; ++j)
        st->pop(vec,
                term(term(slotAt(sub("a_blocks", j * msg), s, aBlockSlot, blockBuffers, 0), 3,
                          kb * msg),
                     4, (inElems / bk) * msg),
                inAccess);
      st->end();
      st->end();
      for (int64_t i = 0; i < split; ++i)
        if (i != sc)
          st->acquire(shared[sc][i], Side::producer);
      st->loop(kbs);
      st->loop(bSticks);
      for (int64_t j = 0; j < inElems / bn; ++j)
        st->pop(vec,
                term(term(slotAt(sub("b_blocks", j * msg), s, bBlockSlot, blockBuffers, 0), 3,
                          nb * msg),
                     4, (inElems / bn) * msg),
                inAccess);
      st->end();
      st->end();
      releaseBlocks(Side::producer);
    };
    // One relay unit's blocks of step s + 1 inside block row m's products.
    auto storeUnit = [&](std::pair<bool, int64_t> unit, Step s) {
      auto [isA, t] = unit;
      if (isA) {
        for (int64_t j = 0; j < inElems / bk; ++j)
          st->pop(vec,
                  term(slotAt(sub("a_blocks", j * msg + t * (inElems / bk) * msg), s, aBlockSlot,
                              blockBuffers, 1),
                       3, kb * msg),
                  inAccess);
        return;
      }
      for (int64_t j = 0; j < inElems / bn; ++j)
        st->pop(vec,
                bUnitAt(slotAt(sub("b_blocks", j * msg), s, bBlockSlot, blockBuffers, 1), t,
                        nb * msg, (inElems / bn) * msg),
                inAccess);
    };
    auto stStep = [&](Step s) -> LogicalResult {
          if (!overlap)
            storeAll(s);
          bool relaying = overlap && (!s.last || relayAfterLast);
          if (relaying)
            acquireBlocks(Side::producer);
          if (s.last && directAccumulator && relaying) {
            // The stored rows of each access after the relay units of its
            // groups (the vector unit cuts them between the groups' starts
            // and results).
            st->acquire(outputs[sc], Side::producer);
            st->loop(mbs);
            for (const AccessRun &run : accessRuns) {
              st->loop(run.count);
              for (const auto &units : run.groupUnits)
                for (auto unit : units)
                  storeUnit(unit, s);
              for (int64_t r = 0; r < bm; ++r)
                st->pop(vec,
                        term(term(sub("c_rows", r * tn * eo + run.first * outAccess.count()), 3,
                                  bm * tn * eo),
                             4, outAccess.count()),
                        outAccess);
              st->end();
            }
            st->end();
            st->release(outputs[sc], Side::producer);
            releaseBlocks(Side::producer);
            return success();
          }
          if (s.last && directAccumulator) {
            emitStored(3);
            return success();
          }
          // The step's accumulator blocks, back into scratchpad, per group
          // after the group's relay units of the next step.
          st->loop(mbs);
          for (const GroupRun &run : groupRuns) {
            st->loop(run.count);
            if (relaying)
              for (auto unit : run.units)
                storeUnit(unit, s);
            st->loop(reuse);
            int64_t at = run.first * reuse * accBlock;
            st->acquire(accumulated[sc], Side::producer);
            if (carry == "vector")
              for (int64_t j = 0; j < accSticks; ++j)
                st->pop(vec, accInGroup(at + j * msg), inAccess);
            else
              st->pop(mxu, accInGroup(at), Bytes(accBlock));
            st->release(accumulated[sc], Side::producer);
            st->end();
            st->end();
          }
          st->end();
          if (relaying)
            releaseBlocks(Side::producer);
          return success();
    };
    auto stPanel = [&]() -> LogicalResult {
      if (failed(forSteps(*st, stStep)))
        return failure();
      if (!directAccumulator)
        emitStored(2);
      return success();
    };
    if (failed(forPanels(*st, [&] { storeAll({true, steps == 1, 0, false}); }, stPanel)))
      return failure();
    if (failed(st->status()))
      return failure();
  }
  }
  return success();
}

