//===- FormComputeGroups.cpp - KTIR kernels to compute groups -------------===//
//
// Strategy: each kernel (func.func) becomes a ktsched.kernel. Every view a
// load or store reaches becomes a ktsched.tensor (kernel argument, offset,
// shape, strides, lower corner). Stores are grouped per block (kernel body
// or loop body) and per iteration space; a group is everything from the
// stores back to the loads they need. The tensor ops of the backward slice
// are fused into one ktsched.compute body of element-wise ktsched.vop ops:
// walking top-down from each store, every value gets the iteration
// dimensions it runs along, so broadcasts (linalg.broadcast, splat,
// collapse to a scalar) disappear into the operand's `dims` and reductions
// become a `reduce` vop over a dimension. Tile origins and loop bounds are
// affine maps over (g0, g1, g2, iv). The input check has already rejected
// everything this pass does not know.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/Schedule/LaunchValues.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SetVector.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_FORMCOMPUTEGROUPS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// Dimensions of a value: per tensor dimension, the iteration dimension it
/// runs along, or -1 for a size-1 dimension that runs along none.
using Dims = SmallVector<int64_t, 4>;

struct GroupKey {
  SmallVector<int64_t> space, reduceDims;
  bool operator==(const GroupKey &o) const {
    return space == o.space && reduceDims == o.reduceDims;
  }
};

class KernelBuilder {
public:
  KernelBuilder(func::FuncOp func) : func(func), builder(func) {}
  LogicalResult build();

private:
  LogicalResult buildTensors(KernelOp kernel);
  /// Groups load every input before they store: a load that follows a
  /// store to the same kernel argument in program order would read the old
  /// contents, so it is rejected.
  LogicalResult checkNoLoadAfterStore();
  /// A store of a linalg.matmul's result (possibly through one cast): a
  /// ktsched.contraction instead of a group.
  LogicalResult buildContraction(StringRef name, ktdp::StoreOp store,
                                 linalg::MatmulOp matmul);
  /// A store of a load through a transposing access tile: a
  /// ktsched.transpose instead of a group.
  LogicalResult buildTranspose(StringRef name, ktdp::StoreOp store, ktdp::LoadOp load);
  /// A store of a load through an indirect access tile (a gather), or a
  /// store through one of a load through a direct tile (a scatter): a
  /// ktsched.gather instead of a group.
  LogicalResult buildGather(StringRef name, ktdp::StoreOp store, ktdp::LoadOp load);
  /// The indirect tile's corner per subscript (the outermost: the position
  /// in the index tensor), affine in the grid coordinates.
  FailureOr<SmallVector<AffineExpr>> indirectCorner(ktdp::ConstructIndirectAccessTileOp tile);
  /// A gathered tensor for an indirect tile whose loads feed compute: the
  /// table's rows in index order (KTSchedOps.td, `gather_index`).
  LogicalResult buildGatheredTensor(KernelOp kernel, ktdp::ConstructIndirectAccessTileOp tile,
                                    unsigned number);
  /// `{tensor, origin, shape}` of a direct tile outside loops, in its
  /// memory's coordinates (shape: its set's box).
  FailureOr<DictionaryAttr> wholeTileTransfer(ktdp::ConstructAccessTileOp tile);
  DictionaryAttr transferAttr(Operation *view, AffineMap origin, ArrayRef<int64_t> shape);
  LogicalResult buildGroup(StringRef name, const GroupKey &key,
                           SmallVectorImpl<ktdp::StoreOp> &stores, scf::ForOp loop);
  FailureOr<AffineMap> tileOrigin(ktdp::ConstructAccessTileOp tile, Value iv);
  /// The body value of `value` running along `dims`, creating ops as needed.
  FailureOr<Value> bodyValue(Value value, const Dims &dims);
  FailureOr<Value> constantScalar(Value value);

  func::FuncOp func;
  OpBuilder builder;
  DenseMap<Operation *, StringAttr> tensorOf; // view (or gathering tile) -> tensor symbol
  // Per group being built:
  GroupOp group;
  Value loopIv;
  Block *body = nullptr;
  ComputeOp compute;
  SmallVector<Value> computeInputs;
  std::map<std::pair<void *, Dims>, Value> memo;
  Type widestType;
  /// The loops ktsched-absorb-loops folded into the group's access tiles.
  llvm::SetVector<Attribute> absorbedLoops;
};

} // namespace

static void markPhases(ComputeOp compute, const GroupKey &key, ArrayRef<ktdp::StoreOp> stores);

static SmallVector<int64_t> gridOf(func::FuncOp func) {
  SmallVector<int64_t> grid;
  if (auto array = func->getAttrOfType<ArrayAttr>("grid")) {
    for (Attribute a : array)
      if (auto i = dyn_cast<IntegerAttr>(a))
        grid.push_back(i.getInt());
  } else if (auto dense = func->getAttrOfType<DenseI64ArrayAttr>("grid")) {
    grid.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  }
  while (grid.size() < 3)
    grid.push_back(1);
  return grid;
}

LogicalResult KernelBuilder::buildTensors(KernelOp kernel) {
  builder.setInsertionPointToEnd(&kernel.getBody().front());
  DenseMap<int64_t, unsigned> perArg;
  WalkResult result = func.walk([&](ktdp::ConstructMemoryViewOp view) {
    Value base = view.getOffset();
    int64_t offset = 0;
    if (auto add = base.getDefiningOp<arith::AddIOp>()) {
      auto c = getConstantIntValue(add.getRhs());
      if (!c)
        return view.emitError("view base must be a kernel argument plus a constant"),
               WalkResult::interrupt();
      offset = *c;
      base = add.getLhs();
    }
    auto arg = dyn_cast<BlockArgument>(base);
    if (!arg || arg.getOwner() != &func.getBody().front())
      return view.emitError("view base must be a kernel argument (a base address): "
                            "constant addresses are not supported"),
             WalkResult::interrupt();
    unsigned n = perArg[arg.getArgNumber()]++;
    std::string name = "arg" + std::to_string(arg.getArgNumber());
    if (n)
      name += "_" + std::to_string(n);
    ktdp::BoundingBox box = ktdp::computeBoundingBox(*view.getCoordinateSet());
    // Points outside the coordinate set are masked like points past the
    // sizes (ktir.md §5.2): the valid shape is the narrower of the two.
    SmallVector<int64_t> sizes(view.getStaticSizes());
    SmallVector<int64_t> valid(sizes);
    for (size_t d = 0; d < valid.size() && d < box.upper.size(); ++d)
      valid[d] = std::clamp<int64_t>(box.upper[d] - box.lower[d] + 1, 0, sizes[d]);
    auto tensor = TensorOp::create(builder, 
        view.getLoc(), name, arg.getArgNumber(), offset, view.getElementType(),
        valid, view.getStaticStrides(), box.lower,
        valid == sizes ? DenseI64ArrayAttr() : builder.getDenseI64ArrayAttr(sizes), ArrayAttr(),
        FlatSymbolRefAttr(), IntegerAttr());
    tensorOf[view] = tensor.getSymNameAttr();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // A distributed view (ktir.md §5.3) is a tensor over the box of its
  // partitions' union that names them; ktsched-resolve-partitions checks
  // them and resolves which partitions each grid tile's transfers touch.
  unsigned distributed = 0;
  result = func.walk([&](ktdp::ConstructDistributedMemoryViewOp view) {
    SmallVector<Attribute> parts;
    SmallVector<int64_t> lower, upper;
    TensorOp first;
    for (Value partition : view.getPartitions()) {
      Operation *def = partition.getDefiningOp();
      if (!def || !tensorOf.count(def))
        return view.emitError("a partition of a distributed view must be a "
                              "ktdp.construct_memory_view"),
               WalkResult::interrupt();
      auto tensor = cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensorOf[def]));
      if (!first)
        first = tensor;
      parts.push_back(FlatSymbolRefAttr::get(tensorOf[def]));
      for (size_t d = 0; d < tensor.getShape().size(); ++d) {
        int64_t lo = tensor.getLowerCorner()[d], hi = lo + tensor.getShape()[d];
        if (lower.size() <= d) {
          lower.push_back(lo);
          upper.push_back(hi);
        }
        lower[d] = std::min(lower[d], lo);
        upper[d] = std::max(upper[d], hi);
      }
    }
    if (!first)
      return view.emitError("a distributed view without partitions"), WalkResult::interrupt();
    SmallVector<int64_t> shape;
    for (size_t d = 0; d < lower.size(); ++d)
      shape.push_back(upper[d] - lower[d]);
    auto tensor = TensorOp::create(
        builder, view.getLoc(), "dist" + std::to_string(distributed++), first.getArg(),
        first.getOffset(), first.getElementType(), shape, first.getStrides(), lower,
        DenseI64ArrayAttr(), builder.getArrayAttr(parts), FlatSymbolRefAttr(), IntegerAttr());
    tensorOf[view] = tensor.getSymNameAttr();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Rows gathered for compute ops, or computed rows scattered (a gather
  // stored directly, or a loaded block scattered, is a ktsched.gather of
  // its own).
  unsigned gathered = 0;
  result = func.walk([&](ktdp::ConstructIndirectAccessTileOp tile) {
    bool feedsCompute = llvm::any_of(tile->getUsers(), [](Operation *user) {
      // A store of computed rows through it (a scatter of results).
      if (auto store = dyn_cast<ktdp::StoreOp>(user))
        return !store.getValue().getDefiningOp<ktdp::LoadOp>();
      auto load = dyn_cast<ktdp::LoadOp>(user);
      if (!load)
        return false;
      Value loaded = load->getResult(0);
      return !(loaded.hasOneUse() && isa<ktdp::StoreOp>(*loaded.getUsers().begin()));
    });
    if (feedsCompute && failed(buildGatheredTensor(kernel, tile, gathered++)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

FailureOr<SmallVector<AffineExpr>>
KernelBuilder::indirectCorner(ktdp::ConstructIndirectAccessTileOp tile) {
  // Subscript d is map_d(variables; captured values); the input check made
  // each run along its own variable, so the block's corner is every map at
  // the variable space's lower corner, the captured values traced to the
  // grid coordinates.
  SmallVector<AffineExpr> captured;
  for (Value value : tile.getCaptured()) {
    FailureOr<AffineExpr> e = traceAffineIndex(value, Value());
    if (failed(e))
      return tile.emitError("subscript not affine in the grid coordinates");
    captured.push_back(*e);
  }
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getVariablesSpaceSet());
  MLIRContext *ctx = func.getContext();
  SmallVector<AffineExpr> corner;
  for (int64_t lower : box.lower)
    corner.push_back(getAffineConstantExpr(lower, ctx));
  SmallVector<AffineExpr> at;
  for (unsigned d = 0; d < tile.getNumSubscripts(); ++d) {
    AffineMap map = tile.getSubscriptMap(d).replaceDimsAndSymbols(corner, captured,
                                                                  kOriginDims, 0);
    at.push_back(simplifyAffineExpr(map.getResult(0), kOriginDims, 0));
  }
  return at;
}

LogicalResult KernelBuilder::buildGatheredTensor(KernelOp kernel,
                                                 ktdp::ConstructIndirectAccessTileOp tile,
                                                 unsigned number) {
  Operation *view = tile.getBase().getDefiningOp();
  Operation *indexView = tile.getIndexViewForDim(0).getDefiningOp();
  if (!view || !indexView || !tensorOf.count(view) || !tensorOf.count(indexView))
    return tile.emitError("a gathered table and its index tensor must be memory views");
  auto table = cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensorOf[view]));
  auto index = cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensorOf[indexView]));
  if (table.getLowerCorner().front() != 0)
    return tile.emitError("'ktdp.construct_indirect_access_tile' not supported: the gathered "
                          "table's rows must start at coordinate 0 (the indices are row "
                          "numbers)");
  // Positions along the index tensor, the table's inner dimensions.
  SmallVector<int64_t> shape(table.getShape()), lower(table.getLowerCorner());
  shape[0] = index.getShape().front();
  lower[0] = index.getLowerCorner().front();
  auto tensor = TensorOp::create(
      builder, tile.getLoc(), "gathered" + std::to_string(number), table.getArg(),
      table.getOffset(), table.getElementType(), shape, table.getStrides(), lower,
      DenseI64ArrayAttr(), ArrayAttr(), FlatSymbolRefAttr::get(index.getSymNameAttr()),
      builder.getI64IntegerAttr(table.getShape().front()));
  tensorOf[tile] = tensor.getSymNameAttr();
  return success();
}

FailureOr<AffineMap> KernelBuilder::tileOrigin(ktdp::ConstructAccessTileOp tile, Value iv) {
  if (Attribute absorbed = tile->getAttr("ktsched.absorbed_loop"))
    absorbedLoops.insert(absorbed);
  SmallVector<AffineExpr> operands;
  for (Value index : tile.getIndices()) {
    FailureOr<AffineExpr> e = traceAffineIndex(index, iv);
    if (failed(e))
      return tile.emitError("subscript not affine in the grid coordinates and loop variable");
    operands.push_back(*e);
  }
  AffineMap baseMap = tile.getBaseMap();
  unsigned nDims = baseMap.getNumDims();
  AffineMap anchor = baseMap.replaceDimsAndSymbols(
      ArrayRef(operands).take_front(nDims), ArrayRef(operands).drop_front(nDims),
      kOriginDims, 0);
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  SmallVector<AffineExpr> exprs;
  for (auto [i, e] : llvm::enumerate(anchor.getResults()))
    exprs.push_back(e + box.lower[i]);
  return AffineMap::get(kOriginDims, 0, exprs, func.getContext());
}

FailureOr<Value> KernelBuilder::constantScalar(Value value) {
  OpBuilder b(compute.getBody());
  b.setInsertionPointToEnd(&compute.getBody().front());
  Attribute attr;
  Type type;
  if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
    attr = constant.getValue();
    if (auto dense = dyn_cast<SplatElementsAttr>(attr))
      attr = dense.getSplatValue<Attribute>();
    type = cast<TypedAttr>(attr).getType();
  } else if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    return constantScalar(fill.getInputs()[0]);
  } else if (auto splat = value.getDefiningOp<tensor::SplatOp>()) {
    return constantScalar(splat.getInput());
  } else {
    return failure();
  }
  auto op = VectorOp::create(b, value.getLoc(), type, "const", ValueRange());
  op->setAttr("value", attr);
  return op.getResult();
}

/// Where `input` is a float value widened exactly from a narrower float
/// type (a `cast`) and `init` a constant the narrow type holds exactly:
/// the narrow value and the init as a constant of the narrow type.
static std::optional<std::pair<Value, Value>> narrowExtremum(OpBuilder &b, Value input,
                                                            Value init) {
  auto cast = input.getDefiningOp<VectorOp>();
  auto constant = init.getDefiningOp<VectorOp>();
  if (!cast || cast.getKind() != "cast" || cast->getNumOperands() != 1 || !constant ||
      constant.getKind() != "const")
    return std::nullopt;
  Value narrow = cast->getOperand(0);
  auto from = dyn_cast<FloatType>(narrow.getType());
  auto to = dyn_cast<FloatType>(input.getType());
  auto value = constant->getAttrOfType<FloatAttr>("value");
  if (!from || !to || !value || from.getWidth() >= to.getWidth() ||
      !llvm::APFloat::isRepresentableAsNormalIn(from.getFloatSemantics(),
                                                to.getFloatSemantics()))
    return std::nullopt;
  // Every value of `from` is one of `to` (f16, bf16 into f32); the init
  // must be one of `from`'s.
  llvm::APFloat narrowed = value.getValue();
  bool lost = false;
  if (narrowed.convert(from.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost) !=
          llvm::APFloat::opOK ||
      lost)
    return std::nullopt;
  auto op = VectorOp::create(b, constant.getLoc(), from, "const", ValueRange());
  op->setAttr("value", b.getFloatAttr(from, narrowed));
  return std::pair(narrow, op.getResult());
}

FailureOr<Value> KernelBuilder::bodyValue(Value value, const Dims &dims) {
  auto key = std::make_pair(value.getAsOpaquePointer(), dims);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  Block &computeBlock = compute.getBody().front();
  auto addInput = [&](Value channel, Type elementType) {
    computeInputs.push_back(channel);
    return computeBlock.addArgument(elementType, channel.getLoc());
  };
  Operation *def = value.getDefiningOp();
  Value result;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // A by-value scalar kernel argument (reached through tensor.splat).
    OpBuilder b(compute);
    auto scalar = ScalarArgOp::create(b, value.getLoc(), ChannelType::get(b.getContext()),
                                        (uint64_t)arg.getArgNumber(), arg.getType());
    result = addInput(scalar, arg.getType());
  } else if (auto load = dyn_cast_or_null<ktdp::LoadOp>(def);
             load && load.getTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()) {
    // Gathered rows (the input check: outside loops, the outermost
    // subscript indirect): the gathered tensor at the tile's corner.
    auto tile = load.getTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
    FailureOr<SmallVector<AffineExpr>> corner = indirectCorner(tile);
    if (failed(corner))
      return failure();
    if (!tensorOf.count(tile))
      return tile.emitError("gathered rows without their gathered tensor");
    OpBuilder b(compute);
    auto type = load.getType();
    auto channel = LoadOp::create(
        b, load.getLoc(), ChannelType::get(b.getContext()), FlatSymbolRefAttr::get(tensorOf[tile]),
        AffineMapAttr::get(AffineMap::get(kOriginDims, 0, *corner, b.getContext())),
        b.getDenseI64ArrayAttr(type.getShape()), b.getDenseI64ArrayAttr(dims));
    result = addInput(channel, type.getElementType());
  } else if (auto load = dyn_cast_or_null<ktdp::LoadOp>(def)) {
    auto tile = load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto view = tile.getBase().getDefiningOp();
    Value iv = loopIv && tile->getParentOfType<scf::ForOp>() ? loopIv : Value();
    FailureOr<AffineMap> origin = tileOrigin(tile, iv);
    if (failed(origin))
      return failure();
    OpBuilder b(compute);
    auto type = load.getType();
    auto channel = LoadOp::create(b, load.getLoc(), ChannelType::get(b.getContext()),
                                    FlatSymbolRefAttr::get(tensorOf[view]), AffineMapAttr::get(*origin),
                                    b.getDenseI64ArrayAttr(type.getShape()),
                                    b.getDenseI64ArrayAttr(dims));
    result = addInput(channel, type.getElementType());
  } else if (auto splat = dyn_cast_or_null<tensor::SplatOp>(def)) {
    if (isa<BlockArgument>(splat.getInput()))
      return bodyValue(splat.getInput(), {});
    if (splat.getInput().getDefiningOp<arith::ConstantOp>())
      return constantScalar(value);
    // A per-row value of an earlier phase, splat over its row.
    return bodyValue(splat.getInput(), {});
  } else if (isa_and_nonnull<arith::ConstantOp, linalg::FillOp>(def)) {
    return constantScalar(value);
  } else if (auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(def)) {
    Dims inputDims;
    ArrayRef<int64_t> added = broadcast.getDimensions();
    for (auto [i, d] : llvm::enumerate(dims))
      if (!llvm::is_contained(added, (int64_t)i))
        inputDims.push_back(d);
    return bodyValue(broadcast.getInput(), inputDims);
  } else if (auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(def)) {
    return bodyValue(collapse.getSrc(), Dims{-1});
  } else if (auto extract = dyn_cast_or_null<tensor::ExtractOp>(def)) {
    // The one element of a one-element tensor (the input check): it runs
    // along no dimension.
    return bodyValue(extract.getTensor(), Dims(extract.getTensor().getType().getRank(), -1));
  } else if (auto reduce = dyn_cast_or_null<linalg::ReduceOp>(def)) {
    int64_t dim = reduce.getDimensions()[0];
    auto inputType = cast<RankedTensorType>(reduce.getInputs()[0].getType());
    Dims inputDims = llvm::to_vector<4>(llvm::seq<int64_t>(0, inputType.getRank()));
    FailureOr<Value> input = bodyValue(reduce.getInputs()[0], inputDims);
    if (failed(input))
      return failure();
    FailureOr<Value> init = constantScalar(reduce.getInits()[0]);
    if (failed(init))
      return reduce.emitError("reduction init must be a constant (fill, splat or dense)");
    StringRef combiner = reduce.getCombiner().front().front().getName().getStringRef();
    StringRef kind = combiner == "arith.addf"                                   ? "add"
                     : combiner == "arith.maximumf" || combiner == "arith.maxnumf" ? "max"
                                                                                  : "min";
    OpBuilder b(&computeBlock, computeBlock.end());
    // The largest (smallest) of values widened exactly is the widened
    // largest (smallest) of the narrow values: fold them in the narrow
    // type, more lanes per issue, and widen the one result per row
    // (softmax's max over f16 data computed in f32).
    if (std::optional<std::pair<Value, Value>> narrow =
            kind != "add" ? narrowExtremum(b, *input, *init) : std::nullopt) {
      auto op = VectorOp::create(b, reduce.getLoc(), narrow->first.getType(), "reduce",
                                 ValueRange{narrow->first, narrow->second});
      op->setAttr("combiner", b.getStringAttr(kind));
      op->setAttr("dim", b.getI64IntegerAttr(dim));
      result = VectorOp::create(b, reduce.getLoc(), inputType.getElementType(), "cast",
                                ValueRange{op.getResult()});
      // The wide init is read by nothing now (a body op is work per element).
      if (init->use_empty())
        init->getDefiningOp()->erase();
    } else {
      auto op = VectorOp::create(b, reduce.getLoc(), inputType.getElementType(), "reduce",
                                 ValueRange{*input, *init});
      op->setAttr("combiner", b.getStringAttr(kind));
      op->setAttr("dim", b.getI64IntegerAttr(dim));
      result = op;
    }
  } else if (const OpSupport *entry = def ? lookupOpSupport(def) : nullptr;
             entry && entry->role == OpRole::Elementwise) {
    ValueRange operands = def->getOperands();
    if (auto dps = dyn_cast<linalg::LinalgOp>(def))
      operands = dps.getDpsInputs();
    SmallVector<Value> inputs;
    for (Value operand : operands) {
      FailureOr<Value> v = bodyValue(operand, dims);
      if (failed(v))
        return failure();
      inputs.push_back(*v);
    }
    Type elementType = getElementTypeOrSelf(value.getType());
    // A compare's mask is 1 or 0 in its operands' type (the input check
    // made that the selected type), so it lives in a vector register.
    bool cmp = isa<arith::CmpFOp, arith::CmpIOp>(def);
    if (cmp)
      elementType = getElementTypeOrSelf(def->getOperand(0).getType());
    OpBuilder b(&computeBlock, computeBlock.end());
    auto op = VectorOp::create(b, def->getLoc(), elementType, entry->opClass, inputs);
    if (cmp)
      op->setAttr("predicate", b.getStringAttr(*lanewisePredicate(def)));
    result = op;
  } else {
    return emitError(value.getLoc(), "value not schedulable in a compute group");
  }
  Type t = getElementTypeOrSelf(value.getType());
  if (t.isIntOrFloat() &&
      (!widestType || elementSize(t).bytes > elementSize(widestType).bytes))
    widestType = t;
  memo[key] = result;
  return result;
}

LogicalResult KernelBuilder::buildGroup(StringRef name, const GroupKey &key,
                                        SmallVectorImpl<ktdp::StoreOp> &stores, scf::ForOp loop) {
  Location loc = stores.front().getLoc();
  DictionaryAttr loopAttr;
  loopIv = {};
  if (loop) {
    loopIv = loop.getInductionVar();
    auto lb = traceLoopBound(loop.getLowerBound(), /*upper=*/false);
    auto ub = traceLoopBound(loop.getUpperBound(), /*upper=*/true);
    MLIRContext *ctx = func.getContext();
    loopAttr = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "lb"),
                             AffineMapAttr::get(AffineMap::get(kOriginDims, 0, *lb, ctx))),
              NamedAttribute(StringAttr::get(ctx, "ub"),
                             AffineMapAttr::get(AffineMap::get(kOriginDims, 0, *ub, ctx))),
              NamedAttribute(StringAttr::get(ctx, "step"),
                             IntegerAttr::get(IntegerType::get(ctx, 64),
                                              *getConstantIntValue(loop.getStep())))});
    // An upper bound set by an unbound launch value (ktsched-specialize):
    // `ub` is its value at the upperbounds, `ub_symbolic` the function of
    // the grid coordinates and the unbound values the lowering tables.
    if (auto symbolic = loop->getAttrOfType<AffineMapAttr>(kSymbolicUpperBoundAttr)) {
      AffineMap map = symbolic.getValue();
      NamedAttrList entries(loopAttr);
      entries.set("ub_symbolic",
                  AffineMapAttr::get(AffineMap::get(kOriginDims, map.getNumSymbols(),
                                                    map.getResults(), ctx)));
      loopAttr = entries.getDictionary(ctx);
    }
  }
  group = GroupOp::create(builder, loc, name, key.space, key.reduceDims,
                                  builder.getF32Type(), loopAttr);
  body = &group.getBody().emplaceBlock();
  OpBuilder b(body, body->end());
  compute = ComputeOp::create(b, loc, TypeRange{}, ValueRange{});
  compute.getBody().emplaceBlock();
  computeInputs.clear();
  memo.clear();
  widestType = {};
  absorbedLoops.clear();
  // A stored value runs along the space's dimensions but the reduced ones;
  // in a group of phases, a value of a later phase runs along all of them.
  auto storeDims = [&](ktdp::StoreOp store) {
    Dims dims;
    bool phased = store.getValue().getType().getRank() == (int64_t)key.space.size();
    for (int64_t d = 0; d < (int64_t)key.space.size(); ++d)
      if (phased || !llvm::is_contained(key.reduceDims, d))
        dims.push_back(d);
    return dims;
  };
  SmallVector<Value> results;
  for (ktdp::StoreOp store : stores) {
    FailureOr<Value> v = bodyValue(store.getValue(), storeDims(store));
    if (failed(v))
      return failure();
    Type stored = store.getValue().getType().getElementType();
    if (!widestType || elementSize(stored).bytes > elementSize(widestType).bytes)
      widestType = stored;
    // A stored input passes through the compute unit: say so explicitly.
    if (isa<BlockArgument>(*v)) {
      Block &computeBlock = compute.getBody().front();
      OpBuilder cb(&computeBlock, computeBlock.end());
      *v = VectorOp::create(cb, store.getLoc(), v->getType(), "copy", ValueRange{*v});
    }
    results.push_back(*v);
  }
  // Rebuild the compute op with its inputs and results now that both are known.
  OpBuilder after(compute);
  auto channel = ChannelType::get(func.getContext());
  auto full = ComputeOp::create(after, loc, SmallVector<Type>(results.size(), channel),
                                      computeInputs);
  full.getBody().takeBody(compute.getBody());
  compute.erase();
  compute = full;
  OpBuilder yb(&full.getBody().front(), full.getBody().front().end());
  YieldOp::create(yb, loc, results);
  OpBuilder sb(body, body->end());
  for (auto [i, store] : llvm::enumerate(stores)) {
    FlatSymbolRefAttr tensor;
    FailureOr<AffineMap> origin = failure();
    if (auto scattered = store.getTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>()) {
      // Computed rows scattered: the gathered tensor at the tile's corner
      // along the indices (the input check: outside loops).
      FailureOr<SmallVector<AffineExpr>> corner = indirectCorner(scattered);
      if (failed(corner))
        return failure();
      if (!tensorOf.count(scattered))
        return scattered.emitError("scattered rows without their gathered tensor");
      tensor = FlatSymbolRefAttr::get(tensorOf[scattered]);
      origin = AffineMap::get(kOriginDims, 0, *corner, func.getContext());
    } else {
      auto tile = store.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
      tensor = FlatSymbolRefAttr::get(tensorOf[tile.getBase().getDefiningOp()]);
      origin = tileOrigin(tile, loop ? loopIv : Value());
    }
    if (failed(origin))
      return failure();
    Dims dims = storeDims(store);
    StoreOp::create(sb, store.getLoc(), full.getResult(i), tensor,
                       AffineMapAttr::get(*origin),
                    sb.getDenseI64ArrayAttr(store.getValue().getType().getShape()),
                    sb.getDenseI64ArrayAttr(dims));
  }
  // Stages of a pipeline overlap tiles, so a group may only read a buffer
  // it writes at exactly the coordinates it writes (an in-place update).
  auto kernel = group->getParentOfType<KernelOp>();
  auto argOf = [&](StringRef tensor) {
    return cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensor)).getArg();
  };
  // Rows read or written through indices are the same rows only through
  // the same gathered tensor (one index tensor): equal coordinates of two
  // tensors of the argument are other rows when either is gathered.
  auto gathered = [&](StringRef tensor) {
    return cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensor)).getGatherIndex().has_value();
  };
  for (StoreOp store : group.getBody().front().getOps<StoreOp>())
    for (LoadOp load : group.getBody().front().getOps<LoadOp>())
      if (argOf(load.getTensor()) == argOf(store.getTensor()) &&
          (load.getOrigin() != store.getOrigin() || load.getShape() != store.getShape() ||
           (load.getTensor() != store.getTensor() &&
            (gathered(load.getTensor()) || gathered(store.getTensor())))))
        return store.emitError("group writes kernel argument ")
               << argOf(store.getTensor())
               << " at other coordinates than it reads it: overlapping in-place updates are "
                  "not supported";
  group.setElementTypeAttr(TypeAttr::get(widestType ? widestType : builder.getF32Type()));
  markPhases(full, key, stores);
  // What the group's tiles absorbed: a loop's blocks, and where it carried
  // an accumulator, that the reduction's registers hold it across them.
  if (!absorbedLoops.empty())
    group->setAttr("absorbed_loops", ArrayAttr::get(func.getContext(), absorbedLoops.getArrayRef()));
  return success();
}

/// The matmul a stored value is computed from: directly, through one cast
/// or through an epilogue of element-wise ops (the input check admitted no
/// other use of a product).
static linalg::MatmulOp contractionOf(ktdp::StoreOp store) {
  SmallVector<Value> work = {store.getValue()};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || !seen.insert(value).second)
      continue;
    if (auto matmul = dyn_cast<linalg::MatmulOp>(def))
      return matmul;
    const OpSupport *entry = lookupOpSupport(def);
    if (entry && entry->role == OpRole::Elementwise)
      llvm::append_range(work, def->getOperands());
  }
  return {};
}

LogicalResult KernelBuilder::buildContraction(StringRef name, ktdp::StoreOp store,
                                              linalg::MatmulOp matmul) {
  MLIRContext *ctx = func.getContext();
  auto transfer = [&](ktdp::ConstructAccessTileOp tile,
                      ArrayRef<int64_t> shape) -> FailureOr<DictionaryAttr> {
    auto view = tile.getBase().getDefiningOp();
    FailureOr<AffineMap> origin = tileOrigin(tile, Value());
    if (failed(origin))
      return failure();
    return builder.getDictionaryAttr(
        {builder.getNamedAttr("tensor", FlatSymbolRefAttr::get(tensorOf[view])),
         builder.getNamedAttr("origin", AffineMapAttr::get(*origin)),
         builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(shape))});
  };
  SmallVector<DictionaryAttr> operands;
  for (Value input : matmul.getDpsInputs()) {
    auto load = input.getDefiningOp<ktdp::LoadOp>();
    auto tile = load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    FailureOr<DictionaryAttr> t =
        transfer(tile, cast<RankedTensorType>(input.getType()).getShape());
    if (failed(t))
      return failure();
    operands.push_back(*t);
  }
  auto storeTile = store.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  FailureOr<DictionaryAttr> c = transfer(storeTile, store.getValue().getType().getShape());
  if (failed(c))
    return failure();
  auto init = matmul.getDpsInits()[0].getDefiningOp<arith::ConstantOp>();
  auto splat = cast<SplatElementsAttr>(init.getValue());
  double initValue = splat.getSplatValue<APFloat>().convertToDouble();
  Type accumulator = getElementTypeOrSelf(matmul->getResult(0).getType());
  auto op = ContractionOp::create(builder, store.getLoc(), builder.getStringAttr(name),
                                  operands[0], operands[1], *c,
                                  TypeAttr::get(accumulator),
                                  builder.getF64FloatAttr(initValue), ArrayAttr());
  if (!absorbedLoops.empty())
    op->setAttr("absorbed_loops", ArrayAttr::get(ctx, absorbedLoops.getArrayRef()));

  // The epilogue: the element-wise ops between the product and the store,
  // one element at a time (a bare product, or one cast of it, keeps none).
  Value stored = store.getValue(), product = matmul->getResult(0);
  auto narrowed = stored.getDefiningOp<arith::TruncFOp>();
  if (stored == product || (narrowed && narrowed.getIn() == product))
    return success();
  Block *block = new Block;
  op.getEpilogue().push_back(block);
  OpBuilder eb = OpBuilder::atBlockEnd(block);
  DenseMap<Value, Value> element;
  element[product] = block->addArgument(accumulator, matmul.getLoc());
  SmallVector<Attribute> epilogueOperands;
  std::function<FailureOr<Value>(Value)> elementOf = [&](Value value) -> FailureOr<Value> {
    if (auto it = element.find(value); it != element.end())
      return it->second;
    Operation *def = value.getDefiningOp();
    Type type = getElementTypeOrSelf(value.getType());
    Value result;
    if (auto broadcast = dyn_cast_or_null<linalg::BroadcastOp>(def)) {
      // A bias row (the input check's form): its load is an epilogue
      // operand running along N, broadcast along M.
      Value source = broadcast.getInput().getDefiningOp<tensor::CollapseShapeOp>().getSrc();
      auto extend = source.getDefiningOp<arith::ExtFOp>();
      if (extend)
        source = extend.getIn();
      auto load = source.getDefiningOp<ktdp::LoadOp>();
      FailureOr<DictionaryAttr> t =
          transfer(load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>(),
                   load.getType().getShape());
      if (failed(t))
        return failure();
      NamedAttrList entries(*t);
      entries.set("dims", builder.getDenseI64ArrayAttr({-1, 1}));
      epilogueOperands.push_back(entries.getDictionary(ctx));
      result = block->addArgument(load.getType().getElementType(), load.getLoc());
      if (extend)
        result = VectorOp::create(eb, extend.getLoc(), type, "cast", ValueRange{result});
    } else if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def)) {
      Attribute attr = constant.getValue();
      if (auto dense = dyn_cast<SplatElementsAttr>(attr))
        attr = dense.getSplatValue<Attribute>();
      auto vop = VectorOp::create(eb, constant.getLoc(), type, "const", ValueRange());
      vop->setAttr("value", attr);
      result = vop;
    } else if (const OpSupport *entry = def ? lookupOpSupport(def) : nullptr;
               entry && entry->role == OpRole::Elementwise) {
      ValueRange defOperands = def->getOperands();
      if (auto dps = dyn_cast<linalg::LinalgOp>(def))
        defOperands = dps.getDpsInputs();
      SmallVector<Value> inputs;
      for (Value operand : defOperands) {
        FailureOr<Value> v = elementOf(operand);
        if (failed(v))
          return failure();
        inputs.push_back(*v);
      }
      result = VectorOp::create(eb, def->getLoc(), type, entry->opClass, inputs);
    } else {
      return emitError(value.getLoc(), "value not schedulable in a contraction's epilogue");
    }
    element[value] = result;
    return result;
  };
  FailureOr<Value> out = elementOf(stored);
  if (failed(out))
    return failure();
  YieldOp::create(eb, store.getLoc(), ValueRange{*out});
  if (!epilogueOperands.empty())
    op.setEpilogueOperandsAttr(ArrayAttr::get(ctx, epilogueOperands));
  return success();
}

/// The load through a transposing access tile a store stores, if any.
static ktdp::LoadOp transposeOf(ktdp::StoreOp store) {
  auto load = store.getValue().getDefiningOp<ktdp::LoadOp>();
  if (!load)
    return {};
  auto tile = load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
  auto perm = tile ? tile.getOrderPermutation() : std::nullopt;
  if (!perm || llvm::equal(*perm, llvm::seq<unsigned>(0, perm->size())))
    return {};
  return load;
}

DictionaryAttr KernelBuilder::transferAttr(Operation *view, AffineMap origin,
                                           ArrayRef<int64_t> shape) {
  return builder.getDictionaryAttr(
      {builder.getNamedAttr("tensor", FlatSymbolRefAttr::get(tensorOf[view])),
       builder.getNamedAttr("origin", AffineMapAttr::get(origin)),
       builder.getNamedAttr("shape", builder.getDenseI64ArrayAttr(shape))});
}

FailureOr<DictionaryAttr> KernelBuilder::wholeTileTransfer(ktdp::ConstructAccessTileOp tile) {
  auto view = tile.getBase().getDefiningOp();
  FailureOr<AffineMap> origin = tileOrigin(tile, Value());
  if (failed(origin))
    return failure();
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  return transferAttr(view, *origin, box.getExtents());
}

LogicalResult KernelBuilder::buildTranspose(StringRef name, ktdp::StoreOp store,
                                            ktdp::LoadOp load) {
  // Each transfer in its own memory coordinates: the source block's shape
  // is its tile set's box (rows x columns of the source), not the loaded
  // (permuted) tensor's.
  FailureOr<DictionaryAttr> src =
      wholeTileTransfer(load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>());
  FailureOr<DictionaryAttr> dst =
      wholeTileTransfer(store.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>());
  if (failed(src) || failed(dst))
    return failure();
  ArrayRef<int64_t> from = cast<DenseI64ArrayAttr>(src->get("shape")).asArrayRef();
  ArrayRef<int64_t> to = cast<DenseI64ArrayAttr>(dst->get("shape")).asArrayRef();
  if (from.size() != 2 || to.size() != 2 || from[0] != to[1] || from[1] != to[0])
    return store.emitError("a transposed block stored into a tile that is not its transpose");
  TransposeOp::create(builder, store.getLoc(), builder.getStringAttr(name), *src, *dst);
  return success();
}

/// Whether a store writes through an indirect access tile (a scatter).
static bool scatters(ktdp::StoreOp store) {
  return store.getTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>() != nullptr;
}

/// The load of a gather or a scatter a store ends, if any: a load through
/// an indirect access tile stored directly, or a load stored through one.
static ktdp::LoadOp gatherOf(ktdp::StoreOp store) {
  auto load = store.getValue().getDefiningOp<ktdp::LoadOp>();
  if (!load)
    return ktdp::LoadOp();
  bool indirectLoad = load.getTile().getDefiningOp<ktdp::ConstructIndirectAccessTileOp>() != nullptr;
  return indirectLoad || scatters(store) ? load : ktdp::LoadOp();
}

LogicalResult KernelBuilder::buildGather(StringRef name, ktdp::StoreOp store,
                                         ktdp::LoadOp load) {
  // The indirect tile names the table's rows; the direct one is the block.
  bool scatter = scatters(store);
  Value indirectTile = scatter ? store.getTile() : load.getTile();
  Value directTile = scatter ? load.getTile() : store.getTile();
  auto tile = indirectTile.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>();
  FailureOr<SmallVector<AffineExpr>> corner = indirectCorner(tile);
  if (failed(corner))
    return failure();
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getVariablesSpaceSet());
  MLIRContext *ctx = func.getContext();
  auto at = [&](unsigned d) { return (*corner)[d]; };
  // The table's block: along the indirect dimension its origin is 0 (the
  // indices are coordinates), along the others the direct corner.
  SmallVector<AffineExpr> srcOrigin = {getAffineConstantExpr(0, ctx)};
  for (unsigned d = 1; d < tile.getNumSubscripts(); ++d)
    srcOrigin.push_back(at(d));
  auto view = tile.getBase().getDefiningOp();
  auto indexView = tile.getIndexViewForDim(0).getDefiningOp<ktdp::ConstructMemoryViewOp>();
  DictionaryAttr table =
      transferAttr(view, AffineMap::get(kOriginDims, 0, srcOrigin, ctx), box.getExtents());
  DictionaryAttr index = transferAttr(indexView, AffineMap::get(kOriginDims, 0, at(0), ctx),
                                      {box.getExtents()[0]});
  auto direct = directTile.getDefiningOp<ktdp::ConstructAccessTileOp>();
  if (!direct)
    return store.emitError(scatter ? "the scattered rows must be loaded through a direct "
                                     "access tile (a gather scattered again is missing)"
                                   : "gathered rows must be stored through a direct access tile");
  FailureOr<DictionaryAttr> block = wholeTileTransfer(direct);
  if (failed(block))
    return failure();
  if (cast<DenseI64ArrayAttr>(block->get("shape")).asArrayRef() != ArrayRef(box.getExtents()))
    return store.emitError(scatter ? "rows scattered from a tile of another shape"
                                   : "gathered rows stored into a tile of another shape");
  GatherOp::create(builder, store.getLoc(), builder.getStringAttr(name),
                   scatter ? *block : table, index, scatter ? table : *block,
                   scatter ? builder.getUnitAttr() : UnitAttr());
  return success();
}

/// The phase of every reduction of `compute`'s body: 1 for one of the
/// loaded values, one more than the latest reduction its operand reads
/// otherwise (softmax: the max 1, the sum of exp(x - max) 2). A group
/// whose stores run along the reduced dimension, or with reductions in
/// several phases, runs in phases over each tile (`phases` on the group:
/// the reductions' phases, then the element-wise one that computes the
/// stored rows); the lowering reads the tile's rows once per phase.
static void markPhases(ComputeOp compute, const GroupKey &key,
                       ArrayRef<ktdp::StoreOp> stores) {
  if (key.reduceDims.empty())
    return;
  llvm::DenseMap<Value, int64_t> latest; // latest reduction phase a value reads
  SmallVector<std::pair<VectorOp, int64_t>> reductions;
  int64_t last = 0;
  Builder b(compute.getContext());
  for (Operation &op : compute.getBody().front()) {
    int64_t reads = 0;
    for (Value operand : op.getOperands())
      reads = std::max(reads, latest.lookup(operand));
    auto vop = dyn_cast<VectorOp>(op);
    if (vop && vop.getKind() == "reduce") {
      int64_t phase = latest.lookup(vop.getOperand(0)) + 1;
      reductions.push_back({vop, phase});
      last = std::max(last, phase);
      reads = phase;
    }
    for (Value result : op.getResults())
      latest[result] = reads;
  }
  bool rowsStored = llvm::any_of(stores, [&](ktdp::StoreOp store) {
    return store.getValue().getType().getRank() == (int64_t)key.space.size();
  });
  int64_t phases = last + (rowsStored ? 1 : 0);
  if (phases <= 1)
    return;
  compute->getParentOfType<GroupOp>()->setAttr("phases", b.getI64IntegerAttr(phases));
  for (auto [vop, phase] : reductions)
    vop->setAttr("phase", b.getI64IntegerAttr(phase));
}

/// The reduction a stored value is, whose epilogue (element-wise ops with
/// constants, which the input check allows after a reduction) it is, or,
/// in a group of phases, whose per-row result it reads: the first one its
/// backward slice reaches (the input check made every one of them reduce
/// the same space).
static linalg::ReduceOp reductionOf(Value stored) {
  SmallVector<Value> work = {stored};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (auto reduce = dyn_cast<linalg::ReduceOp>(def))
      return reduce;
    if (isa<arith::ConstantOp, linalg::FillOp, ktdp::LoadOp>(def))
      continue;
    ValueRange inputs = def->getOperands();
    if (auto dps = dyn_cast<linalg::LinalgOp>(def))
      inputs = dps.getDpsInputs();
    for (Value v : inputs)
      work.push_back(v);
  }
  return {};
}

LogicalResult KernelBuilder::checkNoLoadAfterStore() {
  auto kernel = cast<KernelOp>(builder.getInsertionBlock()->getParentOp());
  auto argOf = [&](Value tileValue) -> std::optional<int64_t> {
    Operation *view = nullptr;
    if (auto tile = tileValue.getDefiningOp<ktdp::ConstructAccessTileOp>())
      view = tile.getBase().getDefiningOp();
    else if (auto gathered = tileValue.getDefiningOp<ktdp::ConstructIndirectAccessTileOp>())
      view = gathered.getBase().getDefiningOp();
    if (!view || !tensorOf.count(view))
      return std::nullopt;
    return cast<TensorOp>(SymbolTable::lookupSymbolIn(kernel, tensorOf[view])).getArg();
  };
  llvm::DenseMap<int64_t, ktdp::StoreOp> stored;
  WalkResult walk = func.walk([&](Operation *op) {
    if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
      if (std::optional<int64_t> arg = argOf(store.getTile()))
        stored.try_emplace(*arg, store);
    } else if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
      std::optional<int64_t> arg = argOf(load.getTile());
      if (arg && stored.count(*arg)) {
        InFlightDiagnostic diag = load.emitError("load of kernel argument ")
                                  << *arg << " after a store to it: reading back stored data "
                                  << "is not supported";
        diag.attachNote(stored[*arg].getLoc()) << "the store";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult KernelBuilder::build() {
  SmallVector<int64_t> grid = gridOf(func);
  builder.setInsertionPoint(func);
  auto kernel = KernelOp::create(builder, func.getLoc(), func.getSymName(), grid,
                                         (int64_t)func.getNumArguments());
  // The launch values it was specialized for travel with the schedule.
  if (Attribute launch = func->getAttr(kLaunchValuesAttr))
    kernel->setAttr(kLaunchValuesAttr, launch);
  if (Attribute unbound = func->getAttr(kUnboundLaunchValuesAttr))
    kernel->setAttr(kUnboundLaunchValuesAttr, unbound);
  kernel.getBody().emplaceBlock();
  if (failed(buildTensors(kernel)))
    return failure();
  if (failed(checkNoLoadAfterStore()))
    return failure();

  // Stores per block, then per iteration space, in program order.
  llvm::MapVector<Block *, SmallVector<ktdp::StoreOp>> perBlock;
  unsigned counter = 0;
  WalkResult contractions = func.walk([&](ktdp::StoreOp store) {
    linalg::MatmulOp matmul = contractionOf(store);
    if (!matmul)
      return WalkResult::advance();
    builder.setInsertionPointToEnd(&kernel.getBody().front());
    absorbedLoops.clear();
    if (failed(buildContraction("g" + std::to_string(counter++), store, matmul)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (contractions.wasInterrupted())
    return failure();
  WalkResult transposes = func.walk([&](ktdp::StoreOp store) {
    ktdp::LoadOp load = transposeOf(store);
    if (!load)
      return WalkResult::advance();
    builder.setInsertionPointToEnd(&kernel.getBody().front());
    if (failed(buildTranspose("g" + std::to_string(counter++), store, load)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (transposes.wasInterrupted())
    return failure();
  WalkResult gathers = func.walk([&](ktdp::StoreOp store) {
    ktdp::LoadOp load = gatherOf(store);
    if (!load)
      return WalkResult::advance();
    builder.setInsertionPointToEnd(&kernel.getBody().front());
    if (failed(buildGather("g" + std::to_string(counter++), store, load)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (gathers.wasInterrupted())
    return failure();
  func.walk([&](ktdp::StoreOp store) {
    if (!contractionOf(store) && !transposeOf(store) && !gatherOf(store))
      perBlock[store->getBlock()].push_back(store);
  });
  for (auto &[block, stores] : perBlock) {
    SmallVector<std::pair<GroupKey, SmallVector<ktdp::StoreOp>>> groups;
    for (ktdp::StoreOp store : stores) {
      GroupKey key;
      auto type = store.getValue().getType();
      if (auto reduce = reductionOf(store.getValue())) {
        auto input = cast<RankedTensorType>(reduce.getInputs()[0].getType());
        key.space.assign(input.getShape().begin(), input.getShape().end());
        key.reduceDims.assign(reduce.getDimensions().begin(), reduce.getDimensions().end());
      } else {
        key.space.assign(type.getShape().begin(), type.getShape().end());
      }
      auto it = llvm::find_if(groups, [&](auto &g) { return g.first == key; });
      if (it == groups.end())
        groups.push_back({key, {store}});
      else
        it->second.push_back(store);
    }
    auto loop = dyn_cast<scf::ForOp>(block->getParentOp());
    for (auto &[key, groupStores] : groups) {
      builder.setInsertionPointToEnd(&kernel.getBody().front());
      if (failed(buildGroup("g" + std::to_string(counter++), key, groupStores, loop)))
        return failure();
    }
  }
  return success();
}

namespace {
struct FormComputeGroupsPass : ktflow::ktsched::impl::FormComputeGroupsBase<FormComputeGroupsPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        kernels.push_back(func);
    for (func::FuncOp func : kernels) {
      KernelBuilder kernel(func);
      if (failed(kernel.build()))
        return signalPassFailure();
      func.erase();
    }
  }
};
} // namespace
