//===- ScheduleUtils.cpp - shared helpers of the scheduler passes ---------===//
//
// Small queries several passes share: tracing KTIR index arithmetic into
// affine expressions over (grid coordinates, loop variable), and reading
// the buffers and the tile of a group back from the schedule IR, so that
// sizes are always derived from the decisions in the IR and never cached.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ScheduleUtils.h"

#include <numeric>

#include "ktflow/KTDP/KTDPOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

FailureOr<AffineExpr> ktflow::ktsched::traceAffineIndex(Value value, Value loopIv) {
  if (!loopIv)
    return traceAffineIndexOver(value, ArrayRef<Value>());
  return traceAffineIndexOver(value, ArrayRef<Value>(loopIv));
}

FailureOr<AffineExpr> ktflow::ktsched::combineAffineOperands(Operation *def, AffineExpr lhs,
                                                             AffineExpr rhs) {
  auto rhsConst = dyn_cast<AffineConstantExpr>(rhs);
  if (isa<arith::AddIOp>(def))
    return lhs + rhs;
  if (isa<arith::SubIOp>(def))
    return lhs - rhs;
  if (isa<arith::MulIOp>(def)) {
    if (rhsConst || isa<AffineConstantExpr>(lhs))
      return lhs * rhs;
    return failure();
  }
  if (rhsConst && rhsConst.getValue() > 0) {
    // Grid coordinates, loop variables and launch values are non-negative,
    // so truncating and flooring division agree on what they index.
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def))
      return lhs.floorDiv(rhsConst.getValue());
    if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
      return lhs.ceilDiv(rhsConst.getValue());
    if (isa<arith::RemUIOp, arith::RemSIOp>(def))
      return lhs % rhsConst.getValue();
  }
  return failure();
}

FailureOr<AffineExpr> ktflow::ktsched::traceAffineIndexOver(Value value, ArrayRef<Value> loopIvs) {
  MLIRContext *ctx = value.getContext();
  for (auto [k, iv] : llvm::enumerate(loopIvs))
    if (iv && value == iv)
      return getAffineDimExpr(3 + k, ctx);
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  if (auto tileId = dyn_cast<ktdp::GetComputeTileIdOp>(def))
    return getAffineDimExpr(cast<OpResult>(value).getResultNumber(), ctx);
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
      return getAffineConstantExpr(i.getInt(), ctx);
    return failure();
  }
  // Casts between index and integers keep the value (subscripts and bounds
  // are far inside both ranges).
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return traceAffineIndexOver(def->getOperand(0), loopIvs);
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> lhs = traceAffineIndexOver(def->getOperand(0), loopIvs);
  FailureOr<AffineExpr> rhs = traceAffineIndexOver(def->getOperand(1), loopIvs);
  if (failed(lhs) || failed(rhs))
    return failure();
  return combineAffineOperands(def, *lhs, *rhs);
}

FailureOr<SmallVector<AffineExpr>> ktflow::ktsched::traceLoopBound(Value value, bool upper) {
  if (FailureOr<AffineExpr> e = traceAffineIndex(value, Value()); succeeded(e))
    return SmallVector<AffineExpr>{*e};
  Operation *def = value.getDefiningOp();
  bool clamp = upper ? isa_and_nonnull<arith::MinSIOp, arith::MinUIOp>(def)
                     : isa_and_nonnull<arith::MaxSIOp, arith::MaxUIOp>(def);
  if (!clamp)
    return failure();
  SmallVector<AffineExpr> exprs;
  for (Value operand : def->getOperands()) {
    FailureOr<SmallVector<AffineExpr>> part = traceLoopBound(operand, upper);
    if (failed(part))
      return failure();
    exprs.append(part->begin(), part->end());
  }
  return exprs;
}

int64_t ktflow::ktsched::evalLoopBound(AffineMap map, ArrayRef<int64_t> coords, bool upper) {
  SmallVector<int64_t> at(coords);
  at.resize(map.getNumDims(), 0);
  SmallVector<int64_t> values = map.compose(at);
  return upper ? *llvm::min_element(values) : *llvm::max_element(values);
}

ElementSize ktflow::ktsched::elementSize(Type type) {
  unsigned bits = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  return ElementSize{Bytes((bits + 7) / 8)};
}

SmallVector<BufferOp> ktflow::ktsched::dmaLoadBuffers(GroupOp group) {
  SmallVector<BufferOp> buffers;
  for (BufferOp buffer : groupBuffers(group)) {
    if (buffer->getNumOperands() == 0)
      continue;
    if (auto stage = buffer->getOperand(0).getDefiningOp<StageOp>();
        stage && stage.getRole() == "dma_load")
      buffers.push_back(buffer);
  }
  return buffers;
}

StringRef ktflow::ktsched::bufferTensorName(BufferOp buffer) {
  if (auto tensor = buffer->getAttrOfType<FlatSymbolRefAttr>("tensor"))
    return tensor.getValue();
  return "";
}

Elements ktflow::ktsched::tensorDataEnd(TensorOp tensor) {
  // A distributed view's own fields address nothing: its partitions'
  // tensors say where their data ends.
  if (tensor.getPartitions())
    return Elements(0);
  SmallVector<int64_t> sizes(tensor.getViewSizes().value_or(tensor.getShape()));
  // A gathered tensor's rows are the table's: its data ends with the
  // table's last row, whichever positions the indices have.
  if (std::optional<int64_t> bound = tensor.getGatherBound(); bound && !sizes.empty())
    sizes[0] = *bound;
  int64_t last = tensor.getOffset();
  for (auto [size, stride] : llvm::zip(sizes, tensor.getStrides()))
    last += (size - 1) * stride;
  return Elements(last + 1);
}

bool ktflow::ktsched::namesTensor(Operation *root, llvm::function_ref<bool(TensorOp)> which) {
  auto kernel = isa<KernelOp>(root) ? cast<KernelOp>(root) : root->getParentOfType<KernelOp>();
  if (!kernel)
    return false;
  bool found = false;
  root->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](FlatSymbolRefAttr ref) {
      if (auto tensor = kernel.lookupSymbol<TensorOp>(ref.getValue()))
        found |= which(tensor);
    });
  });
  return found;
}

bool ktflow::ktsched::touchesGathered(Operation *root) {
  return namesTensor(root, [](TensorOp tensor) { return tensor.getGatherIndex().has_value(); });
}

bool ktflow::ktsched::updatesGatheredRows(GroupOp group) {
  auto kernel = group->getParentOfType<KernelOp>();
  if (!kernel)
    return false;
  llvm::SmallDenseSet<int64_t, 4> gatheredFrom, scatteredInto;
  auto note = [&](Attribute tensorRef, bool isStore) {
    auto ref = llvm::dyn_cast_or_null<FlatSymbolRefAttr>(tensorRef);
    auto tensor = ref ? kernel.lookupSymbol<TensorOp>(ref.getValue()) : TensorOp();
    if (tensor && tensor.getGatherIndex())
      (isStore ? scatteredInto : gatheredFrom).insert(tensor.getArg());
  };
  // Before the initial pipeline the body's loads and stores name the
  // tensors; after it, the transfers of the load and store stages do.
  group.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      note(load.getTensorAttr(), false);
    else if (auto store = dyn_cast<StoreOp>(op))
      note(store.getTensorAttr(), true);
    else if (auto stage = dyn_cast<StageOp>(op))
      if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
        for (Attribute transfer : transfers)
          if (auto dict = dyn_cast<DictionaryAttr>(transfer))
            note(dict.get("tensor"), stage.getRole().contains("store"));
  });
  return llvm::any_of(scatteredInto, [&](int64_t arg) { return gatheredFrom.contains(arg); });
}

PipelineOp ktflow::ktsched::outerPipeline(GroupOp group) {
  for (Operation &op : group.getBody().front())
    if (auto pipeline = dyn_cast<PipelineOp>(op))
      return pipeline;
  return {};
}

SmallVector<BufferOp> ktflow::ktsched::groupBuffers(GroupOp group) {
  SmallVector<BufferOp> buffers;
  group.walk<WalkOrder::PreOrder>([&](BufferOp buffer) { buffers.push_back(buffer); });
  return buffers;
}

SmallVector<int64_t> ktflow::ktsched::groupTile(GroupOp group) {
  if (PipelineOp pipeline = outerPipeline(group)) {
    SmallVector<int64_t> tile = decisionInts(pipeline, "tile");
    if (!tile.empty())
      return tile;
  }
  return SmallVector<int64_t>(group.getSpace());
}

bool ktflow::ktsched::streamableGroup(GroupOp group) {
  ArrayRef<int64_t> reduced = group.getReduceDims();
  int64_t rank = group.getSpace().size();
  return group->hasAttr("phases") && rank >= 2 && reduced.size() == 1 &&
         reduced.front() == rank - 1;
}

std::optional<int64_t> ktflow::ktsched::streamColumns(GroupOp group) {
  PipelineOp pipeline = outerPipeline(group);
  if (!pipeline)
    return std::nullopt;
  auto residency = llvm::dyn_cast_or_null<StringAttr>(decisionValue(pipeline, kResidency));
  if (!residency || residency.getValue() != kStreamed)
    return std::nullopt;
  return decisionInt(pipeline, kStreamColumns);
}

SmallVector<int64_t> ktflow::ktsched::slotTile(GroupOp group) {
  SmallVector<int64_t> tile = groupTile(group);
  if (std::optional<int64_t> columns = streamColumns(group); columns && !tile.empty())
    tile.back() = std::min(tile.back(), *columns);
  return tile;
}

SmallVector<int64_t> ktflow::ktsched::bufferShape(BufferOp buffer, ArrayRef<int64_t> tile) {
  SmallVector<int64_t> shape;
  auto dims = buffer->getAttrOfType<DenseI64ArrayAttr>("dims");
  if (dims)
    for (int64_t d : dims.asArrayRef())
      shape.push_back(d >= 0 && d < (int64_t)tile.size() ? tile[d] : 1);
  if (shape.empty())
    shape.push_back(1);
  return shape;
}

/// Whether `buffer` holds a column operand (its only dimension is the
/// space's second-to-last: one value per row) of an elementwise group or,
/// loaded, of a fold over the last or the second-to-last dimension, which
/// the lowering holds in registers a vector of rows at a time (a row
/// fold's results have the same dimension, but are whole result vectors).
static bool isColumnOperand(BufferOp buffer) {
  auto group = buffer->getParentOfType<GroupOp>();
  auto dims = buffer->getAttrOfType<DenseI64ArrayAttr>("dims");
  if (!group || !dims || dims.empty())
    return false;
  int64_t rank = group.getSpace().size();
  if (!group.getReduceDims().empty()) {
    auto source = dyn_cast<OpResult>(buffer.getSource());
    auto stage = source ? dyn_cast<StageOp>(source.getOwner()) : StageOp();
    if (!stage || stage.getRole() != "dma_load" ||
        llvm::any_of(group.getReduceDims(), [&](int64_t d) { return d < rank - 2; }))
      return false;
  }
  return rank >= 2 &&
         llvm::all_of(dims.asArrayRef(), [&](int64_t d) { return d == rank - 2; });
}

/// Bytes of one vector step of `buffer`'s element type (ks::vectorStep
/// elements), if the group's compute stage has decided its vector.
static std::optional<Bytes> vectorStepBytes(BufferOp buffer) {
  auto group = buffer->getParentOfType<GroupOp>();
  StageOp compute = group ? computeStage(group) : StageOp();
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  auto type = buffer->getAttrOfType<TypeAttr>("element_type");
  if (!lanes || *lanes <= 0 || !type)
    return std::nullopt;
  return toBytes(Elements(vectorStep(group, *lanes)), elementSize(type.getValue()));
}

/// Whether the slice a column operand's buffer receives starts inside a
/// `granule` on some grid tile (or loop iteration): grid tiles of a few rows
/// each. The lowering then reads the slice from the granule it starts in
/// (docs/run.md), which takes one granule more than the slice. Unknown
/// origins count as unaligned.
static bool sliceMayStartInsideGranule(BufferOp buffer, Bytes granule) {
  auto kernel = buffer->getParentOfType<KernelOp>();
  auto group = buffer->getParentOfType<GroupOp>();
  auto tensorName = buffer->getAttrOfType<FlatSymbolRefAttr>("tensor");
  TensorOp tensor =
      kernel && tensorName ? kernel.lookupSymbol<TensorOp>(tensorName.getValue()) : TensorOp();
  auto result = dyn_cast<OpResult>(buffer.getSource());
  auto stage = result ? dyn_cast<StageOp>(result.getOwner()) : StageOp();
  auto transfers = stage ? stage->getAttrOfType<ArrayAttr>("transfers") : ArrayAttr();
  if (!tensor || !transfers || result.getResultNumber() >= transfers.size())
    return true;
  auto transfer = dyn_cast<DictionaryAttr>(transfers[result.getResultNumber()]);
  auto origin = transfer ? transfer.getAs<AffineMapAttr>("origin") : AffineMapAttr();
  ArrayRef<int64_t> grid = kernel.getGrid(), strides = tensor.getStrides(),
                    lower = tensor.getLowerCorner();
  if (!origin || grid.size() != 3 || origin.getValue().getNumResults() != strides.size() ||
      lower.size() != strides.size() || granule.count() <= 0)
    return true;
  AffineMap map = origin.getValue();
  auto loop = group ? group->getAttrOfType<DictionaryAttr>("loop") : DictionaryAttr();
  AffineMapAttr lb = loop ? loop.getAs<AffineMapAttr>("lb") : AffineMapAttr();
  auto step = loop ? dyn_cast_or_null<IntegerAttr>(loop.get("step")) : IntegerAttr();
  ElementSize size = elementSize(tensor.getElementType());
  for (int64_t t = 0, tiles = grid[0] * grid[1] * grid[2]; t < tiles; ++t) {
    SmallVector<int64_t> coords = {t % grid[0], (t / grid[0]) % grid[1], t / (grid[0] * grid[1])};
    // The first two iterations of the group's loop: origins are affine in
    // the induction variable, so the rest repeat their alignment.
    SmallVector<int64_t, 2> ivs = {0};
    if (lb && step) {
      int64_t first = evalLoopBound(lb.getValue(), coords, /*upper=*/false);
      ivs = {first, first + step.getInt()};
    }
    for (int64_t iv : ivs) {
      SmallVector<int64_t> at = coords;
      at.push_back(iv);
      at.resize(map.getNumDims(), 0);
      SmallVector<int64_t> o = map.compose(at);
      int64_t elements = tensor.getOffset();
      for (size_t i = 0; i < strides.size(); ++i)
        elements += (o[i] - lower[i]) * strides[i];
      if (!toBytes(Elements(elements), size).isAlignedTo(granule))
        return true;
    }
  }
  return false;
}

Bytes ktflow::ktsched::bufferBytes(BufferOp buffer, ArrayRef<int64_t> tile, Bytes granule) {
  auto type = buffer->getAttrOfType<TypeAttr>("element_type");
  ElementSize size = elementSize(type ? type.getValue() : Type());
  SmallVector<int64_t> shape = bufferShape(buffer, tile);
  int64_t rows = 1;
  for (int64_t e : ArrayRef<int64_t>(shape).drop_back())
    rows *= e;
  Bytes row = toBytes(Elements(shape.back()), size).alignTo(granule);
  // Rows padded to whole vectors (the `row_pitch` AllocateScratchpad
  // records, whose alignment includes the granule).
  if (std::optional<Bytes> pitch = paddedRowPitch(buffer, tile, granule))
    row = std::max(row, *pitch);
  if (isColumnOperand(buffer)) {
    // A column operand is read as whole vectors of its type (held a
    // vector of rows at a time); a slice read from the granule it starts
    // in needs that granule more, or a vector more where a vector is wider
    // (the last block of rows may cross into the next vector).
    std::optional<Bytes> vector = vectorStepBytes(buffer);
    if (vector)
      row = std::max(row, row.alignTo(*vector));
    if (sliceMayStartInsideGranule(buffer, granule))
      row = row + std::max(granule, vector.value_or(granule));
  }
  return row * rows;
}

std::optional<Bytes> ktflow::ktsched::paddedRowPitch(BufferOp buffer, ArrayRef<int64_t> tile,
                                                     Bytes alignment) {
  auto group = buffer->getParentOfType<GroupOp>();
  auto dims = buffer->getAttrOfType<DenseI64ArrayAttr>("dims");
  if (!group || !dims || dims.size() < 2)
    return std::nullopt;
  int64_t rank = group.getSpace().size();
  if (dims.asArrayRef().back() != rank - 1)
    return std::nullopt;
  StageOp compute = computeStage(group);
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  if (!lanes || *lanes <= 0)
    return std::nullopt;
  int64_t step = vectorStep(group, *lanes);
  SmallVector<int64_t> shape = bufferShape(buffer, tile);
  int64_t rows = 1;
  for (int64_t e : ArrayRef<int64_t>(shape).drop_back())
    rows *= e;
  int64_t columns = shape.back();
  if (rows <= 1 || columns % step == 0)
    return std::nullopt;
  auto type = buffer->getAttrOfType<TypeAttr>("element_type");
  ElementSize size = elementSize(type ? type.getValue() : Type());
  Bytes whole = toBytes(Elements((columns + step - 1) / step * step), size);
  return whole.alignTo(std::max(alignment, Bytes(1)));
}

StageOp ktflow::ktsched::computeStage(GroupOp group) {
  StageOp found;
  group.walk([&](StageOp stage) {
    if (stage.getRole() == "compute")
      found = stage;
  });
  return found;
}

int64_t ktflow::ktsched::columnOperandRowUnit(GroupOp group, Bytes granule) {
  int64_t rank = group.getSpace().size(), unit = 1;
  if (rank < 2)
    return 1;
  for (BufferOp buffer : groupBuffers(group)) {
    auto dims = buffer->getAttrOfType<DenseI64ArrayAttr>("dims");
    if (!dims || dims.empty() ||
        !llvm::all_of(dims.asArrayRef(), [&](int64_t d) { return d == rank - 2; }))
      continue;
    auto type = buffer->getAttrOfType<TypeAttr>("element_type");
    int64_t size = elementSize(type ? type.getValue() : Type()).bytes.count();
    if (size > 0)
      unit = std::lcm(unit, std::max<int64_t>(1, granule.count() / size));
  }
  return unit;
}

int64_t ktflow::ktsched::vectorStep(GroupOp group, int64_t lanes) {
  int64_t narrowest = 0;
  for (BufferOp buffer : groupBuffers(group)) {
    auto type = buffer->getAttrOfType<TypeAttr>("element_type");
    if (!type)
      continue;
    int64_t size = elementSize(type.getValue()).bytes.count();
    if (size > 0 && (narrowest == 0 || size < narrowest))
      narrowest = size;
  }
  int64_t bytes = lanes * elementSize(group.getElementType()).bytes.count();
  if (narrowest == 0 || bytes % narrowest != 0)
    return lanes;
  return bytes / narrowest;
}

int64_t ktflow::ktsched::granuleElements(GroupOp group, Bytes granule) {
  auto elements = [&](Type type) {
    return std::max<int64_t>(1, granule.count() / elementSize(type).bytes.count());
  };
  int64_t unit = elements(group.getElementType());
  for (BufferOp buffer : groupBuffers(group))
    if (auto type = buffer->getAttrOfType<TypeAttr>("element_type"))
      unit = std::lcm(unit, elements(type.getValue()));
  return unit;
}

std::optional<int64_t> ktflow::ktsched::linearCoefficient(AffineExpr expr, unsigned dim) {
  if (!expr.isFunctionOfDim(dim))
    return 0;
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return d.getPosition() == dim ? 1 : 0;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> lhs = linearCoefficient(binary.getLHS(), dim);
  std::optional<int64_t> rhs = linearCoefficient(binary.getRHS(), dim);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *lhs + *rhs;
  case AffineExprKind::Mul:
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getRHS()))
      return *lhs * c.getValue();
    if (auto c = dyn_cast<AffineConstantExpr>(binary.getLHS()))
      return *rhs * c.getValue();
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

bool ktflow::ktsched::reductionResultsLeave(GroupOp group) {
  ArrayRef<int64_t> reduced = group.getReduceDims();
  if (reduced.empty())
    return false;
  if (!group->hasAttr("phases"))
    return true;
  auto dropsReduced = [&](ArrayRef<int64_t> dims) {
    return llvm::any_of(reduced, [&](int64_t d) { return !llvm::is_contained(dims, d); });
  };
  bool leave = false;
  // Before the pipeline is built the group holds store ops; after, the
  // store stages carry the transfers.
  group.walk([&](StoreOp store) { leave |= dropsReduced(store.getDims()); });
  group.walk([&](StageOp stage) {
    if (stage.getRole() != "store" && stage.getRole() != "dma_store")
      return;
    if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
      for (auto transfer : transfers.getAsRange<DictionaryAttr>())
        if (auto dims = transfer.getAs<DenseI64ArrayAttr>("dims"))
          leave |= dropsReduced(dims.asArrayRef());
  });
  return leave;
}

std::optional<SmallVector<StageOp>> ktflow::ktsched::initialPipelineMovers(GroupOp group) {
  SmallVector<StageOp> movers;
  bool wellFormed = true;
  group.walk([&](StageOp stage) {
    StringRef role = stage.getRole();
    if (role == "load" || role == "store")
      movers.push_back(stage);
    else if (role != "compute")
      wellFormed = false;
    if ((role == "load" || role == "store") && !stage->getAttrOfType<ArrayAttr>("transfers"))
      wellFormed = false;
  });
  if (!wellFormed || movers.empty())
    return std::nullopt;
  return movers;
}
