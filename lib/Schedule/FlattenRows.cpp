//===- FlattenRows.cpp - one flat run for tiles of whole, dense rows ------===//
//
// Strategy: a group whose rows are not a whole number of vectors would end
// every tile row in a partial vector, and a partial vector followed by the
// next row's data can be neither stored whole nor masked (the load and
// store units move whole vectors; docs/run.md). But when every tensor the
// group touches is dense over the rows of a grid tile's iteration space
// (the space spans whole rows, rows follow each other without gaps), the
// grid tile's elements are one contiguous range of memory in every tensor,
// in the same order. Such a group is rewritten before the work is split and
// tiled: its space becomes one dimension of rows x columns elements, each
// transfer a run of a one-dimensional view of its tensor (`@argN_flat`,
// same argument and offset, stride 1). Split and tile selection then cut
// the run in whole vectors and granules, so only the run's last vector can
// be partial, and only where the grid tile ends (the lowering widens that
// store into the symbol's padding when the data ends there).
//
// A row loop whose iterations move adjacent runs (a cyclic loop on a grid
// of one tile along the loop: iteration i+1's rows follow iteration i's) is
// absorbed into the run as well, when every grid tile runs the same number
// of iterations.
//
// Not flattened: reductions (a fold runs along the rows), groups with a row
// or column operand (its vector position depends on the row structure;
// scalars and splats are fine), views with gaps between rows, and groups
// whose rows are already whole vectors (nothing to gain, and their tiles
// keep the row-based heuristics). The decision is `flatten` on the group:
// the iteration space (and loop trips) it replaced.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_FLATTENROWS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// A transfer that covers the whole iteration space, in order; the other
/// kinds are scalars (no dimension of the space) and everything else.
enum class TransferKind { Full, Scalar, Other };

TransferKind kindOf(DictionaryAttr transfer, int64_t rank) {
  if (!transfer || !transfer.getAs<FlatSymbolRefAttr>("tensor") ||
      !transfer.getAs<AffineMapAttr>("origin"))
    return TransferKind::Other;
  auto dims = transfer.getAs<DenseI64ArrayAttr>("dims");
  auto shape = transfer.getAs<DenseI64ArrayAttr>("shape");
  if (!dims || !shape || dims.size() != shape.size())
    return TransferKind::Other;
  SmallVector<int64_t> mapped;
  for (auto [d, extent] : llvm::zip(dims.asArrayRef(), shape.asArrayRef())) {
    if (d < 0) {
      if (extent != 1)
        return TransferKind::Other;
      continue;
    }
    mapped.push_back(d);
  }
  if (mapped.empty())
    return TransferKind::Scalar;
  if ((int64_t)mapped.size() != rank)
    return TransferKind::Other;
  for (int64_t d = 0; d < rank; ++d)
    if (mapped[d] != d)
      return TransferKind::Other;
  return TransferKind::Full;
}

struct Flattening {
  /// Per full transfer: the element offset of the tile's first element
  /// relative to the view's start, over (g0, g1, g2, iv).
  AffineExpr origin;
};

/// The flat origin of a full transfer whose tensor is dense over `space`,
/// or failure: every dimension inside the outermost of the space must span
/// the whole view from its lower corner, and rows must follow each other
/// without gaps, so the grid tile is one contiguous run of the view.
FailureOr<AffineExpr> flatOrigin(DictionaryAttr transfer, TensorOp tensor,
                                 ArrayRef<int64_t> space, ArrayRef<int64_t> grid) {
  auto dims = transfer.getAs<DenseI64ArrayAttr>("dims").asArrayRef();
  auto originAttr = transfer.getAs<AffineMapAttr>("origin");
  ArrayRef<int64_t> shape = tensor.getShape(), strides = tensor.getStrides(),
                    lower = tensor.getLowerCorner();
  if (!originAttr || originAttr.getValue().getNumResults() != dims.size() ||
      shape.size() != dims.size() || strides.size() != dims.size() ||
      lower.size() != dims.size())
    return failure();
  // A grid dimension of one tile has only id 0: an origin that names it
  // (a column block offset `t * 9` on a grid of one tile) is constant.
  AffineMap origin = originAttr.getValue();
  {
    SmallVector<AffineExpr> ids;
    for (unsigned d = 0; d < origin.getNumDims(); ++d)
      ids.push_back(d < grid.size() && grid[d] == 1
                        ? getAffineConstantExpr(0, tensor.getContext())
                        : getAffineDimExpr(d, tensor.getContext()));
    origin = origin.replaceDimsAndSymbols(ids, {}, origin.getNumDims(), origin.getNumSymbols());
  }
  AffineExpr flat = getAffineConstantExpr(0, tensor.getContext());
  int64_t rank = space.size();
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i];
    AffineExpr at = origin.getResult(i) - lower[i];
    if (d < 0) {
      // A size-1 dimension of the view outside the space: its coordinate
      // must be the view's only one.
      if (shape[i] != 1)
        return failure();
    } else if (d == rank - 1) {
      if (strides[i] != 1)
        return failure();
    } else {
      // Rows of the next dimension inward follow each other densely.
      int64_t inner = -1;
      for (size_t k = i + 1; k < dims.size(); ++k)
        if (dims[k] == d + 1)
          inner = k;
      if (inner < 0 || strides[i] != strides[inner] * space[d + 1])
        return failure();
    }
    if (d > 0) {
      // Inside the outermost dimension the tile spans the whole view.
      auto constant = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
          at, origin.getNumDims(), origin.getNumSymbols()));
      if (!constant || constant.getValue() != 0 || shape[i] != space[d])
        return failure();
    }
    flat = flat + at * strides[i];
  }
  return simplifyAffineExpr(flat, origin.getNumDims(), origin.getNumSymbols());
}

/// The one-dimensional view of `tensor` (created once per tensor).
TensorOp flatTensor(KernelOp kernel, TensorOp tensor) {
  std::string name = (tensor.getSymName() + "_flat").str();
  if (auto existing = kernel.lookupSymbol<TensorOp>(name))
    return existing;
  int64_t extent = 1;
  for (auto [extentOf, stride] : llvm::zip(tensor.getShape(), tensor.getStrides()))
    extent += (extentOf - 1) * stride;
  OpBuilder b(tensor);
  b.setInsertionPointAfter(tensor);
  return TensorOp::create(b, tensor.getLoc(), name, tensor.getArg(), tensor.getOffset(),
                          tensor.getElementType(), b.getDenseI64ArrayAttr({extent}),
                          b.getDenseI64ArrayAttr({1}), b.getDenseI64ArrayAttr({0}),
                          DenseI64ArrayAttr(), ArrayAttr(), FlatSymbolRefAttr(),
                          IntegerAttr());
}

/// Iterations of the group's loop on every grid tile, if they are equal.
std::optional<int64_t> commonTrips(KernelOp kernel, DictionaryAttr loop) {
  auto lb = loop.getAs<AffineMapAttr>("lb"), ub = loop.getAs<AffineMapAttr>("ub");
  auto step = loop.getAs<IntegerAttr>("step");
  if (!lb || !ub || !step || step.getInt() <= 0 || lb.getValue().getNumResults() != 1 ||
      ub.getValue().getNumResults() != 1)
    return std::nullopt;
  auto grid = kernel.getGrid();
  std::optional<int64_t> trips;
  for (int64_t c = 0; c < grid[0] * grid[1] * grid[2]; ++c) {
    SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1],
                                   c / (grid[0] * grid[1])};
    auto at = [&](AffineMap map) {
      SmallVector<int64_t> args(coords);
      args.resize(map.getNumDims(), 0);
      return map.compose(args)[0];
    };
    int64_t low = at(lb.getValue()), high = at(ub.getValue());
    int64_t mine = high > low ? (high - low + step.getInt() - 1) / step.getInt() : 0;
    if (trips && *trips != mine)
      return std::nullopt;
    trips = mine;
  }
  return trips;
}

LogicalResult flattenGroup(KernelOp kernel, GroupOp group) {
  ArrayRef<int64_t> space = group.getSpace();
  int64_t rank = space.size();
  if (!group.getReduceDims().empty() || rank == 0)
    return success();
  // A distributed view's tensor is its partitions' pieces, which a flat
  // view of the first partition would not address.
  if (touchesDistributed(group) || touchesGathered(group))
    return success();
  StageOp compute = computeStage(group);
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  if (!lanes || *lanes <= 0)
    return success();
  // Only the initial pipeline's form is rewritten (one load and one store
  // stage holding every transfer); anything else is left alone.
  std::optional<SmallVector<StageOp>> found = initialPipelineMovers(group);
  if (!found)
    return success();
  SmallVector<StageOp> &movers = *found;
  // Only rows that are not whole vectors need it: a vector is the bytes of
  // `lanes` elements of the group's type, moved in each transfer's type.
  Bytes vectorBytes = toBytes(Elements(*lanes), elementSize(group.getElementType()));
  bool partialRows = false, anyFull = false;
  for (StageOp stage : movers)
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto transfer = dyn_cast<DictionaryAttr>(attr);
      switch (kindOf(transfer, rank)) {
      case TransferKind::Other:
        return success();
      case TransferKind::Scalar:
        continue;
      case TransferKind::Full:
        break;
      }
      anyFull = true;
      auto type = transfer.getAs<TypeAttr>("element_type");
      Bytes row = toBytes(Elements(space.back()),
                          elementSize(type ? type.getValue() : group.getElementType()));
      partialRows |= !row.isAlignedTo(vectorBytes);
    }
  if (!anyFull || !partialRows)
    return success();
  auto loop = group.getLoopAttr();

  // Every full transfer must be one dense run per grid tile.
  SmallVector<std::pair<StageOp, SmallVector<Attribute>>> rewritten;
  int64_t flatExtent = 1;
  for (int64_t e : space)
    flatExtent *= e;
  SmallVector<AffineExpr> origins;
  for (StageOp stage : movers)
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto transfer = cast<DictionaryAttr>(attr);
      if (kindOf(transfer, rank) != TransferKind::Full)
        continue;
      auto tensor = kernel.lookupSymbol<TensorOp>(transfer.getAs<FlatSymbolRefAttr>("tensor"));
      if (!tensor)
        return success();
      FailureOr<AffineExpr> origin = flatOrigin(transfer, tensor, space, kernel.getGrid());
      if (failed(origin))
        return success();
      origins.push_back(*origin);
    }

  // The loop is absorbed when consecutive iterations move adjacent runs of
  // every full transfer, scalars do not change with it, and every grid
  // tile runs it equally often.
  MLIRContext *ctx = group.getContext();
  AffineExpr iv = getAffineDimExpr(kOriginDims - 1, ctx);
  std::optional<int64_t> trips;
  AffineExpr lowerBound;
  if (loop) {
    trips = commonTrips(kernel, loop);
    bool adjacent = trips.has_value();
    int64_t step = adjacent ? loop.getAs<IntegerAttr>("step").getInt() : 1;
    for (AffineExpr origin : origins) {
      AffineExpr advance = simplifyAffineExpr(origin.replace(iv, iv + step) - origin,
                                              kOriginDims, 0);
      auto constant = dyn_cast<AffineConstantExpr>(advance);
      adjacent &= constant && constant.getValue() == flatExtent;
    }
    for (StageOp stage : movers)
      for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
        auto transfer = cast<DictionaryAttr>(attr);
        if (kindOf(transfer, rank) == TransferKind::Scalar)
          if (auto origin = transfer.getAs<AffineMapAttr>("origin"))
            adjacent &= !origin.getValue().isFunctionOfDim(kOriginDims - 1);
      }
    if (adjacent) {
      AffineMap lb = loop.getAs<AffineMapAttr>("lb").getValue();
      lowerBound = lb.getResult(0);
    } else {
      trips.reset();
    }
  }
  // A tile of one row (and no loop to absorb) is one run already.
  if (!trips && flatExtent == space.back())
    return success();

  // Rewrite: flat views, flat runs, one-dimensional space.
  Builder b(ctx);
  unsigned next = 0;
  for (StageOp stage : movers) {
    SmallVector<Attribute> transfers;
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto transfer = cast<DictionaryAttr>(attr);
      if (kindOf(transfer, rank) != TransferKind::Full) {
        transfers.push_back(transfer);
        continue;
      }
      AffineExpr origin = origins[next++];
      if (trips)
        origin = simplifyAffineExpr(origin.replace(iv, lowerBound), kOriginDims, 0);
      auto tensor = kernel.lookupSymbol<TensorOp>(transfer.getAs<FlatSymbolRefAttr>("tensor"));
      TensorOp flat = flatTensor(kernel, tensor);
      NamedAttrList attrs(transfer);
      attrs.set("tensor", FlatSymbolRefAttr::get(flat.getSymNameAttr()));
      attrs.set("origin", AffineMapAttr::get(AffineMap::get(kOriginDims, 0, origin)));
      attrs.set("shape", b.getDenseI64ArrayAttr({flatExtent * trips.value_or(1)}));
      attrs.set("dims", b.getDenseI64ArrayAttr({0}));
      transfers.push_back(attrs.getDictionary(ctx));
    }
    stage->setAttr("transfers", b.getArrayAttr(transfers));
  }
  SmallVector<NamedAttribute> record = {
      b.getNamedAttr("space", b.getDenseI64ArrayAttr(space))};
  if (trips)
    record.push_back(b.getNamedAttr("loop_trips", b.getI64IntegerAttr(*trips)));
  group->setAttr("flatten", decide(b.getDictionaryAttr(record), kHeuristic));
  group.setSpaceAttr(b.getDenseI64ArrayAttr({flatExtent * trips.value_or(1)}));
  if (trips)
    group.removeLoopAttr();
  return success();
}

struct FlattenRowsPass : ktflow::ktsched::impl::FlattenRowsBase<FlattenRowsPass> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      for (GroupOp group : llvm::make_early_inc_range(kernel.getOps<GroupOp>()))
        if (failed(flattenGroup(kernel, group)))
          return signalPassFailure();
  }
};

} // namespace
