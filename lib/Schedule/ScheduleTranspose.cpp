//===- ScheduleTranspose.cpp - vector-unit decisions for transposes -------===//
//
// Strategy. A ktsched.transpose (one grid tile's R x C source block stored
// as its C x R transpose) cannot be moved element by element: every
// description's DMA and load/store accesses are whole granules or vectors.
// So the transpose is done by the vector unit in registers, and this pass
// records that and everything the lowering (lib/Lower/TransposeCompute.cpp)
// follows:
//
//  * `transpose = vector`: the strategy;
//  * the vector unit: a compute unit with the `copy` class (slice, concat)
//    and lanes for the element type, fed from the scratchpad by a load unit
//    and drained into it by a store unit, each moving one fixed access of
//    A elements, or accessing the scratchpad itself in such accesses —
//    found by the description's route search, never by name;
//  * the sub-block [H, W]: a transposed row is built in pieces of H source
//    rows (H = A when R is a multiple of A, else H = R and one access holds
//    A / R transposed rows), and W source columns are transposed per pass
//    over those H rows: W accumulator registers, each receiving one
//    element slice per row; the load unit pushes each source access once
//    per pass. The largest W that divides the columns of one access,
//    holds whole accesses (a multiple of A / H) and leaves the registers a
//    row, a piece and a join need is taken: fewer passes, fewer pushes;
//  * `step`: the grid tile runs in steps of S source rows (a multiple of H
//    dividing R), each copied in, transposed and copied out before the
//    next; S = R where the whole tile fits the scratchpad, else the largest
//    S whose regions fit and whose transposed pieces (S elements of each
//    transposed row) are whole granules of global memory, so each step's
//    copy out is C runs of whole granules;
//  * the scratchpad regions: `rows`, the step's source rows as the DMA
//    lands them (each row its covering span of whole granules), and `cols`,
//    the step's C x S transposed pieces, dense; where two DMAs connect
//    global memory and the scratchpad through a staging memory (deep's L2),
//    a copy of both per core there (`staging_memory`, `staging_stride`).
//
// Each decision is a #ktsched.decision (source heuristic). A description
// without such a vector unit, a block the accesses cannot hold, or a tile
// the scratchpad cannot hold is diagnosed at the transpose.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/Builders.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SCHEDULETRANSPOSE
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {

/// Registers a pass over H rows needs beside its W accumulators: the
/// received row, the sliced element, the concatenated result, and one
/// more for joining pieces of several transposed rows into one access.
constexpr int64_t kScratchRegisters = 4;

struct UnitPorts {
  NodeId load = 0, store = 0;
};

/// The mover right before `unit` on the route from `memory` and the one
/// right after it on the route back, if both are movers.
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

std::optional<Bytes> accessSize(const ArchModel &model, NodeId mover, NodeId memory) {
  const AccessRule *rule = model.node(mover).accessTo(memory);
  if (!rule || rule->minSize != rule->maxSize)
    return std::nullopt;
  return rule->minSize;
}

LogicalResult scheduleTranspose(TransposeOp op, KernelOp kernel, const ArchModel &model,
                                const Placement &placement) {
  Builder b(op.getContext());
  auto tensor = cast<TensorOp>(SymbolTable::lookupSymbolIn(
      kernel, cast<FlatSymbolRefAttr>(op.getSrc().get("tensor")).getValue()));
  Type type = tensor.getElementType();
  int64_t es = elementSize(type).bytes.count();
  ArrayRef<int64_t> shape = cast<DenseI64ArrayAttr>(op.getSrc().get("shape")).asArrayRef();
  int64_t rows = shape[0], cols = shape[1];
  NodeId spad = placement.scratchpad;

  // The DMAs between global memory and the scratchpad: one mover each
  // way, or two through a staging memory (deep's L2).
  std::optional<ScratchpadPath> path = findScratchpadPath(model, placement);
  if (!path)
    return op.emitError("a transpose is lowered only where one mover (a DMA) connects global "
                        "memory and @")
           << model.node(spad).name << ", or two through one staging memory";
  std::optional<NodeId> staging = path->staging;

  // The vector unit, by capability and route: fed and drained by a load
  // and a store unit, or accessing the scratchpad itself.
  std::optional<NodeId> vector;
  std::optional<UnitPorts> ports;
  for (NodeId unit : model.computeUnits()) {
    const ComputeInfo &info = model.node(unit).compute;
    if (info.isMatrix() || !info.issueCost("copy") || !info.lanesFor(type))
      continue;
    ports = portsOf(model, spad, unit);
    if (ports || accessSize(model, unit, spad)) {
      vector = unit;
      break;
    }
  }
  if (!vector)
    return op.emitError("no vector unit of @")
           << model.name() << " (op class copy, lanes for " << type
           << ") reaches @" << model.node(spad).name
           << " through a load and a store unit or by accesses of one size";
  std::optional<Bytes> inAccess = accessSize(model, ports ? ports->load : *vector, spad);
  std::optional<Bytes> outAccess = accessSize(model, ports ? ports->store : *vector, spad);
  if (!inAccess || !outAccess || *inAccess != *outAccess || inAccess->count() % es)
    return op.emitError("the accesses of @")
           << model.node(*vector).name << " to @" << model.node(spad).name
           << " must be of one fixed size, the same both ways";
  int64_t access = inAccess->count() / es;

  // Pieces of H source rows; P pieces (transposed rows) per access.
  int64_t pieceRows = 0;
  if (rows >= access && rows % access == 0)
    pieceRows = access;
  else if (rows < access && access % rows == 0)
    pieceRows = rows;
  else
    return op.emitError("the transposed rows (")
           << rows << " elements of " << type << ") are neither whole " << inAccess->count()
           << "-byte accesses nor an equal share of one";
  int64_t perAccess = access / pieceRows;
  // The source columns one access of a source row holds.
  int64_t accessCols = cols >= access ? access : cols;
  if (cols >= access && cols % access)
    return op.emitError("the source rows (")
           << cols << " elements of " << type << ") are not whole " << inAccess->count()
           << "-byte accesses";
  if (accessCols % perAccess)
    return op.emitError("the ") << cols << " source columns do not fill whole accesses of "
                                << perAccess << " transposed rows each";
  int64_t registers = model.vectorRegisterCount(*vector);
  int64_t width = 0;
  for (int64_t w = perAccess; w <= accessCols; w += perAccess)
    if (accessCols % w == 0 && w + kScratchRegisters <= registers)
      width = w;
  if (!width)
    return op.emitError("@") << model.node(*vector).name << "'s " << registers
                             << " vector registers hold no sub-block of " << perAccess
                             << " accumulators and " << kScratchRegisters << " more";

  auto decision = [&](StringRef name, Attribute value) {
    if (!op->hasAttr(name))
      op->setAttr(name, decide(value, kHeuristic));
  };
  decision("transpose", b.getStringAttr("vector"));
  decision("vector_unit", b.getStringAttr(model.node(*vector).name));
  decision("block", b.getDenseI64ArrayAttr({pieceRows, width}));
  if (ports) {
    op->setAttr("load_unit", b.getStringAttr(model.node(ports->load).name));
    op->setAttr("store_unit", b.getStringAttr(model.node(ports->store).name));
  }
  op->setAttr("memory", b.getStringAttr(model.node(spad).name));

  // Source rows land as whole granules: a row's span starts at the granule
  // holding its first element, so it may start up to a granule early.
  Bytes granule = std::max({memoryAlignment(model, placement.global),
                            memoryAlignment(model, spad), memoryGranule(model, placement.global),
                            *inAccess});
  op->setAttr("granule", b.getI64IntegerAttr(granule.count()));
  int64_t pitch = Bytes(cols * es + granule.count() - es).alignTo(granule).count();
  Bytes alignment = memoryAlignment(model, spad);
  // The regions of a step of `stepRows` source rows, and the bytes they end at.
  auto layOut = [&](int64_t stepRows, SmallVectorImpl<NamedAttribute> &placed) {
    Bytes next(0);
    for (auto [name, bytes] :
         {std::pair<StringRef, int64_t>{"rows", stepRows * pitch},
          std::pair<StringRef, int64_t>{"cols", stepRows * cols * es}}) {
      placed.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr({next.count(), bytes})));
      next = (next + Bytes(bytes)).alignTo(alignment);
    }
    return next;
  };
  Bytes usable = model.node(spad).memory.usable();
  std::optional<Bytes> stagingUsable;
  if (staging)
    stagingUsable = model.node(*staging).memory.usable();
  auto fits = [&](int64_t stepRows) {
    SmallVector<NamedAttribute> placed;
    Bytes end = layOut(stepRows, placed);
    if (end > usable)
      return false;
    return !staging ||
           end.alignTo(memoryAlignment(model, *staging)) * placement.cores <= *stagingUsable;
  };
  // The whole tile where it fits, else the largest legal step that does.
  int64_t stepRows = fits(rows) ? rows : 0;
  if (!stepRows)
    for (int64_t s = rows - pieceRows; s >= pieceRows; s -= pieceRows)
      if (rows % s == 0 && (s * es) % granule.count() == 0 && fits(s)) {
        stepRows = s;
        break;
      }
  if (!stepRows) {
    SmallVector<NamedAttribute> placed;
    Bytes need = layOut(rows, placed);
    if (need > usable)
      return op.emitError("the transpose's grid tile needs ")
             << need.count() << " bytes of @" << model.node(spad).name
             << " (source and transposed rows) but " << usable.count()
             << " are usable, and no step of whole " << granule.count()
             << "-byte transposed pieces fits";
    return op.emitError("the transpose's grid tiles need ")
           << (need.alignTo(memoryAlignment(model, *staging)) * placement.cores).count()
           << " bytes of @" << model.node(*staging).name << " (one tile per core) but "
           << stagingUsable->count()
           << " are usable, and no step of whole transposed granules fits";
  }
  decision("step", b.getI64IntegerAttr(stepRows));
  // A plan's step stands where it is legal.
  stepRows = cast<IntegerAttr>(cast<DecisionAttr>(op->getAttr("step")).getValue()).getInt();
  if (stepRows <= 0 || rows % stepRows || stepRows % pieceRows ||
      (stepRows != rows && (stepRows * es) % granule.count()))
    return op.emitError("transpose step ")
           << stepRows << " is not a multiple of " << pieceRows << " dividing " << rows
           << " rows whose transposed pieces are whole " << granule.count() << "-byte granules";
  SmallVector<NamedAttribute> placed;
  Bytes next = layOut(stepRows, placed);
  op->setAttr("regions", b.getDictionaryAttr(placed));
  if (!staging)
    return success();
  // Through a staging memory each core's grid tile has its own copy of
  // both regions there, `staging_stride` bytes apart.
  Bytes stride = next.alignTo(memoryAlignment(model, *staging));
  op->setAttr("staging_memory", b.getStringAttr(model.node(*staging).name));
  op->setAttr("staging_stride", b.getI64IntegerAttr(stride.count()));
  return success();
}

struct ScheduleTransposePass
    : ktflow::ktsched::impl::ScheduleTransposeBase<ScheduleTransposePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](TransposeOp) { any = true; });
    if (!any)
      return;
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (TransposeOp op : kernel.getOps<TransposeOp>())
        if (failed(scheduleTranspose(op, kernel, *model, *placement)))
          return signalPassFailure();
  }
};

} // namespace
