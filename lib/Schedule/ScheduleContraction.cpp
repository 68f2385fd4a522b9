//===- ScheduleContraction.cpp - matrix-unit decisions for contractions ---===//
//
// Strategy. A ktsched.contraction (one grid tile's C = A x B + init, the
// K sum carried in the declared accumulator type) is bound and blocked
// here, so that the lowering (lib/Lower/MatrixCompute.cpp) only follows
// recorded decisions:
//
//  * `compute = matrix`; where no matrix unit can run the contraction, or
//    a plan says `compute = vector`, ScheduleVectorContraction.cpp binds it
//    to a vector unit instead (lowered by lib/Lower/VectorContraction.cpp);
//  * the matrix unit: a compute unit with a `matrix` shape, the `matmul`
//    class and lanes for the operands' type, that the scratchpad reaches
//    through a mover (its load unit) and that drains into the scratchpad
//    through another (its store unit) — found by the description's route
//    search, never by name;
//  * the vector unit beside it that lays the operands out and runs the
//    epilogue (the `copy` class for slice/concat, `cast` where the stored
//    type differs), reached from and draining into the same scratchpad;
//  * the block [bm, bn, bk] of one `mma`: operands reach the matrix unit
//    one access of its load unit at a time, so an A block (bm x bk,
//    row-major) and a B block (bk x bn, row-major) are each exactly one
//    access, and the accumulator block (bm x bn of the accumulator type)
//    leaves through one access of the store unit; among the blocks that
//    divide the tile, the one with the most multiply-adds per issue of the
//    matrix array (then the largest) is taken;
//  * the operand layout in scratchpad: `blocks` — each operand block
//    contiguous, in block-row-major order (A: [m][k], B: [k][n]), which is
//    what one access per block needs; global memory holds row-major tiles,
//    so the vector unit relays the rows into blocks in scratchpad;
//  * what stays resident: the accumulator block, in the matrix unit's
//    registers across a K step (loop order m, n, k: k innermost); a
//    step's operand blocks stay resident in scratchpad for the step;
//  * `reuse` R: each A block stays in the matrix unit's registers while
//    the B blocks of R accumulator blocks along N stream (their R
//    accumulators resident too), so an mma takes one operand access, not
//    two: the largest R dividing the panel's block columns and a stored
//    access's blocks whose accumulators and two operand blocks fit the
//    unit's registers;
//  * `split`: the sub-core instances sharing the scratchpad (spyre's two
//    corelets) divide each panel's block rows among them, so every matrix
//    unit of a core works; each relays a share of B's K blocks (every
//    instance reads them all), TK a multiple of bk times the split; the
//    most instances whose step fits (below) are taken;
//  * the accumulator's path to the epilogue: `fifo` where the description
//    links the matrix unit to the vector unit by a FIFO (the block is one
//    message), else `scratchpad` (one store access, read back by the load
//    unit); its init (`accumulator_init`): `constant` (`vconst` on the
//    matrix unit) where the matrix unit has the `copy` class and lanes for
//    the accumulator type, else `vector` (the vector unit sends it over a
//    FIFO link to the matrix unit) where there is one, else `scratchpad`
//    (an init block, one load access);
//  * `merge`: where the tile's N columns are not whole accesses (B's rows,
//    the stored rows), consecutive grid tiles along the grid dimension
//    that steps N become one (the contraction's `grid`).
//
//  * `step` [TM, TN, TK]: the grid tile runs as TM x TN panels, each
//    folding K in steps of TK whose operand rows reach the scratchpad one
//    step at a time — the widest panel that fits (rows are relaid once
//    per panel), then the deepest step (fewer carries) on one core, at
//    least four K steps where several cores share global memory (the
//    DMA's next step overlaps this one's work); `buffers`: 2 where
//    the innermost loop of several trips is even (a ring of two slots for
//    the step's rows), else 1; `block_buffers`: 2 (the blocks in a ring of
//    two slots, the next step relaid inside this one's products) where the
//    step admits it (contractionOverlapLegal), it fits, and the units
//    rather than global memory set the pace, else 1. Between K steps the accumulator blocks wait
//    in scratchpad; how they travel (`carry`, a fact of the block and the
//    description) is one access of the load and store units, or the
//    vector unit joining and cutting the block's accesses over its FIFOs
//    to and from the matrix unit; with neither, K is not split.
//
// Each decision is a #ktsched.decision (source heuristic, or plan when a
// plan replays it). The scratchpad regions (facts) follow: the row-major
// A and B rows of a step the DMA fills (per ring slot), their block
// copies, the panel's accumulator blocks, the init block and the stored
// rows; a grid tile no step fits is diagnosed with its sizes. A description
// that offers no binding or no legal block is diagnosed at the contraction,
// naming the constraint.
//
//===----------------------------------------------------------------------===//
#include "ScheduleContraction.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SCHEDULECONTRACTION
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {

/// The movers that bring data from `memory` to `unit` and take it back.
struct UnitPorts {
  NodeId load = 0, store = 0;
};

/// The mover right before `unit` on the cheapest route from `memory`, and
/// the one right after it on the route back, if both routes exist.
std::optional<UnitPorts> portsOf(const ArchModel &model, NodeId memory, NodeId unit) {
  std::optional<Route> in = model.routeFrom(memory, NodeInstance{unit, 0});
  std::optional<Route> out = model.routeTo(NodeInstance{unit, 0}, memory);
  if (!in || !out)
    return std::nullopt;
  SmallVector<NodeId, 8> inUnits = model.unitsOn(*in), outUnits = model.unitsOn(*out);
  if (inUnits.size() < 2 || outUnits.size() < 2 || inUnits.back() != unit ||
      outUnits.front() != unit || !model.node(inUnits[inUnits.size() - 2]).isMover() ||
      !model.node(outUnits[1]).isMover())
    return std::nullopt;
  return UnitPorts{inUnits[inUnits.size() - 2], outUnits[1]};
}

/// The one access size of `mover` to `memory` (min = max), if it has one.
std::optional<Bytes> accessSize(const ArchModel &model, NodeId mover, NodeId memory) {
  const AccessRule *rule = model.node(mover).accessTo(memory);
  if (!rule || rule->minSize != rule->maxSize)
    return std::nullopt;
  return rule->minSize;
}

int64_t bytesOf(Type type) { return elementSize(type).bytes.count(); }

ArrayRef<int64_t> shapeOf(DictionaryAttr transfer) {
  return cast<DenseI64ArrayAttr>(transfer.get("shape")).asArrayRef();
}

/// `transfer` with its shape along `dim` times `factor` and grid dimension
/// `gridDim` of its origin scaled by `factor` (merged grid tiles).
DictionaryAttr merged(DictionaryAttr transfer, int64_t dim, unsigned gridDim, int64_t factor) {
  Builder b(transfer.getContext());
  SmallVector<int64_t> shape(shapeOf(transfer));
  shape[dim] *= factor;
  AffineMap origin = cast<AffineMapAttr>(transfer.get("origin")).getValue();
  AffineExpr g = b.getAffineDimExpr(gridDim);
  origin = origin.replace(g, g * factor, origin.getNumDims(), 0);
  NamedAttrList entries(transfer);
  entries.set("shape", b.getDenseI64ArrayAttr(shape));
  entries.set("origin", AffineMapAttr::get(origin));
  return entries.getDictionary(transfer.getContext());
}

/// The grid dimension whose tiles step the N columns of `op` by exactly the
/// tile's N (B and C origins along N are n * g + constant; A does not
/// depend on g), if one does.
std::optional<unsigned> columnGridDim(ContractionOp op, int64_t n) {
  auto originOf = [](DictionaryAttr t) { return cast<AffineMapAttr>(t.get("origin")).getValue(); };
  AffineMap a = originOf(op.getA()), bo = originOf(op.getB()), c = originOf(op.getC());
  for (unsigned g = 0; g < 3; ++g) {
    auto step = [&](AffineExpr e) -> std::optional<int64_t> {
      AffineExpr d = getAffineDimExpr(g, e.getContext());
      AffineExpr diff = e.replace(d, d + 1) - e;
      diff = simplifyAffineExpr(diff, kOriginDims, 0);
      if (auto cst = dyn_cast<AffineConstantExpr>(diff))
        return cst.getValue();
      return std::nullopt;
    };
    if (step(bo.getResult(1)) == n && step(c.getResult(1)) == n && step(a.getResult(0)) == 0 &&
        step(a.getResult(1)) == 0 && step(bo.getResult(0)) == 0 && step(c.getResult(0)) == 0)
      return g;
  }
  return std::nullopt;
}

/// The epilogue's row operands (along N) of merged grid tiles.
void mergeEpilogueOperands(ContractionOp op, unsigned gridDim, int64_t factor) {
  // Held in a local: the optional the accessor returns dies with the
  // full-expression, and the loop would iterate a dangling attribute.
  ArrayAttr epilogueOperands = op.getEpilogueOperandsAttr();
  if (!epilogueOperands)
    return;
  SmallVector<Attribute> operands;
  for (Attribute t : epilogueOperands)
    operands.push_back(merged(cast<DictionaryAttr>(t), 1, gridDim, factor));
  op.setEpilogueOperandsAttr(ArrayAttr::get(op.getContext(), operands));
}

} // namespace

FailureOr<int64_t> ktflow::ktsched::detail::decideContractionMerge(
    ContractionOp op, KernelOp kernel, int64_t n, llvm::function_ref<bool(int64_t)> rowsWhole,
    int64_t accessBytes) {
  Builder b(op.getContext());
  SmallVector<int64_t> grid(kernel.getGrid());
  while (grid.size() < 3)
    grid.push_back(1);
  // A plan's merge is checked and applied like the heuristic's.
  if (auto replayed = dyn_cast_or_null<DictionaryAttr>(decisionValue(op, "merge"))) {
    int64_t dim = replayed.getAs<IntegerAttr>("dim").getInt();
    int64_t factor = replayed.getAs<IntegerAttr>("factor").getInt();
    if (factor > 1 && (columnGridDim(op, n) != std::optional<unsigned>(dim) ||
                       grid[dim] % factor != 0))
      return op.emitError("the plan's merge {dim ")
             << dim << ", factor " << factor
             << "} does not merge consecutive column tiles of the grid";
    if (!rowsWhole(n * factor))
      return op.emitError("the plan's merge {dim ")
             << dim << ", factor " << factor << "} leaves rows of " << n * factor
             << " elements, not whole " << accessBytes << "-byte accesses";
    if (factor > 1) {
      op.setBAttr(merged(op.getB(), 1, dim, factor));
      op.setCAttr(merged(op.getC(), 1, dim, factor));
      mergeEpilogueOperands(op, dim, factor);
      n *= factor;
      grid[dim] /= factor;
    }
  } else {
    int64_t factor = 1;
    std::optional<unsigned> dim;
    if (!rowsWhole(n)) {
      dim = columnGridDim(op, n);
      if (dim)
        for (int64_t f = 2; f <= grid[*dim]; ++f)
          if (grid[*dim] % f == 0 && rowsWhole(n * f)) {
            factor = f;
            break;
          }
      if (factor == 1)
        return op.emitError("the contraction's rows (N = ")
               << n << " elements) are not whole " << accessBytes
               << "-byte accesses and no merge of consecutive grid tiles makes them whole";
    }
    op->setAttr("merge", decide(b.getDictionaryAttr(
                                    {b.getNamedAttr("dim", b.getI64IntegerAttr(dim ? *dim : 0)),
                                     b.getNamedAttr("factor", b.getI64IntegerAttr(factor))}),
                                kHeuristic));
    if (factor > 1) {
      op.setBAttr(merged(op.getB(), 1, *dim, factor));
      op.setCAttr(merged(op.getC(), 1, *dim, factor));
      mergeEpilogueOperands(op, *dim, factor);
      n *= factor;
      grid[*dim] /= factor;
    }
  }
  op->setAttr("grid", b.getDenseI64ArrayAttr(grid));
  return n;
}

bool ktflow::ktsched::contractionOverlapLegal(const ContractionStepShape &s) {
  if (s.steps < 2 || s.steps % 2 || s.buffers != 2 || s.mbs < 1 ||
      (s.kbs * s.bSticks) % s.mbs)
    return false;
  // Each block row relays perRow of B's relay units (bk rows by one
  // access): whole B rows' accesses, or a divisor of them (the K block of
  // row m is then m div d, the lowering's terms in mod d).
  int64_t perRow = s.kbs * s.bSticks / s.mbs;
  if (perRow % s.bSticks == 0)
    return true;
  if (s.bSticks % perRow)
    return false;
  int64_t d = s.bSticks / perRow;
  return (s.bk * s.tn * s.elementBytes) % d == 0 && (s.nb * s.access) % d == 0;
}

namespace {

LogicalResult scheduleContraction(ContractionOp op, KernelOp kernel, const ArchModel &model,
                                  const Placement &placement) {
  Builder b(op.getContext());
  auto tensorOf = [&](DictionaryAttr transfer) {
    return cast<TensorOp>(SymbolTable::lookupSymbolIn(
        kernel, cast<FlatSymbolRefAttr>(transfer.get("tensor")).getValue()));
  };
  Type inputType = tensorOf(op.getA()).getElementType();
  Type outputType = tensorOf(op.getC()).getElementType();
  Type accType = op.getAccumulatorType();
  int64_t m = shapeOf(op.getA())[0], k = shapeOf(op.getA())[1], n = shapeOf(op.getB())[1];
  NodeId spad = placement.scratchpad;

  // A plan may put the contraction on the vector unit; so does a
  // description without a matrix unit that can run it (below).
  if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, "compute"));
      replayed && replayed.getValue() == "vector")
    return ktsched::detail::scheduleVectorContraction(op, kernel, model, placement,
                                             "the plan chose the vector unit");

  // The matrix unit, by capability and route.
  std::optional<NodeId> matrix;
  std::optional<UnitPorts> matrixPorts;
  std::string why = "no compute unit has a matrix shape";
  for (NodeId unit : model.computeUnits()) {
    const ComputeInfo &info = model.node(unit).compute;
    if (!info.isMatrix())
      continue;
    if (!info.issueCost("matmul")) {
      why = "@" + model.node(unit).name + " has no op class 'matmul'";
      continue;
    }
    if (!info.lanesFor(inputType)) {
      std::string t;
      llvm::raw_string_ostream os(t);
      os << inputType;
      why = "@" + model.node(unit).name + " has no lanes for " + t;
      continue;
    }
    std::optional<UnitPorts> ports = portsOf(model, spad, unit);
    if (!ports) {
      why = "@" + model.node(unit).name + " is not fed from and drained into @" +
            model.node(spad).name + " by movers";
      continue;
    }
    matrix = unit;
    matrixPorts = ports;
    break;
  }
  if (!matrix) {
    if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, "compute"));
        replayed && replayed.getValue() != "vector")
      return op.emitError("the plan's compute '")
             << replayed.getValue() << "' is not what @" << model.name()
             << " offers: no matrix unit can run this contraction (" << why << ")";
    return ktsched::detail::scheduleVectorContraction(op, kernel, model, placement,
                                             "no matrix unit can either (" + why + ")");
  }

  // The vector unit that relays operands into blocks and runs the epilogue
  // (its op classes: the epilogue body's, beside copy and cast).
  llvm::SetVector<StringRef> epilogueClasses;
  SmallVector<Attribute> epilogueOps;
  if (!op.getEpilogue().empty())
    for (auto vop : op.getEpilogue().front().getOps<VectorOp>()) {
      epilogueOps.push_back(b.getStringAttr(vop.getKind()));
      if (vop.getKind() != "const")
        epilogueClasses.insert(vop.getKind());
    }
  std::optional<NodeId> vector;
  std::optional<UnitPorts> vectorPorts;
  for (NodeId unit : model.computeUnits()) {
    const ComputeInfo &info = model.node(unit).compute;
    if (info.isMatrix() || !info.issueCost("copy") || !info.lanesFor(inputType) ||
        !info.lanesFor(accType) || (outputType != accType && !info.issueCost("cast")) ||
        llvm::any_of(epilogueClasses, [&](StringRef c) { return !info.issueCost(c); }))
      continue;
    std::optional<UnitPorts> ports = portsOf(model, spad, unit);
    if (!ports || ports->load != matrixPorts->load || ports->store != matrixPorts->store)
      continue;
    vector = unit;
    vectorPorts = ports;
    break;
  }
  if (!vector)
    return op.emitError("no vector unit beside @")
           << model.node(*matrix).name
           << " (op classes copy and cast, lanes for the operand and accumulator types, fed "
              "and drained by the same load and store units) lays the operands out in blocks"
           << (epilogueClasses.empty()
                   ? std::string()
                   : " and runs the epilogue (op classes " +
                         llvm::join(epilogueClasses.getArrayRef(), ", ") + ")");

  // The accumulator reaches the epilogue over a FIFO link of its own when
  // the description has one (then its block is one message, of any size
  // the FIFO holds), else through the store unit and scratchpad. The
  // matrix unit presets its accumulator itself where it has the `copy`
  // class, else it receives an init block from scratchpad.
  std::optional<LinkId> direct, preset;
  for (LinkId link : model.outLinks(*matrix))
    if (model.link(link).to == *vector && model.link(link).isFifo())
      direct = link;
  for (LinkId link : model.inLinks(*matrix))
    if (model.link(link).from == *vector && model.link(link).isFifo())
      preset = link;
  const ComputeInfo &matrixInfo = model.node(*matrix).compute;
  StringRef init = matrixInfo.issueCost("copy") && matrixInfo.lanesFor(accType) ? "constant"
                   : preset                                                      ? "vector"
                                                                                 : "scratchpad";
  bool presets = init != "scratchpad";

  std::optional<Bytes> inAccess = accessSize(model, matrixPorts->load, spad);
  std::optional<Bytes> outAccess = accessSize(model, matrixPorts->store, spad);
  if (!inAccess || !outAccess)
    return op.emitError("the load and store units of @")
           << model.node(*matrix).name << " must move one fixed access size each";
  // Stored rows and B rows must be whole accesses (one grid tile never
  // writes part of another's); where N is too narrow, consecutive grid
  // tiles along the dimension that steps N merge into one (`merge`).
  auto rowsWhole = [&](int64_t columns) {
    return (columns * bytesOf(inputType)) % inAccess->count() == 0 &&
           (columns * bytesOf(outputType)) % outAccess->count() == 0;
  };
  FailureOr<int64_t> mergedN = ktsched::detail::decideContractionMerge(op, kernel, n, rowsWhole, inAccess->count());
  if (failed(mergedN))
    return failure();
  n = *mergedN;

  int64_t inElems = inAccess->count() / bytesOf(inputType);
  int64_t accBytes = bytesOf(accType), outBytes = bytesOf(outputType);
  auto [rows, cols] = *model.node(*matrix).compute.matrixShape;
  int64_t lanes = *model.node(*matrix).compute.lanesFor(inputType);
  auto accBlockBytes = [&](int64_t bm, int64_t bn) { return bm * bn * accBytes; };

  // Blocks: A (bm x bk) and B (bk x bn) one access each, the accumulator
  // block one store access, dividing the tile; the most MACs per issue.
  auto fits = [&](int64_t bm, int64_t bn, int64_t bk) {
    int64_t accBlock = bm * bn * accBytes;
    if (bm * bk != inElems || bk * bn != inElems || m % bm || n % bn || k % bk)
      return false;
    // Through scratchpad, the block is one store access and, read back to
    // the epilogue, one load access; an init block is one load access.
    if (!direct && (accBlock != outAccess->count() || accBlock != inAccess->count()))
      return false;
    if (!presets && accBlock != inAccess->count())
      return false;
    if (direct &&
        accBlock > model.link(*direct).granule.count() * *model.link(*direct).fifoDepth)
      return false;
    if (preset && init == "vector" &&
        accBlock > model.link(*preset).granule.count() * *model.link(*preset).fifoDepth)
      return false;
    return true;
  };
  std::optional<std::array<int64_t, 3>> best;
  double bestRate = 0;
  for (int64_t bm = 1; bm <= inElems; ++bm) {
    if (inElems % bm)
      continue;
    int64_t bk = inElems / bm;
    if (inElems % bk)
      continue;
    int64_t bn = inElems / bk;
    if (!fits(bm, bn, bk))
      continue;
    int64_t issues = ((bm + rows - 1) / rows) * ((bn + cols - 1) / cols) *
                     ((bk + lanes - 1) / lanes);
    double rate = double(bm * bn * bk) / double(issues);
    if (!best || rate > bestRate) {
      best = {bm, bn, bk};
      bestRate = rate;
    }
  }
  if (!best)
    return op.emitError("no M x N x K block of the ")
           << m << "x" << n << "x" << k << " contraction fits @" << model.node(*matrix).name
           << ": an A block (M x K) and a B block (K x N) must each be one "
           << inAccess->count() << "-byte access of @" << model.node(matrixPorts->load).name
           << " and the accumulator block (M x N of " << accType << ") "
           << (direct ? "one message of the FIFO to the vector unit"
                      : ("one " + std::to_string(outAccess->count()) + "-byte access of @" +
                         model.node(matrixPorts->store).name))
           << ", each dividing the tile";
  // A plan's block is checked like every candidate.
  if (auto replayed = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, "block"))) {
    if (replayed.size() != 3 || !fits(replayed[0], replayed[1], replayed[2]))
      return op.emitError("the plan's block ")
             << replayed[0] << "x" << replayed[1] << "x" << replayed[2]
             << " is not legal on @" << model.node(*matrix).name
             << ": A and B blocks must each be one " << inAccess->count()
             << "-byte access, the accumulator block must leave as the description allows, "
                "each dividing the tile";
    best = {replayed[0], replayed[1], replayed[2]};
  }
  // Plain variables, not structured bindings: the lambdas below capture them.
  const int64_t bm = (*best)[0], bn = (*best)[1], bk = (*best)[2];
  // A plan's units and paths must be the ones the description offers
  // (rebinding is not supported).
  for (auto [key, value] :
       {std::pair<StringRef, std::string>("matrix_unit", model.node(*matrix).name),
        {"vector_unit", model.node(*vector).name},
        {"accumulator_path", direct ? "fifo" : "scratchpad"},
        {"accumulator_init", init.str()}})
    if (auto replayed = dyn_cast_or_null<StringAttr>(decisionValue(op, key));
        replayed && replayed.getValue() != value)
      return op.emitError("the plan's ")
             << key << " '" << replayed.getValue() << "' is not what @" << model.name()
             << " offers ('" << value << "'): rebinding a contraction is not supported";

  // The epilogue writes whole rows of stored elements, one access each.
  int64_t outElems = outAccess->count() / outBytes;
  if (!rowsWhole(n) || outElems % bn)
    return op.emitError("the stored rows (")
           << n << " elements of " << outputType << ") are not whole "
           << outAccess->count() << "-byte accesses of @" << model.node(matrixPorts->store).name
           << " made of whole accumulator blocks";
  if ((k * bytesOf(inputType)) % inAccess->count() || (n * bytesOf(inputType)) % inAccess->count())
    return op.emitError("the operand rows (K = ")
           << k << ", N = " << n << " elements of " << inputType << ") are not whole "
           << inAccess->count() << "-byte accesses of @" << model.node(matrixPorts->load).name;

  auto decision = [&](StringRef name, Attribute value) {
    if (!op->hasAttr(name))
      op->setAttr(name, decide(value, kHeuristic));
  };
  decision("compute", b.getStringAttr("matrix"));
  decision("matrix_unit", b.getStringAttr(model.node(*matrix).name));
  decision("vector_unit", b.getStringAttr(model.node(*vector).name));
  decision("block", b.getDenseI64ArrayAttr({bm, bn, bk}));
  decision("layout", b.getStringAttr("blocks"));
  decision("resident", b.getStringAttr("accumulator"));
  decision("loop_order", b.getStrArrayAttr({"m", "n", "k"}));
  decision("accumulator_path", b.getStringAttr(direct ? "fifo" : "scratchpad"));
  decision("accumulator_init", b.getStringAttr(init));
  // The epilogue runs per accumulator block on the vector unit, its row
  // operands DMA'd into scratchpad beside A and B: no round trip through
  // global memory.
  if (!epilogueOps.empty())
    decision("epilogue", b.getDictionaryAttr(
                             {b.getNamedAttr("unit", b.getStringAttr(model.node(*vector).name)),
                              b.getNamedAttr("ops", b.getArrayAttr(epilogueOps))}));
  op->setAttr("load_unit", b.getStringAttr(model.node(matrixPorts->load).name));
  op->setAttr("store_unit", b.getStringAttr(model.node(matrixPorts->store).name));
  op->setAttr("memory", b.getStringAttr(model.node(spad).name));

  // The step: an M x N panel of the grid tile and a K depth its operand
  // rows reach the scratchpad in, so that a tile larger than the
  // scratchpad runs as panels (each folding its K steps) instead of being
  // diagnosed. Between K steps the accumulator blocks of the panel wait in
  // scratchpad (`acc`, the accumulator type): `carry` says how they travel
  // between the matrix unit and the scratchpad — `scratchpad` where the
  // block is one access of the load and store units (pushed to and drained
  // from the matrix unit directly), `vector` where it is several and the
  // vector unit has FIFOs to and from the matrix unit (it joins the
  // accesses into the block and cuts the result back into accesses).
  std::string carry;
  if (accBlockBytes(bm, bn) == inAccess->count() && inAccess == outAccess)
    carry = "scratchpad";
  else if (direct && preset && accBlockBytes(bm, bn) % inAccess->count() == 0 &&
           inAccess == outAccess &&
           accBlockBytes(bm, bn) <=
               model.link(*preset).granule.count() * *model.link(*preset).fifoDepth)
    carry = "vector";
  int64_t es = bytesOf(inputType);
  Bytes alignment = memoryAlignment(model, spad);
  // The slot stride of an N-buffered region.
  auto aligned = [&](int64_t bytes) { return Bytes(bytes).alignTo(alignment).count(); };
  struct RowOperand {
    std::string name;
    int64_t elementBytes;
  };
  SmallVector<RowOperand> rowOperands;
  if (op.getEpilogueOperands())
    for (auto [i, t] : llvm::enumerate(*op.getEpilogueOperands())) {
      auto transfer = cast<DictionaryAttr>(t);
      int64_t elementBytes = bytesOf(tensorOf(transfer).getElementType());
      if ((shapeOf(transfer)[1] * elementBytes) % inAccess->count())
        return op.emitError("the epilogue's row operand ")
               << i << " (" << shapeOf(transfer)[1] * elementBytes << " bytes) is not whole "
               << inAccess->count() << "-byte accesses of @" << model.node(matrixPorts->load).name;
      rowOperands.push_back({"epilogue_" + std::to_string(i), elementBytes});
    }
  // Scratchpad regions of one step, aligned, from the memory's start:
  // operand rows N-buffered, their blocks times block_buffers, the
  // panel's row-operand columns once (filled with its first step, read at
  // its last), the panel's accumulators and stored rows.
  // Each sub-core instance of the split relays a share of B's K blocks
  // (every instance reads them all) and writes its own init block; A's
  // rows and blocks, the accumulators and stored rows are shared out by
  // block rows.
  auto layout = [&](int64_t tm, int64_t tn, int64_t tk, int64_t buffers, int64_t split,
                    Bytes &end, int64_t blockBuffers = 1) {
    SmallVector<std::pair<StringRef, int64_t>> regions = {
        {"a_rows", buffers * aligned(tm * tk * es)},
        {"b_rows", buffers * aligned(tk * tn * es)},
        {"a_blocks", blockBuffers * aligned(tm * tk * es)},
        {"b_blocks", blockBuffers * aligned(tk * tn * es)}};
    if (!presets)
      regions.push_back({"init", split * aligned(bm * bn * accBytes)});
    if (!direct || tk != k)
      regions.push_back({"acc", tm * tn * accBytes});
    regions.push_back({"c_rows", tm * tn * outBytes});
    for (const RowOperand &row : rowOperands)
      regions.push_back({row.name, aligned(tn * row.elementBytes)});
    Bytes next(0);
    for (auto &entry : regions)
      next = (next + Bytes(entry.second)).alignTo(alignment);
    end = next;
    return regions;
  };
  // Double-buffered where the innermost loop of more than one trip
  // (steps, then panel columns, then panel rows) has an even count: the
  // ring's slot is that loop's index mod 2.
  auto buffersFor = [&](int64_t tm, int64_t tn, int64_t tk) -> int64_t {
    for (int64_t trips : {k / tk, n / tn, m / tm})
      if (trips > 1)
        return trips % 2 == 0 ? 2 : 1;
    return 1;
  };
  auto legalStep = [&](int64_t tm, int64_t tn, int64_t tk, int64_t split) {
    return tm > 0 && tn > 0 && tk > 0 && m % tm == 0 && n % tn == 0 && k % tk == 0 &&
           tm % (bm * split) == 0 && tn % outElems == 0 && tn % bn == 0 && tk % (bk * split) == 0 &&
           (tn * es) % inAccess->count() == 0 && (tk * es) % inAccess->count() == 0 &&
           (tk == k || !carry.empty());
  };
  Bytes usable = model.node(spad).memory.usable();
  auto fitsScratchpad = [&](int64_t tm, int64_t tn, int64_t tk, int64_t buffers,
                            int64_t split, int64_t blockBuffers = 1) {
    Bytes end(0);
    (void)layout(tm, tn, tk, buffers, split, end, blockBuffers);
    return end <= usable;
  };
  // `split`: the sub-core instances sharing the scratchpad (spyre's two
  // corelets) divide each panel's block rows among them, so every matrix
  // unit of the core works; the most instances whose share of a step fits.
  int64_t sharers = sharersOf(model, spad, matrixPorts->load);
  SmallVector<int64_t, 2> splits;
  if (auto replayed = dyn_cast_or_null<IntegerAttr>(decisionValue(op, "split"))) {
    if (replayed.getInt() < 1 || replayed.getInt() > sharers)
      return op.emitError("the plan's split ")
             << replayed.getInt() << " is not between 1 and the " << sharers
             << " sub-core instances that share @" << model.node(spad).name;
    splits.push_back(replayed.getInt());
  } else {
    for (int64_t s = sharers; s >= 1; --s)
      splits.push_back(s);
  }
  std::optional<std::array<int64_t, 3>> step;
  int64_t split = splits.back();
  if (auto replayed = dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, "step"))) {
    // The plan's step with the most instances it divides among.
    for (int64_t s : splits)
      if (replayed.size() == 3 && legalStep(replayed[0], replayed[1], replayed[2], s)) {
        split = s;
        break;
      }
    if (replayed.size() != 3 || !legalStep(replayed[0], replayed[1], replayed[2], split))
      return op.emitError("the plan's step ")
             << replayed[0] << "x" << replayed[1] << "x" << replayed[2]
             << " is not legal: it must divide the " << m << "x" << n << "x" << k
             << " tile in whole blocks and whole accesses"
             << (carry.empty() ? ", with K whole (no carry of the accumulator between K "
                                 "steps on @" + model.name() + ")"
                               : std::string());
    step = {replayed[0], replayed[1], replayed[2]};
  } else {
    // The widest panel first (operand rows are relaid once per panel
    // pair), then the deepest K step (fewer carries), that fits.
    // The K step: on one core the deepest (fewer carries); where the
    // round's grid tiles share global memory among several cores, a
    // step's rows arrive slowly beside the units' work on them, so K runs
    // in at least four steps (the deepest such, else the most steps) and
    // the ring's next step arrives while this one is worked on, the
    // un-overlapped first fill short.
    int64_t roundTiles = 1;
    for (int64_t g : op->getAttrOfType<DenseI64ArrayAttr>("grid").asArrayRef())
      roundTiles *= g;
    bool sharedPort = std::min<int64_t>(roundTiles, placement.cores) > 1;
    auto kRank = [&](int64_t tk) -> std::pair<int, int64_t> {
      if (!sharedPort)
        return {0, tk};
      return k / tk >= 4 ? std::pair<int, int64_t>{1, tk} : std::pair<int, int64_t>{0, -tk};
    };
    for (int64_t s : splits) {
      double bestArea = 0;
      for (int64_t tm = m; tm >= bm; --tm)
        for (int64_t tn = n; tn >= bn; --tn) {
          if (double(tm) * double(tn) < bestArea || m % tm || n % tn)
            continue;
          for (int64_t tk = k; tk >= bk; --tk) {
            if (k % tk || !legalStep(tm, tn, tk, s) ||
                !fitsScratchpad(tm, tn, tk, buffersFor(tm, tn, tk), s))
              continue;
            if (!step || double(tm) * double(tn) > bestArea ||
                (double(tm) * double(tn) == bestArea && kRank(tk) > kRank((*step)[2]))) {
              step = {tm, tn, tk};
              bestArea = double(tm) * double(tn);
            }
            if (!sharedPort)
              break;
          }
        }
      if (step) {
        split = s;
        break;
      }
    }
  }
  if (!step)
    return op.emitError("no M x N x K step of the ")
           << m << "x" << n << "x" << k << " grid tile fits the "
           << usable.count() << " usable bytes of @" << model.node(spad).name
           << " (operand rows and blocks, accumulators, stored rows)"
           << (carry.empty() ? "; K cannot be split: the accumulator block is neither one "
                               "access nor carried by the vector unit"
                             : std::string());
  // Plain variables: a lambda below captures them.
  const int64_t tm = (*step)[0], tn = (*step)[1], tk = (*step)[2];
  int64_t buffers = buffersFor(tm, tn, tk);
  if (auto replayed = dyn_cast_or_null<IntegerAttr>(decisionValue(op, "buffers"))) {
    if (replayed.getInt() != 1 && replayed.getInt() != buffers)
      return op.emitError("the plan's buffers ")
             << replayed.getInt() << " is not 1 or " << buffers
             << " (a ring of two slots needs an even innermost loop of steps or panels)";
    buffers = replayed.getInt();
  }
  decision("step", b.getDenseI64ArrayAttr({tm, tn, tk}));
  op->setAttr("split", decide(b.getI64IntegerAttr(split),
                              decisionValue(op, "split") ? kPlan : kHeuristic));
  decision("buffers", b.getI64IntegerAttr(buffers));
  // `reuse`: each A block stays in the matrix unit's registers while R
  // B blocks stream, folding into R accumulator blocks along N (resident
  // too), so an mma takes one access instead of two; R divides the panel's
  // block columns and a stored access's blocks (the epilogue takes those
  // together), and the R accumulators, the A and the B block fit the
  // unit's registers. The largest such R.
  int64_t perAccess = outElems / bn;
  int64_t registers = model.vectorRegisterCount(*matrix);
  auto legalReuse = [&](int64_t r) {
    return r >= 1 && (tn / bn) % r == 0 && perAccess % r == 0 && r + 2 <= registers;
  };
  int64_t reuse = 1;
  for (int64_t r = perAccess; r > 1; --r)
    if (legalReuse(r)) {
      reuse = r;
      break;
    }
  if (auto replayed = dyn_cast_or_null<IntegerAttr>(decisionValue(op, "reuse"))) {
    if (!legalReuse(replayed.getInt()))
      return op.emitError("the plan's reuse ")
             << replayed.getInt() << " is not legal: it must divide the panel's " << tn / bn
             << " block columns and the " << perAccess
             << " blocks of a stored access, its accumulators and two operand blocks fitting "
                "the "
             << registers << " registers of @" << model.node(*matrix).name;
    reuse = replayed.getInt();
  }
  decision("reuse", b.getI64IntegerAttr(reuse));
  // How the accumulator is carried follows from the block and the
  // description (a fact, not a choice).
  op->setAttr("carry", b.getStringAttr(carry.empty() ? "none" : carry));

  // `block_buffers`: the operand blocks in a ring of two slots where the
  // relay of the next K step can run inside this step's products and the
  // second slot fits, so the vector unit's relay overlaps the matrix
  // unit's work instead of preceding it; else one.
  ContractionStepShape shape;
  shape.steps = k / tk, shape.buffers = buffers, shape.mbs = tm / bm / split,
  shape.kbs = tk / bk / split, shape.kb = tk / bk, shape.nb = tn / bn,
  shape.aSticks = tk * es / inAccess->count(), shape.bSticks = tn * es / inAccess->count(),
  shape.bk = bk, shape.tn = tn, shape.access = inAccess->count(), shape.elementBytes = es;
  bool overlapLegal = contractionOverlapLegal(shape) && fitsScratchpad(tm, tn, tk, buffers, split, 2);
  // Relaying ahead pays where the units, not global memory, set the pace:
  // the next step's rows must be in before this step's products start, so
  // where the round's cores share global memory and a step's rows take
  // longer to arrive than the units' work on a step (its multiply-adds on
  // the matrix unit and, one after the other without the overlap, the
  // vector unit's slices and concats of its blocks), each step would wait
  // for the next one's rows (and the tail grows by a step).
  bool unitsBound = true;
  {
    int64_t roundTiles = 1;
    for (int64_t g : op->getAttrOfType<DenseI64ArrayAttr>("grid").asArrayRef())
      roundTiles *= g;
    double active = double(std::min<int64_t>(roundTiles, placement.cores));
    auto globals = model.memoriesBacking(KtirSpace::Global);
    const ComputeInfo &unit = model.node(*matrix).compute;
    std::optional<int64_t> work = unit.workPerIssue(inputType);
    std::optional<Cycles> issue = unit.issueCost("matmul");
    std::optional<Cycles> copy = model.node(*vector).compute.issueCost("copy");
    if (!globals.empty() && model.node(globals.front()).memory.bandwidth && work && *work > 0 &&
        issue && copy) {
      double perCycle =
          double(model.node(globals.front()).memory.bandwidth->bytesPerCycle) / active;
      double rowsCycles = double((tm * tk + tk * tn) * es) / perCycle;
      double mmas = double(tm / bm / split) * double(tn / bn) * double(tk / bk);
      double mmaCycles = mmas * std::ceil(double(bm * bn * bk) / double(*work)) *
                         double(issue->count());
      double relayCycles = (double(shape.mbs * shape.kb) * double(2 * bm - 1) +
                            double(shape.kbs * shape.nb) * double(2 * bk - 1)) *
                           double(copy->count());
      unitsBound = rowsCycles <= mmaCycles + relayCycles;
    }
  }
  int64_t blockBuffers = overlapLegal && unitsBound ? 2 : 1;
  if (auto replayed = dyn_cast_or_null<IntegerAttr>(decisionValue(op, "block_buffers"))) {
    if (replayed.getInt() != 1 && !(replayed.getInt() == 2 && overlapLegal))
      return op.emitError("the plan's block_buffers ")
             << replayed.getInt()
             << " is not legal: 1, or 2 where K runs in an even number of steps with "
                "double-buffered rows, B's relay shared evenly "
                "over the block rows, and both slots fit";
    blockBuffers = replayed.getInt();
  }
  decision("block_buffers", b.getI64IntegerAttr(blockBuffers));

  Bytes end(0);
  auto regions = layout(tm, tn, tk, buffers, split, end, blockBuffers);
  if (end > usable)
    return op.emitError("the contraction's step ")
           << tm << "x" << tn << "x" << tk << " needs " << end.count() << " bytes of @"
           << model.node(spad).name
           << " (operand rows and blocks, accumulators, stored rows) but " << usable.count()
           << " are usable";
  SmallVector<NamedAttribute> placed;
  Bytes next(0);
  for (auto [name, bytes] : regions) {
    placed.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr({next.count(), bytes})));
    next = (next + Bytes(bytes)).alignTo(alignment);
  }
  op->setAttr("regions", b.getDictionaryAttr(placed));
  return success();
}

struct ScheduleContractionPass
    : ktflow::ktsched::impl::ScheduleContractionBase<ScheduleContractionPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](ContractionOp) { any = true; });
    if (!any)
      return;
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (ContractionOp op : kernel.getOps<ContractionOp>())
        if (failed(scheduleContraction(op, kernel, *model, *placement)))
          return signalPassFailure();
  }
};

} // namespace
