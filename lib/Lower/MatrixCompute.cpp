//===- MatrixCompute.cpp - a contraction onto a matrix unit ---------------===//
//
// Strategy. A ktsched.contraction arrives with every choice made by
// ktsched-schedule-contraction: the matrix unit, the vector unit beside it,
// the [bm, bn, bk] block of one `mma`, the `blocks` operand layout, the
// accumulator resident across K (loop order m, n, k) and the scratchpad
// regions. This lowering follows them mechanically, one bundle per round of
// grid tiles (tile t on core t mod cores), one sub-core instance per core:
//
//  1. the DMA copies the step's A (TM x TK) and B (TK x TN) rows into
//     scratchpad (`a_rows`, `b_rows`), row-major as in global memory;
//  2. the load unit streams those rows to the vector unit, which cuts each
//     group of bm rows of A (bk rows of B) into bm x bk (bk x bn) blocks
//     with `slice` and `concat` and sends each block to the store unit,
//     which writes it as one access into `a_blocks` ([m][k] order) or
//     `b_blocks` ([k][n]); the vector unit also writes the init block
//     (`vconst` of the accumulator's constant);
//  3. per accumulator block (m, n): the load unit pushes the init block and,
//     for k = 0, 1, ..., the A block (m, k) and the B block (k, n); the
//     matrix unit folds each pair into the accumulator register with `mma`
//     (K in order, the interpreter's order) and sends the block to the store
//     unit, which writes it into `acc`;
//  4. the epilogue: the load unit streams the accumulator blocks back to the
//     vector unit, which casts them to the stored type and joins the rows of
//     the blocks of one stored access into that access (`slice`, `concat`)
//     for the store unit (`c_rows`, row-major);
//  5. the DMA copies the stored rows to global memory.
//
// With an `epilogue` decision, step 4 runs the contraction's epilogue body
// on each accumulator block instead of the cast: its ops one vector op each
// (the opcode table, as a compute body's), its constants `vconst` of the
// block, and each row operand (a bias, DMA'd into scratchpad with A and B
// and streamed to the vector unit once per grid tile) cut to the block's
// N columns with `slice` and repeated over its bm rows with `concat`; the
// epilogue's loop over stored accesses is unrolled, so that each block's
// columns are constant lanes of the row operand's registers.
//
// Where the schedule chose `accumulator_path = fifo`, step 3's matrix unit
// sends each accumulator block straight to the vector unit and step 4's
// round trip through scratchpad goes; with `accumulator_init = constant` the
// matrix unit presets the accumulator with `vconst`, with `vector` the
// vector unit sends it each init over a FIFO, instead of the init block
// from scratchpad.
//
// The grid tile runs in the schedule's `step` [TM, TN, TK]: every program
// loops over the M x N panels and, inside, over the panel's K steps;
// steps 1-3 run per K step on its rows (in the ring slot of `buffers`),
// steps 4-5 per panel. The first K step starts each accumulator block
// from its init, later ones from the block the previous step left in
// scratchpad (`acc`), and every step but a last one whose accumulator goes
// to the epilogue over a FIFO leaves the blocks there: with `carry =
// scratchpad` the matrix unit takes and gives the block as one access of
// the load and store units, with `carry = vector` the vector unit joins
// the block's accesses for the matrix unit and cuts its result back. The
// first and last K steps are one-trip loops of their own (they differ in
// where the accumulator starts and goes), the steps between them one
// loop, so every step's code sits at the same depth.
//
// Phases hand over through channels (the scratchpad regions): the step's
// rows through a ring of `buffers` slots, the blocks through one, the
// carried accumulators through one slot per block of the panel (each read
// back only after it was written, in the same order); within a phase the
// FIFOs between the units order the data. docs/run.md, "Matrix units".
//
//===----------------------------------------------------------------------===//
#include "MatrixCompute.h"
#include "ContractionEpilogue.h"
#include "TileOperand.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

namespace {

using ktunit::Reg;
using ktunit::Side;

/// A transfer of the contraction resolved against its tensor.
using Operand = TileOperand;

class ContractionLowering {
public:
  ContractionLowering(const arch::ArchModel &model, ks::KernelOp kernel, ks::ContractionOp op,
                      LoweredKernel &out, KernelSymbols &symbols)
      : model(model), kernel(kernel), op(op), out(out), symbols(symbols) {}

  LogicalResult collect();
  LogicalResult emitRound(ktunit::BundleOp bundle, ArrayRef<int64_t> tiles);
  int64_t gridTiles() const { return grid[0] * grid[1] * grid[2]; }
  int64_t cores = 1;

private:
  FailureOr<Operand> operand(DictionaryAttr transfer);
  uint32_t symbolOf(const Operand &t, bool isOutput);
  /// Byte offset of the operand's tile of grid tile `tile` from its symbol.
  int64_t tileOffset(const Operand &t, int64_t tile) const;
  Attribute decision(StringRef name) { return ktflow::lower::detail::decisionValue(op, name); }

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::ContractionOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  SmallVector<int64_t> grid;
  Operand a, b, c;
  dc::ElemType accType = dc::ElemType::F32;
  int64_t accBytes = 4;
  int64_t m = 0, n = 0, k = 0, bm = 0, bn = 0, bk = 0;
  /// The step (panel M x N, K depth), its operand rows' ring slots and how
  /// the accumulator travels between K steps (`carry`).
  int64_t tm = 0, tn = 0, tk = 0, buffers = 1;
  std::string carry;
  Bytes slotAlignment{1};
  std::string dmaUnit, ldUnit, stUnit, vecUnit, mxuUnit, memory;
  int64_t unitsPerCore = 1;
  Bytes inAccess, outAccess;
  std::map<std::string, int64_t> region;
  /// The accumulator goes to the epilogue over a FIFO (else through the
  /// store unit, scratchpad and the load unit); the matrix unit presets it
  /// with `vconst` (else it receives the init block).
  bool directAccumulator = false, presetAccumulator = false;
  /// The vector unit sends the init over a FIFO to the matrix unit.
  bool vectorInit = false;
  /// The epilogue body (null: a cast) and its row operands.
  Block *epilogue = nullptr;
  SmallVector<Operand> rowOperands;
  /// The epilogue on the block `acc` (accumulator type) of block column
  /// `column`, from the row operands' registers `rows[i][stick]`.
  FailureOr<Reg> emitEpilogue(ktunit::ProgramBuilder &vec, Reg acc, int64_t column,
                              ArrayRef<SmallVector<Reg>> rows);
};

FailureOr<Operand> ContractionLowering::operand(DictionaryAttr transfer) {
  return resolveTileOperand(kernel, op, transfer);
}

uint32_t ContractionLowering::symbolOf(const Operand &t, bool isOutput) {
  return tileOperandSymbol(model, kernel, t, isOutput, out, symbols);
}

int64_t ContractionLowering::tileOffset(const Operand &t, int64_t tile) const {
  return tileOperandOffset(t, grid, tile);
}

LogicalResult ContractionLowering::collect() {
  // The contraction's grid: the kernel's, with merged tiles (`merge`).
  auto merged = op->getAttrOfType<DenseI64ArrayAttr>("grid");
  if (!merged || !decision("merge"))
    return op.emitError("contraction without its merge decision and grid");
  grid.assign(merged.asArrayRef().begin(), merged.asArrayRef().end());
  while (grid.size() < 3)
    grid.push_back(1);
  FailureOr<Operand> oa = operand(op.getA()), ob = operand(op.getB()), oc = operand(op.getC());
  if (failed(oa) || failed(ob) || failed(oc))
    return failure();
  a = *oa, b = *ob, c = *oc;
  std::optional<dc::ElemType> acc = registerType(op.getAccumulatorType());
  if (!acc)
    return op.emitError("accumulator type without vector registers");
  accType = *acc;
  accBytes = ks::elementSize(op.getAccumulatorType()).bytes.count();
  m = a.shape[0], k = a.shape[1], n = b.shape[1];
  // Every decision the lowering follows; a missing one is an error.
  auto block = dyn_cast_or_null<DenseI64ArrayAttr>(decision("block"));
  auto mxu = dyn_cast_or_null<StringAttr>(decision("matrix_unit"));
  auto vec = dyn_cast_or_null<StringAttr>(decision("vector_unit"));
  auto layout = dyn_cast_or_null<StringAttr>(decision("layout"));
  auto resident = dyn_cast_or_null<StringAttr>(decision("resident"));
  auto order = dyn_cast_or_null<ArrayAttr>(decision("loop_order"));
  auto split = dyn_cast_or_null<IntegerAttr>(decision("split"));
  auto regions = op->getAttrOfType<DictionaryAttr>("regions");
  auto path = dyn_cast_or_null<StringAttr>(decision("accumulator_path"));
  auto init = dyn_cast_or_null<StringAttr>(decision("accumulator_init"));
  if (!path || !init)
    return op.emitError("contraction without its accumulator path and init decisions");
  directAccumulator = path.getValue() == "fifo";
  presetAccumulator = init.getValue() == "constant";
  vectorInit = init.getValue() == "vector";
  if (!block || block.size() != 3 || !mxu || !vec || !layout || !resident || !order ||
      !split || !regions || !op->getAttrOfType<StringAttr>("load_unit") ||
      !op->getAttrOfType<StringAttr>("store_unit") || !op->getAttrOfType<StringAttr>("memory"))
    return op.emitError("contraction without the decisions of ktsched-schedule-contraction");
  // The one schedule shape built: what other values would ask for is not.
  if (layout.getValue() != "blocks" || resident.getValue() != "accumulator" ||
      order.size() != 3 || cast<StringAttr>(order[0]).getValue() != "m" ||
      cast<StringAttr>(order[1]).getValue() != "n" ||
      cast<StringAttr>(order[2]).getValue() != "k" || split.getInt() != 1)
    return op.emitError("contraction decisions other than layout blocks, resident "
                        "accumulator, loop order m, n, k and split 1 are not lowered");
  bm = block[0], bn = block[1], bk = block[2];
  if (bm <= 0 || bn <= 0 || bk <= 0 || m % bm || n % bn || k % bk)
    return op.emitError("contraction block ") << bm << "x" << bn << "x" << bk
                                              << " does not divide the tile";
  auto step = dyn_cast_or_null<DenseI64ArrayAttr>(decision("step"));
  auto ring = dyn_cast_or_null<IntegerAttr>(decision("buffers"));
  auto carried = op->getAttrOfType<StringAttr>("carry");
  if (!step || step.size() != 3 || !ring || !carried)
    return op.emitError("contraction without its step, buffers and carry decisions");
  tm = step[0], tn = step[1], tk = step[2], buffers = ring.getInt();
  carry = carried.getValue().str();
  if (tm <= 0 || tn <= 0 || tk <= 0 || m % tm || n % tn || k % tk || tm % bm || tn % bn ||
      tk % bk || (buffers != 1 && buffers != 2) || (tk != k && carry == "none"))
    return op.emitError("contraction step ")
           << tm << "x" << tn << "x" << tk << " (buffers " << buffers << ", carry " << carry
           << ") is not lowered: it must divide the tile in whole blocks, K whole without "
              "a carry";
  mxuUnit = mxu.getValue().str();
  vecUnit = vec.getValue().str();
  ldUnit = op->getAttrOfType<StringAttr>("load_unit").getValue().str();
  stUnit = op->getAttrOfType<StringAttr>("store_unit").getValue().str();
  memory = op->getAttrOfType<StringAttr>("memory").getValue().str();
  for (NamedAttribute entry : regions)
    region[entry.getName().str()] = cast<DenseI64ArrayAttr>(entry.getValue())[0];

  std::optional<ktsched::Placement> placement = ktsched::findPlacement(model, op.getLoc());
  if (!placement)
    return failure();
  cores = placement->cores;
  slotAlignment = ktsched::memoryAlignment(model, placement->scratchpad);
  std::optional<arch::Route> in =
      model.routeFrom(placement->global, arch::NodeInstance{placement->scratchpad, 0});
  SmallVector<arch::NodeId, 8> movers = in ? model.unitsOn(*in) : SmallVector<arch::NodeId, 8>();
  if (movers.size() != 1)
    return op.emitError("global memory must reach the scratchpad through one mover (a DMA)");
  dmaUnit = model.node(movers.front()).name;
  std::optional<arch::NodeId> ld = model.lookupNode(ldUnit);
  std::optional<arch::NodeId> st = model.lookupNode(stUnit);
  if (!ld || !st)
    return op.emitError("contraction's load or store unit is not in the description");
  unitsPerCore = model.nodeInstanceCount(*ld) / std::max<int64_t>(cores, 1);
  const arch::AccessRule *ldRule = model.node(*ld).accessTo(placement->scratchpad);
  const arch::AccessRule *stRule = model.node(*st).accessTo(placement->scratchpad);
  if (!ldRule || !stRule)
    return op.emitError("contraction's load or store unit cannot access the scratchpad");
  inAccess = ldRule->minSize;
  outAccess = stRule->minSize;
  if (Bytes(bm * bk * a.esize) != inAccess || Bytes(bk * bn * b.esize) != inAccess ||
      (!directAccumulator &&
       (Bytes(bm * bn * accBytes) != outAccess || outAccess != inAccess)) ||
      (!presetAccumulator && !vectorInit && Bytes(bm * bn * accBytes) != inAccess))
    return op.emitError("contraction blocks are not one access of the load and store units");
  if (!op.getEpilogue().empty()) {
    auto decided = dyn_cast_or_null<DictionaryAttr>(decision("epilogue"));
    auto unit = decided ? dyn_cast_or_null<StringAttr>(decided.get("unit")) : StringAttr();
    if (!unit || unit.getValue() != vecUnit)
      return op.emitError("contraction epilogue without its decision (the vector unit)");
    epilogue = &op.getEpilogue().front();
    Type yielded = epilogue->getTerminator()->getOperand(0).getType();
    if (yielded != c.tensor.getElementType())
      return op.emitError("contraction epilogue yields ")
             << yielded << ", not the stored " << c.tensor.getElementType();
    if (ArrayAttr operands = op.getEpilogueOperandsAttr())
      for (Attribute t : operands) {
        FailureOr<Operand> row = operand(cast<DictionaryAttr>(t));
        if (failed(row))
          return failure();
        if (row->shape.size() != 2 || row->shape[0] != 1 || row->shape[1] != n ||
            Bytes(n * row->esize).count() % inAccess.count() ||
            (inAccess.count() / row->esize) % bn)
          return op.emitError("epilogue row operand of other shape than 1 x N in whole "
                              "accesses of the load unit");
        rowOperands.push_back(*row);
      }
  }
  return success();
}

FailureOr<Reg> ContractionLowering::emitEpilogue(ktunit::ProgramBuilder &vec, Reg acc,
                                                 int64_t column,
                                                 ArrayRef<SmallVector<Reg>> rows) {
  const Elements lanes(bm * bn);
  DenseMap<Value, Reg> value;
  value[epilogue->getArgument(0)] = acc;
  for (auto [i, row] : llvm::enumerate(rowOperands)) {
    // The block's N columns of the row, repeated over its bm rows.
    int64_t perStick = inAccess.count() / row.esize, first = column * bn;
    Reg piece = vec.newReg(), joined = piece;
    vec.slice(piece, rows[i][first / perStick], first % perStick, Elements(bn));
    for (int64_t r = 1; r < bm; ++r) {
      Reg next = vec.newReg();
      vec.concat(next, joined, piece);
      joined = next;
    }
    value[epilogue->getArgument(i + 1)] = joined;
  }
  return emitEpilogueBody(vec, *epilogue, value, lanes);
}

LogicalResult ContractionLowering::emitRound(ktunit::BundleOp bundle, ArrayRef<int64_t> tiles) {
  using dc::ProgramBuilder;
  MLIRContext *ctx = op.getContext();
  uint32_t symA = symbolOf(a, false), symB = symbolOf(b, false), symC = symbolOf(c, true);
  SmallVector<uint32_t> symRows;
  for (const Operand &row : rowOperands)
    symRows.push_back(symbolOf(row, false));
  std::vector<int64_t> dmaInstances, unitInstances;
  for (int64_t tile : tiles) {
    int64_t core = tile % cores;
    dmaInstances.push_back(core);
    unitInstances.push_back(core * unitsPerCore);
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
  const int64_t aSticks = tk * es / msg, bSticks = tn * es / msg,
                cSticks = tn * eo / outAccess.count();
  const int64_t accBlock = bm * bn * accBytes, accSticks = accBlock / msg;
  const int64_t panelsM = m / tm, panelsN = n / tn, steps = k / tk;
  // The accumulator goes through scratchpad between K steps, and after the
  // last one where its path to the epilogue is not a FIFO.
  const bool carried = steps > 1 || !directAccumulator;

  // DMA table: A, B, C byte offsets of the core's grid tile; ld and st peers.
  auto inputs = channel("in", buffers, "dma", "ld", fromTable(ldUnit, 3), nearest(dmaUnit));
  auto blocks = channel("blocks", 1, "st", "ld", nearest(ldUnit), nearest(stUnit));
  // One slot per accumulator block of the panel: each block is written
  // (carried out) before it is read back (carried in), in the same order.
  ktunit::ChannelOp accumulated;
  if (carried)
    accumulated = channel("acc", mb * nb, "st", "ld", nearest(ldUnit), nearest(stUnit));
  auto outputs = channel("out", 1, "st", "dma", nearest(dmaUnit), fromTable(stUnit, 4));

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
  auto inSlot = [&](dc::Address addr, Step s, int64_t slot) {
    if (buffers == 1)
      return addr;
    if (steps > 1) {
      if (s.looped)
        addr.terms.push_back({2, Bytes(slot), 2});
      else
        addr.offset = addr.offset + Bytes(((s.index + 1) % 2) * slot);
    } else {
      addr.terms.push_back({panelsN > 1 ? 1u : 0u, Bytes(slot), 2});
    }
    return addr;
  };
  auto slotOf = [&](int64_t bytes) { return Bytes(bytes).alignTo(slotAlignment).count(); };
  const int64_t aSlot = slotOf(tm * tk * es), bSlot = slotOf(tk * tn * es);

  {
    // Columns: A, B, C, ld and st peers, then each epilogue row operand.
    auto dma = program("dma", dmaUnit, dmaInstances, 5 + rowOperands.size());
    for (int64_t tile : tiles) {
      int64_t core = tile % cores;
      std::vector<int64_t> row = {tileOffset(a, tile), tileOffset(b, tile), tileOffset(c, tile),
                                  core * unitsPerCore, core * unitsPerCore};
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
    dma->loop(panelsM);
    dma->loop(panelsN);
    if (failed(forSteps(*dma, [&](Step s) {
          dma->acquire(inputs, Side::producer);
          dma->copy(inSlot(spad("a_rows"), s, aSlot),
                    atStep(term(global(symA, 0), 0, tm * strideA), s, tk * es), Bytes(tk * es),
                    {{tm, Bytes(strideA), Bytes(tk * es)}});
          dma->copy(inSlot(spad("b_rows"), s, bSlot),
                    atStep(term(global(symB, 1), 1, tn * es), s, tk * strideB), Bytes(tn * es),
                    {{tk, Bytes(strideB), Bytes(tn * es)}});
          for (auto [i, row] : llvm::enumerate(rowOperands)) {
            int64_t bytes = tn * row.esize;
            dma->copy(inSlot(spad("epilogue_" + std::to_string(i)), s, slotOf(bytes)),
                      term(global(symRows[i], 5 + i), 1, bytes), Bytes(bytes),
                      {{1, Bytes(bytes), Bytes(bytes)}});
          }
          dma->release(inputs, Side::producer);
          return success();
        })))
      return failure();
    dma->acquire(outputs, Side::consumer);
    dma->copy(term(term(global(symC, 2), 0, tm * strideC), 1, tn * eo), spad("c_rows"),
              Bytes(tn * eo), {{tm, Bytes(tn * eo), Bytes(strideC)}});
    dma->release(outputs, Side::consumer);
    dma->end();
    dma->end();
    if (failed(dma->status()))
      return failure();
  }
  // The accumulator block (m, n) of the panel (loops at depths d, d + 1).
  auto accAt = [&](uint32_t d, int64_t offset = 0) {
    return term(term(spad("acc", offset), d, nb * accBlock), d + 1, accBlock);
  };
  {
    auto ld = program("ld", ldUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit), mxu = nearest(mxuUnit);
    ld->loop(panelsM);
    ld->loop(panelsN);
    if (failed(forSteps(*ld, [&](Step s) {
          ld->acquire(inputs, Side::consumer);
          // Rows of A, bm at a time per stick column; rows of B, bk at a time.
          ld->loop(mb);
          ld->loop(aSticks);
          for (int64_t r = 0; r < bm; ++r)
            ld->push(vec,
                     term(term(inSlot(spad("a_rows", r * tk * es), s, aSlot), 3, bm * tk * es), 4,
                          msg),
                     inAccess);
          ld->end();
          ld->end();
          ld->loop(kb);
          ld->loop(bSticks);
          for (int64_t r = 0; r < bk; ++r)
            ld->push(vec,
                     term(term(inSlot(spad("b_rows", r * tn * es), s, bSlot), 3, bk * tn * es), 4,
                          msg),
                     inAccess);
          ld->end();
          ld->end();
          if (s.last)
            for (auto [i, row] : llvm::enumerate(rowOperands))
              for (int64_t j = 0; j < tn * row.esize / msg; ++j)
                ld->push(vec,
                         inSlot(spad("epilogue_" + std::to_string(i), j * msg), s,
                                slotOf(tn * row.esize)),
                         inAccess);
          ld->release(inputs, Side::consumer);
          // Per accumulator block: its init or carried value, then the K
          // blocks of the step in order.
          ld->acquire(blocks, Side::consumer);
          ld->loop(mb);
          ld->loop(nb);
          if (s.first) {
            if (!presetAccumulator && !vectorInit)
              ld->push(mxu, spad("init"), Bytes(accBlock));
          } else {
            ld->acquire(accumulated, Side::consumer);
            if (carry == "scratchpad")
              ld->push(mxu, accAt(3), Bytes(accBlock));
            else
              for (int64_t j = 0; j < accSticks; ++j)
                ld->push(vec, accAt(3, j * msg), inAccess);
            ld->release(accumulated, Side::consumer);
          }
          ld->loop(kb);
          ld->push(mxu, term(term(spad("a_blocks"), 3, kb * msg), 5, msg), inAccess);
          ld->push(mxu, term(term(spad("b_blocks"), 5, nb * msg), 4, msg), inAccess);
          ld->end();
          ld->end();
          ld->end();
          ld->release(blocks, Side::consumer);
          return success();
        })))
      return failure();
    // The accumulator blocks of each stored access, to the epilogue.
    if (!directAccumulator) {
      int64_t perAccess = outElems / bn;
      ld->loop(mb);
      ld->loop(cSticks);
      for (int64_t j = 0; j < perAccess; ++j) {
        ld->acquire(accumulated, Side::consumer);
        ld->push(vec,
                 term(term(spad("acc", j * accBlock), 2, nb * accBlock), 3, perAccess * accBlock),
                 Bytes(accBlock));
        ld->release(accumulated, Side::consumer);
      }
      ld->end();
      ld->end();
    }
    ld->end();
    ld->end();
    if (failed(ld->status()))
      return failure();
  }
  {
    auto vec = program("vec", vecUnit, unitInstances, 0);
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
      vec->loop(mb);
      if (!unrolled)
        vec->loop(cSticks);
      for (int64_t stick = 0; stick < (unrolled ? cSticks : 1); ++stick) {
        SmallVector<Reg> cast;
        for (int64_t j = 0; j < perAccess; ++j) {
          Reg block = vec->newReg();
          // Each block's start just before its result: the matrix unit
          // takes one, folds K, sends the result back.
          if (s)
            carryIn(*s);
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
      vec->end();
      return success();
    };
    SmallVector<SmallVector<Reg>> rows;
    vec->loop(panelsM);
    vec->loop(panelsN);
    if (failed(forSteps(*vec, [&](Step s) -> LogicalResult {
          vec->loop(mb);
          vec->loop(aSticks);
          emitBlocks(bm, bk);
          vec->end();
          vec->end();
          vec->loop(kb);
          vec->loop(bSticks);
          emitBlocks(bk, bn);
          vec->end();
          vec->end();
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
          if (!startsHere && carry != "vector")
            return success();
          vec->loop(mb * nb);
          carryIn(s);
          if (carry == "vector") {
            Reg result = vec->newReg();
            vec->recv(result, accType, Elements(bm * bn), mxu);
            for (int64_t j = 0; j < accSticks; ++j) {
              Reg piece = vec->newReg();
              vec->slice(piece, result, j * (msg / accBytes), Elements(msg / accBytes));
              vec->send(st, piece);
            }
          }
          vec->end();
          return success();
        })))
      return failure();
    if (!directAccumulator && failed(emitEpilogueLoop(std::nullopt, rows)))
      return failure();
    vec->end();
    vec->end();
    if (failed(vec->status()))
      return failure();
  }
  {
    auto mxu = program("mxu", mxuUnit, unitInstances, 0);
    dc::NodeRef ld = nearest(ldUnit), st = nearest(stUnit), vec = nearest(vecUnit);
    Reg acc = mxu->newReg(), lhs = mxu->newReg(), rhs = mxu->newReg();
    mxu->loop(panelsM);
    mxu->loop(panelsN);
    if (failed(forSteps(*mxu, [&](Step s) {
          mxu->loop(mb);
          mxu->loop(nb);
          if (s.first && presetAccumulator)
            mxu->vconst(acc, accType, Elements(bm * bn), op.getInit().convertToDouble());
          else if (s.first)
            mxu->recv(acc, accType, Elements(bm * bn), vectorInit ? vec : ld);
          else
            mxu->recv(acc, accType, Elements(bm * bn), carry == "vector" ? vec : ld);
          mxu->loop(kb);
          mxu->recv(lhs, a.regType, Elements(bm * bk), ld);
          mxu->recv(rhs, b.regType, Elements(bk * bn), ld);
          mxu->mma(acc, lhs, rhs, Elements(bk));
          mxu->end();
          bool toVector = s.last ? directAccumulator : carry == "vector";
          mxu->send(toVector ? vec : st, acc);
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
    auto st = program("st", stUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit), mxu = nearest(mxuUnit);
    if (!presetAccumulator && !vectorInit)
      st->pop(vec, spad("init"), Bytes(accBlock));
    // The stored rows of the panel, from the epilogue (loops from depth d).
    auto emitStored = [&](uint32_t d) {
      st->acquire(outputs, Side::producer);
      st->loop(mb);
      st->loop(cSticks);
      for (int64_t r = 0; r < bm; ++r)
        st->pop(vec,
                term(term(spad("c_rows", r * tn * eo), d, bm * tn * eo), d + 1,
                     outAccess.count()),
                outAccess);
      st->end();
      st->end();
      st->release(outputs, Side::producer);
    };
    st->loop(panelsM);
    st->loop(panelsN);
    if (failed(forSteps(*st, [&](Step s) {
          st->acquire(blocks, Side::producer);
          st->loop(mb);
          st->loop(aSticks);
          for (int64_t j = 0; j < inElems / bk; ++j)
            st->pop(vec,
                    term(term(spad("a_blocks", j * msg), 3, kb * msg), 4, (inElems / bk) * msg),
                    inAccess);
          st->end();
          st->end();
          st->loop(kb);
          st->loop(bSticks);
          for (int64_t j = 0; j < inElems / bn; ++j)
            st->pop(vec,
                    term(term(spad("b_blocks", j * msg), 3, nb * msg), 4, (inElems / bn) * msg),
                    inAccess);
          st->end();
          st->end();
          st->release(blocks, Side::producer);
          if (s.last && directAccumulator) {
            emitStored(3);
            return success();
          }
          // The step's accumulator blocks, back into scratchpad.
          st->loop(mb);
          st->loop(nb);
          st->acquire(accumulated, Side::producer);
          if (carry == "vector")
            for (int64_t j = 0; j < accSticks; ++j)
              st->pop(vec, accAt(3, j * msg), inAccess);
          else
            st->pop(mxu, accAt(3), Bytes(accBlock));
          st->release(accumulated, Side::producer);
          st->end();
          st->end();
          return success();
        })))
      return failure();
    if (!directAccumulator)
      emitStored(2);
    st->end();
    st->end();
    if (failed(st->status()))
      return failure();
  }
  return success();
}

} // namespace

LogicalResult ktflow::lower::detail::lowerContraction(
    const arch::ArchModel &model, ks::KernelOp kernel, ks::ContractionOp op,
    LoweredKernel &out, KernelSymbols &symbols,
    llvm::function_ref<ktunit::BundleOp()> newBundle) {
  ContractionLowering lowering(model, kernel, op, out, symbols);
  if (failed(lowering.collect()))
    return failure();
  int64_t tiles = lowering.gridTiles(), cores = std::max<int64_t>(lowering.cores, 1);
  for (int64_t first = 0; first < tiles; first += cores) {
    SmallVector<int64_t> round;
    for (int64_t t = first; t < std::min(tiles, first + cores); ++t)
      round.push_back(t);
    if (failed(lowering.emitRound(newBundle(), round)))
      return failure();
  }
  return success();
}
