//===- MatrixCompute.cpp - a contraction onto a matrix unit ---------------===//
//
// Strategy. A ktsched.contraction arrives with every choice made by
// ktsched-schedule-contraction: the matrix unit, the vector unit beside it,
// the [bm, bn, bk] block of one `mma`, the `blocks` operand layout, the
// accumulator resident across K (loop order m, n, k) and the scratchpad
// regions. This lowering follows them mechanically, one bundle per round of
// grid tiles (tile t on core t mod cores). The `split` sub-core instances of
// a core (spyre's two corelets, each with its load, vector, matrix and store
// unit) share every panel by block rows: instance j takes the rows [j, j +
// 1) x TM / split, so the DMA copies a step's rows once for all of them,
// each relays its own A rows and a share of B's K blocks (which every
// instance reads: each waits for the others' shares) and stores its
// own rows; each names its own load and store unit by its table (they meet
// through the scratchpad every instance shares, where "nearest" would not
// tell them apart). Per instance:
//
//  1. the DMA copies the step's A (TM x TK) and B (TK x TN) rows into
//     scratchpad (`a_rows`, `b_rows`), row-major as in global memory;
//  2. the load unit streams those rows to the vector unit, which cuts each
//     group of bm rows of A (bk rows of B) into bm x bk (bk x bn) blocks
//     with `slice` and `concat` and sends each block to the store unit,
//     which writes it as one access into `a_blocks` ([m][k] order) or
//     `b_blocks` ([k][n]); the vector unit also writes the init block
//     (`vconst` of the accumulator's constant);
//  3. per group of `reuse` (R) accumulator blocks (m, g R + r): the load
//     unit pushes their init blocks and, for k = 0, 1, ..., the A block
//     (m, k) once and the group's B blocks (k, g R + r); the matrix unit
//     keeps the A block and the R accumulators in registers and folds each
//     B block into its accumulator with `mma` (K in order per accumulator,
//     the interpreter's order), then sends the R blocks in order to the
//     store unit, which writes them into `acc`;
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
// With `block_buffers = 2` the blocks have a ring of two slots and each K
// step but a panel's last relays the next step's rows inside its products
// (per block row: A's row and a share of B's relay units, one per group of
// accumulator blocks, between the group's starts and its results), so the
// vector unit cuts blocks while the matrix unit folds K; a panel's first
// step is relaid before its products (MatrixRound.cpp).
//
// Phases hand over through channels (the scratchpad regions): the step's
// rows through a ring of `buffers` slots, the blocks through `block_buffers`, the
// carried accumulators through one slot per block of the panel (each read
// back only after it was written, in the same order); within a phase the
// FIFOs between the units order the data. docs/run.md, "Matrix units".
//
//===----------------------------------------------------------------------===//
#include "MatrixCompute.h"
#include "ContractionEpilogue.h"
#include "MatrixLowering.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

using ktunit::Reg;
using ktunit::Side;


FailureOr<Operand> MatrixLowering::operand(DictionaryAttr transfer) {
  return resolveTileOperand(kernel, op, transfer);
}

uint32_t MatrixLowering::symbolOf(const Operand &t, bool isOutput) {
  return tileOperandSymbol(model, kernel, t, isOutput, out, symbols);
}

int64_t MatrixLowering::tileOffset(const Operand &t, int64_t tile) const {
  return tileOperandOffset(t, grid, tile);
}

LogicalResult MatrixLowering::collect() {
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
  auto shares = dyn_cast_or_null<IntegerAttr>(decision("split"));
  auto regions = op->getAttrOfType<DictionaryAttr>("regions");
  auto path = dyn_cast_or_null<StringAttr>(decision("accumulator_path"));
  auto init = dyn_cast_or_null<StringAttr>(decision("accumulator_init"));
  if (!path || !init)
    return op.emitError("contraction without its accumulator path and init decisions");
  directAccumulator = path.getValue() == "fifo";
  presetAccumulator = init.getValue() == "constant";
  vectorInit = init.getValue() == "vector";
  if (!block || block.size() != 3 || !mxu || !vec || !layout || !resident || !order ||
      !shares || !regions || !op->getAttrOfType<StringAttr>("load_unit") ||
      !op->getAttrOfType<StringAttr>("store_unit") || !op->getAttrOfType<StringAttr>("memory"))
    return op.emitError("contraction without the decisions of ktsched-schedule-contraction");
  // The one schedule shape built: what other values would ask for is not.
  if (layout.getValue() != "blocks" || resident.getValue() != "accumulator" ||
      order.size() != 3 || cast<StringAttr>(order[0]).getValue() != "m" ||
      cast<StringAttr>(order[1]).getValue() != "n" ||
      cast<StringAttr>(order[2]).getValue() != "k")
    return op.emitError("contraction decisions other than layout blocks, resident "
                        "accumulator and loop order m, n, k are not lowered");
  split = shares.getInt();
  auto reused = dyn_cast_or_null<IntegerAttr>(decision("reuse"));
  if (!reused)
    return op.emitError("contraction without its reuse decision");
  reuse = reused.getInt();
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
  auto blockRing = dyn_cast_or_null<IntegerAttr>(decision("block_buffers"));
  if (!blockRing)
    return op.emitError("contraction without its block_buffers decision");
  blockBuffers = blockRing.getInt();
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
  if (split < 1 || split > unitsPerCore || (tm / bm) % split)
    return op.emitError("contraction split ")
           << split << " is not lowered: it must divide the panel's " << tm / bm
           << " block rows among at most the core's " << unitsPerCore << " sub-core instances";
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
  // The epilogue takes a stored access's blocks together, so a group of
  // reused blocks lies within one (its starts go first).
  if (reuse < 1 || (tn / bn) % reuse || (outAccess.count() / c.esize / bn) % reuse)
    return op.emitError("contraction reuse ")
           << reuse << " is not lowered: it must divide the panel's " << tn / bn
           << " block columns and the " << outAccess.count() / c.esize / bn
           << " blocks of a stored access";
  if (blockBuffers == 2 && failed(checkOverlap()))
    return failure();
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

LogicalResult MatrixLowering::checkOverlap() {
  ktsched::ContractionStepShape shape;
  const int64_t msg = inAccess.count();
  shape.steps = k / tk, shape.buffers = buffers, shape.mbs = tm / bm / split,
  shape.kbs = tk / bk / split, shape.kb = tk / bk, shape.nb = tn / bn,
  shape.aSticks = tk * a.esize / msg, shape.bSticks = tn * a.esize / msg, shape.bk = bk,
  shape.tn = tn, shape.access = msg, shape.elementBytes = a.esize;
  if (!ktsched::contractionOverlapLegal(shape))
    return op.emitError("contraction block_buffers 2 is not lowered for step ")
           << tm << "x" << tn << "x" << tk
           << ": it needs an even number of K steps, double-buffered rows and B's relay "
              "shared evenly over the block rows";
  return success();
}

FailureOr<Reg> MatrixLowering::emitEpilogue(ktunit::ProgramBuilder &vec, Reg acc,
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

LogicalResult ktflow::lower::detail::lowerContraction(
    const arch::ArchModel &model, ks::KernelOp kernel, ks::ContractionOp op,
    LoweredKernel &out, KernelSymbols &symbols,
    llvm::function_ref<ktunit::BundleOp()> newBundle) {
  MatrixLowering lowering(model, kernel, op, out, symbols);
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
