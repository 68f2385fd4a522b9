//===- ScheduleContraction.cpp - matrix-unit decisions for contractions ---===//
//
// Strategy. A ktsched.contraction (one grid tile's C = A x B + init, the
// K sum carried in the declared accumulator type) is bound and blocked
// here, so that the lowering (lib/Lower/MatrixCompute.cpp) only follows
// recorded decisions:
//
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
//    registers across the whole K sum (loop order m, n, k: k innermost);
//    both operand tiles stay resident in scratchpad for the grid tile;
//  * the split over sub-core instances: one instance per core (the
//    tile's blocks are not divided among sub-cores yet).
//
// Each decision is a #ktsched.decision (source heuristic, or plan when a
// plan replays it). The scratchpad regions (facts) follow: the row-major
// A and B tiles the DMA fills, their block copies, the accumulator blocks,
// the init block and the stored rows; a grid tile that does not fit the
// scratchpad's usable bytes is diagnosed with its sizes. A description
// that offers no binding or no legal block is diagnosed at the contraction,
// naming the constraint.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/Builders.h"

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
  if (!matrix)
    return op.emitError("no matrix unit of @")
           << model.name() << " can run this contraction (" << why
           << "); a contraction on the vector unit is not built yet";

  // The vector unit that relays operands into blocks and runs the epilogue.
  std::optional<NodeId> vector;
  std::optional<UnitPorts> vectorPorts;
  for (NodeId unit : model.computeUnits()) {
    const ComputeInfo &info = model.node(unit).compute;
    if (info.isMatrix() || !info.issueCost("copy") || !info.lanesFor(inputType) ||
        !info.lanesFor(accType) || (outputType != accType && !info.issueCost("cast")))
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
              "and drained by the same load and store units) lays the operands out in blocks";

  std::optional<Bytes> inAccess = accessSize(model, matrixPorts->load, spad);
  std::optional<Bytes> outAccess = accessSize(model, matrixPorts->store, spad);
  if (!inAccess || !outAccess)
    return op.emitError("the load and store units of @")
           << model.node(*matrix).name << " must move one fixed access size each";
  int64_t inElems = inAccess->count() / bytesOf(inputType);
  int64_t accBytes = bytesOf(accType), outBytes = bytesOf(outputType);
  auto [rows, cols] = *model.node(*matrix).compute.matrixShape;
  int64_t lanes = *model.node(*matrix).compute.lanesFor(inputType);

  // Blocks: A (bm x bk) and B (bk x bn) one access each, the accumulator
  // block one store access, dividing the tile; the most MACs per issue.
  std::optional<std::array<int64_t, 3>> best;
  double bestRate = 0;
  for (int64_t bm = 1; bm <= inElems; ++bm) {
    if (inElems % bm)
      continue;
    int64_t bk = inElems / bm;
    if (inElems % bk)
      continue;
    int64_t bn = inElems / bk;
    if (bm * bn * accBytes != outAccess->count() || m % bm || n % bn || k % bk)
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
           << " and the accumulator block (M x N of " << accType << ") one "
           << outAccess->count() << "-byte access of @" << model.node(matrixPorts->store).name
           << ", each dividing the tile";
  auto [bm, bn, bk] = *best;

  // The epilogue writes whole rows of stored elements, one access each.
  int64_t outElems = outAccess->count() / outBytes;
  if ((n * outBytes) % outAccess->count() || outElems % bn)
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
  decision("matrix_unit", b.getStringAttr(model.node(*matrix).name));
  decision("vector_unit", b.getStringAttr(model.node(*vector).name));
  decision("block", b.getDenseI64ArrayAttr({bm, bn, bk}));
  decision("layout", b.getStringAttr("blocks"));
  decision("resident", b.getStringAttr("accumulator"));
  decision("loop_order", b.getStrArrayAttr({"m", "n", "k"}));
  decision("split", b.getI64IntegerAttr(1));
  op->setAttr("load_unit", b.getStringAttr(model.node(matrixPorts->load).name));
  op->setAttr("store_unit", b.getStringAttr(model.node(matrixPorts->store).name));
  op->setAttr("memory", b.getStringAttr(model.node(spad).name));

  // Scratchpad regions of one grid tile, aligned, from the memory's start.
  Bytes alignment = memoryAlignment(model, spad);
  int64_t es = bytesOf(inputType);
  SmallVector<std::pair<StringRef, int64_t>> regions = {
      {"a_rows", m * k * es},   {"b_rows", k * n * es},         {"a_blocks", m * k * es},
      {"b_blocks", k * n * es}, {"init", bm * bn * accBytes},   {"acc", m * n * accBytes},
      {"c_rows", m * n * outBytes}};
  SmallVector<NamedAttribute> placed;
  Bytes next(0);
  for (auto [name, bytes] : regions) {
    placed.push_back(b.getNamedAttr(name, b.getDenseI64ArrayAttr({next.count(), bytes})));
    next = (next + Bytes(bytes)).alignTo(alignment);
  }
  Bytes usable = model.node(spad).memory.usable();
  if (next > usable)
    return op.emitError("the contraction's grid tile needs ")
           << next.count() << " bytes of @" << model.node(spad).name
           << " (A and B rows and blocks, accumulator blocks, stored rows) but "
           << usable.count() << " are usable: tiling M, N or K within a grid tile is missing";
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
    auto model = getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    std::optional<Placement> placement = findPlacement(*model, module.getLoc());
    if (!placement)
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (ContractionOp op : kernel.getOps<ContractionOp>())
        if (failed(scheduleContraction(op, kernel, *model, *placement)))
          return signalPassFailure();
  }
};

} // namespace
