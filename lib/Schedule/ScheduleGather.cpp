//===- ScheduleGather.cpp - DMA decisions for gathers ---------------------===//
//
// Strategy. A ktsched.gather (one grid tile's rows of a table, named by a
// run of an index tensor, stored as a dense block) needs no compute unit:
// the DMA next to global memory moves it, with the indexed copy of the
// device (`gather`, which reads its indices from memory first and then
// the rows they name). This pass records that and everything the lowering
// (lib/Lower/GatherTransfer.cpp) follows:
//
//  * `transfer = dma_gather`: the strategy;
//  * the DMA: the first mover on the route from global memory to the
//    scratchpad, and `memory`, the first memory it lands data in (the
//    scratchpad itself, or a staging level such as deep's L2) — found by
//    the description's route search, never by name;
//  * `block`, the rows one gather moves, and `depth`, the row slots: the
//    index run is copied into the memory once per grid tile, then the rows
//    are gathered a block at a time into slot k mod depth and copied out
//    to the stored block. With two slots the copy out of one block
//    overlaps the gather of the next. The heuristic takes blocks of a
//    quarter of the tile's rows (fewer, larger transfers amortise the
//    DMA's issue cost and latency; four keep the two directions busy
//    together), as many as the memory holds;
//  * the regions: `index` (the index run as the whole granules covering
//    it, for any start within a granule) and `rows` (one slot), and, where
//    several DMA instances share one instance of the memory, the bytes
//    each instance's regions are apart (`instance_stride`).
//
// A scatter (`scatter` on the op: a block loaded directly, stored into the
// table's rows the indices name) is the same transfer the other way round,
// `transfer = dma_scatter`: per block the rows are copied into the slot,
// then scattered from it by the device's `scatter`; the index run, the
// block, the slots and the regions are chosen as for a gather.
//
// Rows that are not legal DMA runs in both memories, a table whose
// coordinates along the gathered dimension do not start at 0, and blocks
// the memory cannot hold are diagnosed at the gather.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SCHEDULEGATHER
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {

/// Blocks per grid tile the heuristic aims for, and the fewest bytes it
/// lets a block have where the tile has more (below that the DMA's issue
/// cost and latency are not amortised).
constexpr int64_t kBlocksPerTile = 4;
constexpr int64_t kMinBlockBytes = 8192;

TensorOp tensorOf(KernelOp kernel, DictionaryAttr transfer) {
  return cast<TensorOp>(SymbolTable::lookupSymbolIn(
      kernel, cast<FlatSymbolRefAttr>(transfer.get("tensor")).getValue()));
}

/// Why `bytes` is not a legal run of `rule`, or "".
std::string whyNotRun(const AccessRule &rule, Bytes bytes) {
  if (bytes < rule.minSize || bytes > rule.maxSize ||
      bytes.count() % std::max<int64_t>(1, rule.sizeMultiple.count()))
    return llvm::formatv("{0} bytes is not a DMA run of [{1}, {2}] bytes in multiples of {3}",
                         bytes.count(), rule.minSize.count(), rule.maxSize.count(),
                         rule.sizeMultiple.count())
        .str();
  return "";
}

LogicalResult scheduleGather(GatherOp op, KernelOp kernel, const ArchModel &model,
                             const Placement &placement) {
  Builder b(op.getContext());
  // The table is the side the indices name; `stored` the dense block.
  bool scatter = op.getScatter();
  StringRef verb = scatter ? "scattered" : "gathered";
  TensorOp table = tensorOf(kernel, scatter ? op.getDst() : op.getSrc());
  TensorOp index = tensorOf(kernel, op.getIndex());
  TensorOp stored = tensorOf(kernel, scatter ? op.getSrc() : op.getDst());
  ArrayRef<int64_t> shape = cast<DenseI64ArrayAttr>(op.getSrc().get("shape")).asArrayRef();
  int64_t es = elementSize(table.getElementType()).bytes.count();
  int64_t rows = shape[0], rowElements = 1;
  for (int64_t e : shape.drop_front())
    rowElements *= e;
  Bytes rowBytes(rowElements * es);

  // The gathered dimension's coordinates are the indices themselves: the
  // device reads row `index` of a view whose rows start at coordinate 0.
  if (table.getLowerCorner()[0] != 0)
    return op.emitError("the ") << verb << " table's rows start at coordinate "
           << table.getLowerCorner()[0] << ", not 0: offsetting the indices is missing";
  // Each gathered row is one run: its inner dimensions must be dense.
  int64_t dense = 1;
  for (size_t d = shape.size(); d-- > 1;) {
    if (table.getStrides()[d] != dense || stored.getStrides()[d] != dense)
      return op.emitError("a ") << verb << " row must be contiguous in the table and the "
                                << "block (strided inner dimensions are missing)";
    dense *= shape[d];
  }
  if (shape.size() > 1 && table.getShape()[shape.size() - 1] < shape.back())
    return op.emitError("the ") << verb << " rows are wider than the table";

  // The DMA next to global memory and the memory it lands data in.
  std::optional<Route> in = model.routeFrom(placement.global, NodeInstance{placement.scratchpad, 0});
  std::optional<Route> out = in ? model.routeTo(NodeInstance{placement.scratchpad, 0}, placement.global)
                                : std::nullopt;
  SmallVector<NodeId, 8> units = in ? model.unitsOn(*in) : SmallVector<NodeId, 8>();
  SmallVector<NodeId, 4> memories = in ? model.memoriesOn(*in) : SmallVector<NodeId, 4>();
  std::optional<NodeId> landing;
  for (NodeId m : memories)
    if (m != placement.global) {
      landing = m;
      break;
    }
  if (!in || !out || units.empty() || !model.node(units.front()).isMover() || !landing)
    return op.emitError("no DMA moves data between global memory and a memory of @")
           << model.name();
  NodeId dma = units.front(), memory = *landing;
  std::optional<Route> back = model.routeTo(NodeInstance{memory, 0}, placement.global);
  if (!back || model.unitsOn(*back).size() != 1 || model.unitsOn(*back).front() != dma)
    return op.emitError("@") << model.node(dma).name << " does not also move data from @"
                             << model.node(memory).name << " back to global memory";
  const AccessRule *global = model.node(dma).accessTo(placement.global);
  const AccessRule *local = model.node(dma).accessTo(memory);
  if (!global || !local)
    return op.emitError("@") << model.node(dma).name << " has no access rule for @"
                             << model.node(!global ? placement.global : memory).name;
  for (const AccessRule *rule : {global, local})
    if (std::string why = whyNotRun(*rule, rowBytes); !why.empty())
      return op.emitError("a ") << verb << " row of " << rowElements << " elements of "
                                << table.getElementType() << " is not one DMA run: " << why
                                << ": not lowered (" << (scatter ? "scattering" : "gathering")
                                << " part of a run is missing)";
  Bytes alignment = std::max({global->alignment, local->alignment, Bytes(1)});
  if ((table.getStrides()[0] * es) % alignment.count() ||
      (stored.getStrides()[0] * es) % alignment.count())
    return op.emitError("the table's rows (")
           << table.getStrides()[0] * es << " bytes apart) or the block's rows ("
           << stored.getStrides()[0] * es << " bytes apart) are not on " << alignment.count()
           << "-byte DMA boundaries: unaligned rows are not lowered";
  if (!model.node(placement.global).memory.alignment.isAlignedTo(global->alignment))
    return op.emitError("global memory's alignment does not hold the DMA's");

  // The index run, copied whole: from any start within a granule, the
  // whole granules covering it.
  Type indexType = index.getElementType();
  int64_t indexBytes = rows * elementSize(indexType).bytes.count();
  Bytes granule = std::max({alignment, global->sizeMultiple, local->sizeMultiple,
                            memoryAlignment(model, memory)});
  Bytes indexRegion =
      std::max(Bytes(granule.count() - 1 + indexBytes).alignTo(granule),
               std::max(global->minSize, local->minSize).alignTo(granule));

  // Several DMA instances sharing one instance of the memory each get their
  // own regions.
  int64_t sharers = std::max<int64_t>(
      1, model.nodeInstanceCount(dma) / std::max<int64_t>(1, model.nodeInstanceCount(memory)));
  Bytes usable = model.node(memory).memory.usable();
  Bytes perInstance(usable.count() / sharers);
  perInstance = Bytes(perInstance.count() / granule.count() * granule.count());
  Bytes rowRegion = perInstance > indexRegion ? perInstance - indexRegion : Bytes(0);

  auto decision = [&](StringRef name, Attribute value) {
    if (!op->hasAttr(name))
      op->setAttr(name, decide(value, kHeuristic));
  };
  int64_t fitRows = rowRegion.count() / rowBytes.count();
  int64_t block = std::max((rows + kBlocksPerTile - 1) / kBlocksPerTile,
                           (kMinBlockBytes + rowBytes.count() - 1) / rowBytes.count());
  block = std::min(block, fitRows / 2);
  int64_t depth = 2;
  if (block >= rows || (rows <= fitRows && fitRows < 2))
    block = rows, depth = 1; // one block: nothing to overlap
  if (block < 1)
    return op.emitError("a ") << verb << " row of "
           << rowBytes.count() << " bytes and the index run of " << indexRegion.count()
           << " do not fit the " << perInstance.count() << " usable bytes of @"
           << model.node(memory).name << (sharers > 1 ? " per DMA instance" : "");
  decision("transfer", b.getStringAttr(scatter ? "dma_scatter" : "dma_gather"));
  decision("block", b.getI64IntegerAttr(block));
  decision("depth", b.getI64IntegerAttr(depth));
  // A replayed block or depth must fit as well.
  int64_t chosenBlock = cast<IntegerAttr>(cast<DecisionAttr>(op->getAttr("block")).getValue()).getInt();
  int64_t chosenDepth = cast<IntegerAttr>(cast<DecisionAttr>(op->getAttr("depth")).getValue()).getInt();
  if (chosenBlock < 1 || chosenBlock > rows || chosenDepth < 1 ||
      Bytes(chosenBlock * chosenDepth * rowBytes.count()) > rowRegion)
    return op.emitError(scatter ? "a scatter block of " : "a gather block of ")
           << chosenBlock << " rows in " << chosenDepth << " slot(s) does not fit the "
           << rowRegion.count() << " bytes of @" << model.node(memory).name
           << " beside the index run, or the " << rows << " rows of a grid tile";
  op->setAttr("dma_unit", b.getStringAttr(model.node(dma).name));
  op->setAttr("memory", b.getStringAttr(model.node(memory).name));
  op->setAttr("granule", b.getI64IntegerAttr(granule.count()));
  Bytes slot(chosenBlock * rowBytes.count());
  op->setAttr("regions",
              b.getDictionaryAttr(
                  {b.getNamedAttr("index", b.getDenseI64ArrayAttr({0, indexRegion.count()})),
                   b.getNamedAttr("rows", b.getDenseI64ArrayAttr(
                                              {indexRegion.count(), slot.count()}))}));
  if (sharers > 1)
    op->setAttr("instance_stride", b.getI64IntegerAttr(perInstance.count()));
  return success();
}

struct ScheduleGatherPass : ktflow::ktsched::impl::ScheduleGatherBase<ScheduleGatherPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](GatherOp) { any = true; });
    if (!any)
      return;
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GatherOp op : kernel.getOps<GatherOp>())
        if (failed(scheduleGather(op, kernel, *model, *placement)))
          return signalPassFailure();
  }
};

} // namespace
