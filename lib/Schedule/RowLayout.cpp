//===- RowLayout.cpp - dense or padded rows in a scratchpad slot ----------===//
//
// Strategy: padded rows are preferred (every row starts on a vector of its
// slot, no realignment costs a compute op), so a buffer gets dense rows
// only where padding them would need a DMA transfer the description's
// global access rule forbids: a strided copy whose stride (the tensor's
// row stride) is not aligned to the rule's alignment. A dense slot is read
// as one run, which needs the tile's rows to follow each other in global
// memory: the tile spans whole rows of the tensor. Only loads of row
// reductions, and of column reductions whose rows are a few vectors each,
// are decided dense (the lowering realigns their rows in the compute unit;
// their result buffers keep their layout), and the loads and stores of
// element-wise groups without phases (the compute unit realigns the loads
// and packs each result row after the one before into whole vectors of the
// store slot; column operands beside them are held a vector of rows at a
// time). On two levels the inner buffer is a byte-for-byte copy of the
// outer one (the tile DMA copies whole slots), so both take the outer
// buffer's layout (a load's from the outer one it is copied from, a
// store's from the outer one it is copied into) and the inner slot keeps
// its DMA unit lead.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/RowLayout.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {

/// The buffer of the outer scratchpad level that `buffer` (of the inner
/// level of two) is copied from, slot for slot.
BufferOp sourceBuffer(BufferOp buffer) {
  if (buffer->getNumOperands() == 0)
    return BufferOp();
  auto result = dyn_cast<OpResult>(buffer->getOperand(0));
  auto stage = result ? dyn_cast<StageOp>(result.getOwner()) : StageOp();
  if (!stage || stage.getRole() != "dma_load" ||
      result.getResultNumber() >= stage->getNumOperands())
    return BufferOp();
  return stage->getOperand(result.getResultNumber()).getDefiningOp<BufferOp>();
}

/// The global-memory access rule of the DMA that fills `buffer` (on two
/// levels, of the one that fills the outer buffer it is copied from).
const AccessRule *fillingDmaRule(BufferOp buffer, const ArchModel &model) {
  if (BufferOp source = sourceBuffer(buffer))
    return fillingDmaRule(source, model);
  if (buffer->getNumOperands() == 0)
    return nullptr;
  auto stage = buffer->getOperand(0).getDefiningOp<StageOp>();
  if (!stage || stage.getRole() != "dma_load")
    return nullptr;
  return globalAccessRule(stage, model);
}

/// The global-memory access rule of the DMA that drains `buffer` (a store
/// buffer of one scratchpad level).
const AccessRule *drainingDmaRule(BufferOp buffer, const ArchModel &model) {
  for (Operation *user : buffer->getUsers()) {
    auto stage = dyn_cast<StageOp>(user);
    if (!stage || stage.getRole() != "dma_store")
      continue;
    return globalAccessRule(stage, model);
  }
  return nullptr;
}

/// Whether an element-wise group's rows may be dense: no phases. (Column
/// operands, one value per row, are held a vector of rows at a time beside
/// the packed rows; on two levels the compute unit vstores the packed
/// vectors into the inner slot, which the tile DMA copies whole.)
bool elementwiseMayBeDense(GroupOp group) { return !group->hasAttr("phases"); }

/// The buffer of the outer scratchpad level that `buffer` (a store buffer
/// of the inner level of two) is copied into, slot for slot: the group's
/// buffer of the same tensor that the DMA to global memory drains.
BufferOp destinationBuffer(BufferOp buffer, const ArchModel &model) {
  auto level = buffer->getAttrOfType<IntegerAttr>("level");
  auto group = buffer->getParentOfType<GroupOp>();
  if (!level || level.getInt() == 0 || !group)
    return BufferOp();
  StringRef tensor = bufferTensorName(buffer);
  for (BufferOp other : groupBuffers(group)) {
    auto otherLevel = other->getAttrOfType<IntegerAttr>("level");
    if (other != buffer && otherLevel && otherLevel.getInt() == 0 &&
        bufferTensorName(other) == tensor && drainingDmaRule(other, model))
      return other;
  }
  return BufferOp();
}

/// The tensor `buffer` holds a tile of.
TensorOp tensorOf(BufferOp buffer) {
  auto kernel = buffer->getParentOfType<KernelOp>();
  StringRef name = bufferTensorName(buffer);
  return kernel && !name.empty() ? kernel.lookupSymbol<TensorOp>(name) : TensorOp();
}

} // namespace

bool ktflow::ktsched::hasDenseRows(Operation *buffer) {
  auto decision = buffer->getAttrOfType<DecisionAttr>(kRowLayout);
  auto value = decision ? dyn_cast<StringAttr>(decision.getValue()) : nullptr;
  return value && value.getValue() == kDenseRows;
}

bool ktflow::ktsched::isStridedSpan(BufferOp buffer, ArrayRef<int64_t> tile) {
  if (BufferOp source = sourceBuffer(buffer))
    return isStridedSpan(source, tile);
  TensorOp tensor = tensorOf(buffer);
  if (!tensor || tensor.getStrides().size() != 2 || tile.size() != 2)
    return false;
  return tensor.getStrides()[0] > std::min(tile[1], tensor.getShape()[1]);
}

bool ktflow::ktsched::needsDenseRows(BufferOp buffer, ArrayRef<int64_t> tile,
                                      const ArchModel &model, bool allowSpans) {
  auto group = buffer->getParentOfType<GroupOp>();
  if (!group)
    return false;
  int64_t rank = group.getSpace().size();
  // Gathered rows are wherever their indices say: never one run.
  if (TensorOp tensor = tensorOf(buffer); tensor && tensor.getGatherIndex())
    return false;
  // A row reduction (the group folds the vector dimension), or a column
  // reduction whose fold, reading each row's vectors in memory order into
  // one accumulator each, fits the registers.
  ArrayRef<int64_t> reduced = group.getReduceDims();
  if (rank != 2 || reduced.size() > 1)
    return false;
  if (reduced.empty()) {
    // An element-wise group: its loads realigned, its stores packed in
    // the compute unit (lib/Lower/DenseStores.cpp).
    if (!elementwiseMayBeDense(group))
      return false;
  } else if (reduced.front() == rank - 2) {
    StageOp compute = computeStage(group);
    std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
    if (!lanes)
      return false;
    int64_t step = vectorStep(group, *lanes);
    if (!denseColumnFits(group, (tile[rank - 1] + step - 1) / step, model))
      return false;
  } else if (reduced.front() != rank - 1) {
    return false;
  }
  // On two scratchpad levels the inner buffer is a byte copy of the outer
  // one: dense exactly when that is (the same tile, the same rule).
  if (BufferOp source = sourceBuffer(buffer))
    return needsDenseRows(source, tile, model, allowSpans);
  if (BufferOp destination = destinationBuffer(buffer, model))
    return needsDenseRows(destination, tile, model, allowSpans);
  auto dims = buffer->getAttrOfType<DenseI64ArrayAttr>("dims");
  if (!dims || dims.size() != 2 || dims[0] != rank - 2 || dims[1] != rank - 1)
    return false;
  // A reduction's result buffers keep their layout; an element-wise
  // group's stores are dense like its loads.
  const AccessRule *rule = fillingDmaRule(buffer, model);
  if (!rule && reduced.empty())
    rule = drainingDmaRule(buffer, model);
  TensorOp tensor = tensorOf(buffer);
  if (!rule || !tensor || tensor.getStrides().size() != 2)
    return false;
  auto type = buffer->getAttrOfType<TypeAttr>("element_type");
  ElementSize size = elementSize(type ? type.getValue() : tensor.getElementType());
  int64_t rowStride = tensor.getStrides()[0];
  // A tile wider than the tensor's rows (a merged grid's) holds whole rows,
  // whose vectors are counted over the row's valid columns.
  int64_t columns = std::min(tile[rank - 1], tensor.getShape()[1]);
  SmallVector<int64_t> validTile(tile);
  validTile[rank - 1] = columns;
  bool wholeVectors = !paddedRowPitch(buffer, validTile, Bytes(1));
  if (tensor.getStrides()[1] != 1 || rowStride < columns)
    return false;
  // Whole rows, back to back: one run from the tile's first byte. A
  // reduction's loads may also cover a column block of rows further apart
  // (a strided span): the run then carries the gaps between the tile's
  // rows, which the compute unit skips as it realigns; element-wise
  // groups' packed stores need rows back to back.
  if (rowStride != columns &&
      (!allowSpans || reduced.empty() || !fillingDmaRule(buffer, model)))
    return false;
  // Rows of whole vectors need no padding: only a strided span's stride
  // can forbid their copy (whole rows back to back are one run).
  if (wholeVectors && rowStride == columns)
    return false;
  return !rule->allowsAddress(toBytes(Elements(rowStride), size));
}

bool ktflow::ktsched::denseColumnFits(GroupOp group, int64_t vectors, const ArchModel &model) {
  StageOp compute = computeStage(group);
  std::optional<NodeId> unit = boundComputeUnit(group, model);
  int64_t registers = unit ? model.vectorRegisterCount(*unit) : 0;
  if (!compute || registers <= 0)
    return vectors <= kDenseColumnVectors;
  Block &body = compute->getRegion(0).front();
  int64_t reductions = 0, ops = 0;
  for (Operation &op : body.without_terminator()) {
    ++ops;
    if (auto vop = dyn_cast<VectorOp>(op); vop && vop.getKind() == "reduce")
      ++reductions;
  }
  int64_t demand = vectors * std::max<int64_t>(1, reductions) + ops +
                   3 * (int64_t)body.getNumArguments() + 3;
  return demand <= registers;
}

Bytes ktflow::ktsched::denseRowsBytes(BufferOp buffer, ArrayRef<int64_t> tile,
                                      const ArchModel &model, Bytes granule) {
  auto type = buffer->getAttrOfType<TypeAttr>("element_type");
  ElementSize size = elementSize(type ? type.getValue() : Type());
  SmallVector<int64_t> shape = bufferShape(buffer, tile);
  int64_t elements = 1;
  for (int64_t e : shape)
    elements *= e;
  // A strided span (rows of a column block) also holds the gaps between
  // the rows: from the first row's first element to the last row's last.
  if (shape.size() == 2 && isStridedSpan(buffer, tile))
    elements = (shape[0] - 1) * tensorOf(buffer).getStrides()[0] + shape[1];
  const AccessRule *rule = fillingDmaRule(buffer, model);
  Bytes lead = rule ? std::max(Bytes(1), rule->alignment) : Bytes(0);
  auto group = buffer->getParentOfType<GroupOp>();
  StageOp compute = group ? computeStage(group) : StageOp();
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  Bytes vector = toBytes(Elements(lanes ? vectorStep(group, *lanes) : 1), size);
  return (toBytes(Elements(elements), size) + lead).alignTo(vector).alignTo(granule) +
         vector.alignTo(granule);
}

int64_t ktflow::ktsched::packedRowUnit(GroupOp group, const ArchModel &model) {
  ArrayRef<int64_t> space = group.getSpace();
  if (space.size() != 2 || !group.getReduceDims().empty())
    return 1;
  int64_t unit = 1;
  for (BufferOp buffer : groupBuffers(group)) {
    if (!drainingDmaRule(buffer, model) || !needsDenseRows(buffer, space, model))
      continue;
    const AccessRule *rule = drainingDmaRule(buffer, model);
    Bytes align = std::max({Bytes(1), rule->alignment, rule->sizeMultiple});
    auto type = buffer->getAttrOfType<TypeAttr>("element_type");
    // A merged tile wider than the tensor's rows packs the rows it holds.
    TensorOp tensor = tensorOf(buffer);
    int64_t columns = tensor && tensor.getShape().size() == 2
                          ? std::min(space.back(), tensor.getShape()[1])
                          : space.back();
    Bytes row = toBytes(Elements(columns), elementSize(type ? type.getValue() : Type()));
    unit = std::lcm(unit, align.count() / std::gcd(row.count(), align.count()));
  }
  return unit;
}

bool ktflow::ktsched::keepsWholeRows(GroupOp group, const ArchModel &model) {
  ArrayRef<int64_t> space = group.getSpace();
  ArrayRef<int64_t> reduced = group.getReduceDims();
  if (space.size() != 2 || reduced.size() != 1 || reduced.front() != 0)
    return false;
  return llvm::any_of(groupBuffers(group), [&](BufferOp buffer) {
    return needsDenseRows(buffer, space, model);
  });
}
