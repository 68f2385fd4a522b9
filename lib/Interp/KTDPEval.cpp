//===- KTDPEval.cpp - ktdp ops ---------------------------------------------===//
//
// Builds the run-time forms of views and access tiles (Views.h) from the
// ktdp ops, and moves data with ktdp.load / ktdp.store. Run-time rule checks
// live here: SSA sizes against static memref dimensions, tile shapes after
// binding symbols (ktir.md §5.4 rule 8), ct_id against the tile count,
// bounded sets. Box-shaped access tiles stay symbolic; other sets and all
// indirect tiles are enumerated into points when the op executes (so an
// indirect tile reads its indices at that moment, §2.4).
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "ktflow/KTDP/KTDPAttrs.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

/// Static entries with dynamic markers filled from `dynamic`, in order.
static SmallVector<int64_t, 4> mixedList(TileExecutor &ex, ArrayRef<int64_t> statics,
                                         ValueRange dynamic) {
  SmallVector<int64_t, 4> out;
  unsigned next = 0;
  for (int64_t s : statics)
    out.push_back(ShapedType::isDynamic(s) ? ex.index(dynamic[next++]) : s);
  return out;
}

static BoundSet bindSet(TileExecutor &ex, IntegerSet set, ArrayRef<int64_t> symbols,
                        const char *what) {
  std::string error;
  std::optional<BoundSet> bound = BoundSet::bind(set, symbols, error);
  if (!bound)
    ex.fail(llvm::Twine(what) + ": " + error + " after binding its symbols " +
            formatCoord(symbols));
  return std::move(*bound);
}

static SmallVector<int64_t, 4> indexValues(TileExecutor &ex, ValueRange values) {
  SmallVector<int64_t, 4> out;
  for (Value v : values)
    out.push_back(ex.index(v));
  return out;
}

/// Checks the tile shape computed at run time against the declared type.
static void checkTileShape(TileExecutor &ex, ktdp::AccessTileType type,
                           ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> declared = type.getShape();
  bool ok = declared.size() == shape.size();
  for (unsigned i = 0; ok && i < shape.size(); ++i)
    if (!ShapedType::isDynamic(declared[i]) && declared[i] != shape[i])
      ok = false;
  if (!ok)
    ex.fail("access tile shape " + formatShape(shape) +
            " (the extent of order(set) after binding) does not match the "
            "declared type's shape " + formatShape(declared));
}

/// Shape, lower corner and point order of a set under permutation `perm`.
struct SetLayout {
  SmallVector<int64_t, 4> shape, lo;
  bool empty = false;
};
static SetLayout layoutOf(const BoundSet &set, ArrayRef<unsigned> perm) {
  SetLayout layout;
  SmallVector<int64_t, 4> lo, hi;
  if (!set.exactCorners(lo, hi)) {
    layout.empty = true;
    layout.shape.assign(set.rank(), 0);
    layout.lo.assign(set.rank(), 0);
    return layout;
  }
  layout.lo = lo;
  for (unsigned i = 0; i < perm.size(); ++i)
    layout.shape.push_back(hi[perm[i]] - lo[perm[i]] + 1);
  return layout;
}

/// Linear tile position of set point `p`.
static int64_t positionOf(ArrayRef<int64_t> p, const SetLayout &layout,
                          ArrayRef<unsigned> perm) {
  int64_t pos = 0;
  for (unsigned i = 0; i < perm.size(); ++i)
    pos = pos * layout.shape[i] + (p[perm[i]] - layout.lo[perm[i]]);
  return pos;
}

bool TileExecutor::execKTDP(Operation *op) {
  if (auto tileIdOp = dyn_cast<ktdp::GetComputeTileIdOp>(op)) {
    for (auto [i, result] : llvm::enumerate(tileIdOp->getResults()))
      set(result, Scalar::ofInt(ElemKind::Index, i < 3 ? tileCoords[i] : 0));
    return true;
  }

  if (auto viewOp = dyn_cast<ktdp::ConstructMemoryViewOp>(op)) {
    MemRefType type = viewOp.getType();
    SmallVector<int64_t, 4> sizes = mixedList(*this, viewOp.getStaticSizes(), viewOp.getSizes());
    SmallVector<int64_t, 4> strides =
        mixedList(*this, viewOp.getStaticStrides(), viewOp.getStrides());
    for (unsigned k = 0; k < sizes.size(); ++k) {
      if (sizes[k] < 0)
        fail("view size " + llvm::Twine(k) + " is negative (" + llvm::Twine(sizes[k]) + ")");
      if (strides[k] < 0)
        fail("view stride " + llvm::Twine(k) + " is negative (" + llvm::Twine(strides[k]) +
             "); negative strides are not supported");
      if (k < unsigned(type.getRank()) && !type.isDynamicDim(k) &&
          type.getDimSize(k) != sizes[k])
        fail("view size " + llvm::Twine(k) + " is " + llvm::Twine(sizes[k]) +
             " at run time but the memref type says " + llvm::Twine(type.getDimSize(k)));
    }
    ktdp::MemorySpaceAttr space = viewOp.getMemorySpace();
    std::optional<BoundSet> coords;
    if (auto set = viewOp.getCoordinateSet()) {
      coords = bindSet(*this, *set, indexValues(*this, viewOp.getCoordinateSetSymbolOperands()),
                       "coordinate_set");
    } else {
      // A missing coordinate_set is the box [0, size) (ktir.md §5.2 rule 4).
      MLIRContext *ctx = op->getContext();
      SmallVector<AffineExpr, 8> constraints;
      SmallVector<bool, 8> eqs;
      for (unsigned k = 0; k < sizes.size(); ++k) {
        constraints.push_back(getAffineDimExpr(k, ctx));
        constraints.push_back(-getAffineDimExpr(k, ctx) + (sizes[k] - 1));
        eqs.append({false, false});
      }
      coords = bindSet(*this, IntegerSet::get(sizes.size(), 0, constraints, eqs), {},
                       "coordinate box");
    }
    auto mv = std::make_shared<MemoryView>(std::move(*coords));
    mv->kind = elemKindOf(type.getElementType());
    mv->offset = Elements(index(viewOp.getOffset()));
    mv->sizes = sizes;
    mv->strides = strides;
    SmallVector<int64_t, 4> lo, hi;
    if (!mv->coords.exactCorners(lo, hi))
      lo.assign(sizes.size(), 0);
    mv->lo = lo;
    if (space.isGlobal()) {
      mv->space = SpaceKind::Global;
    } else if (space.isCtLocal()) {
      mv->space = SpaceKind::Local;
      if (auto id = space.getCtId()) {
        if (*id >= launch.pads.numTiles())
          fail("ct_id " + llvm::Twine(*id) + " is not less than the number of tiles (" +
               llvm::Twine(launch.pads.numTiles()) + ")");
        mv->ctId = *id;
      }
    } else {
      mv->space = SpaceKind::Unspecified;
    }
    auto view = std::make_shared<View>();
    view->kind = mv->kind;
    view->rank = sizes.size();
    view->parts.push_back(mv);
    set(viewOp.getResult(), ViewPtr(view));
    return true;
  }

  if (auto dist = dyn_cast<ktdp::ConstructDistributedMemoryViewOp>(op)) {
    auto view = std::make_shared<View>();
    view->kind = elemKindOf(dist.getType().getElementType());
    view->rank = dist.getType().getRank();
    for (Value part : dist.getPartitions()) {
      ViewPtr p = std::get<ViewPtr>(get(part));
      if (p->parts.size() != 1)
        fail("nested distributed views are not supported");
      view->parts.push_back(p->parts.front());
    }
    set(dist.getResult(), ViewPtr(view));
    return true;
  }

  if (auto tileOp = dyn_cast<ktdp::ConstructAccessTileOp>(op)) {
    auto tile = std::make_shared<AccessTile>();
    const RtValue &base = get(tileOp.getBase());
    if (auto *v = std::get_if<ViewPtr>(&base))
      tile->view = *v;
    else
      tile->tensorBase = std::get<TensorPtr>(base);
    auto perm = tileOp.getOrderPermutation();
    if (!perm)
      fail("access_tile_order is not a permutation of the dimensions; only "
           "permutation orders are supported");
    SmallVector<int64_t, 4> dims = indexValues(*this, tileOp.getBaseMapDimOperands());
    SmallVector<int64_t, 4> syms = indexValues(*this, tileOp.getBaseMapSymbolOperands());
    AffineMap baseMap = tileOp.getBaseMap();
    SmallVector<int64_t, 4> anchor;
    for (AffineExpr e : baseMap.getResults())
      anchor.push_back(evaluateAffine(e, dims, syms));
    BoundSet tileSet = bindSet(*this, tileOp.getAccessTileSet(),
                           indexValues(*this, tileOp.getSymbolOperands()), "access_tile_set");
    tile->perm.assign(perm->begin(), perm->end());
    if (tileSet.isBox()) {
      tile->boxForm = true;
      unsigned rank = tileSet.rank();
      for (unsigned d = 0; d < rank; ++d) {
        tile->boxLo.push_back(anchor[d] + tileSet.lower()[d]);
        tile->boxHi.push_back(anchor[d] + tileSet.upper()[d]);
      }
      for (unsigned i = 0; i < rank; ++i)
        tile->shape.push_back(tileSet.isEmpty() ? 0
                                            : tileSet.upper()[(*perm)[i]] - tileSet.lower()[(*perm)[i]] + 1);
    } else {
      SetLayout layout = layoutOf(tileSet, *perm);
      tile->shape = layout.shape;
      unsigned rank = tileSet.rank();
      tileSet.forEach(*perm, [&](ArrayRef<int64_t> p) {
        tile->positions.push_back(positionOf(p, layout, *perm));
        for (unsigned d = 0; d < rank; ++d)
          tile->coords.push_back(anchor[d] + p[d]);
        tile->masked.push_back(0);
      });
    }
    checkTileShape(*this, tileOp.getType(), tile->shape);
    set(tileOp.getResult(), TilePtr(tile));
    return true;
  }

  if (auto ind = dyn_cast<ktdp::ConstructIndirectAccessTileOp>(op)) {
    auto tile = std::make_shared<AccessTile>();
    const RtValue &base = get(ind.getBase());
    if (auto *v = std::get_if<ViewPtr>(&base))
      tile->view = *v;
    else
      tile->tensorBase = std::get<TensorPtr>(base);
    auto perm = ind.getOrderPermutation();
    if (!perm)
      fail("variables_space_order is not a permutation of the dimensions; only "
           "permutation orders are supported");
    SmallVector<int64_t, 4> captured = indexValues(*this, ind.getCaptured());
    BoundSet tileSet = bindSet(*this, ind.getVariablesSpaceSet(),
                           indexValues(*this, ind.getSymbolOperands()), "variables_space_set");
    SetLayout layout = layoutOf(tileSet, *perm);
    tile->shape = layout.shape;
    unsigned baseRank = ind.getNumSubscripts();
    SmallVector<ViewPtr, 4> indexViews(baseRank);
    for (unsigned d = 0; d < baseRank; ++d)
      if (Value v = ind.getIndexViewForDim(d))
        indexViews[d] = std::get<ViewPtr>(get(v));
    MemoryContext mem{launch.global, launch.pads, tileId};
    SmallVector<int64_t, 4> coord(baseRank), idxCoord;
    tileSet.forEach(*perm, [&](ArrayRef<int64_t> v) {
      bool masked = false;
      for (unsigned d = 0; d < baseRank; ++d) {
        AffineMap map = ind.getSubscriptMap(d);
        if (!indexViews[d]) {
          coord[d] = evaluateAffine(map.getResult(0), v, captured);
          continue;
        }
        idxCoord.clear();
        for (AffineExpr e : map.getResults())
          idxCoord.push_back(evaluateAffine(e, v, captured));
        Scalar idx;
        if (!readElement(*indexViews[d], idxCoord, mem, idx)) {
          masked = true;
          coord[d] = 0;
          continue;
        }
        coord[d] = idx.i; // kept sign-extended
      }
      tile->positions.push_back(positionOf(v, layout, *perm));
      tile->coords.insert(tile->coords.end(), coord.begin(), coord.end());
      tile->masked.push_back(masked);
    });
    checkTileShape(*this, ind.getType(), tile->shape);
    set(ind.getResult(), TilePtr(tile));
    return true;
  }

  if (auto load = dyn_cast<ktdp::LoadOp>(op)) {
    TilePtr tile = std::get<TilePtr>(get(load.getTile()));
    auto type = cast<RankedTensorType>(load.getType());
    for (unsigned i = 0; i < type.getRank(); ++i)
      if (!type.isDynamicDim(i) && type.getDimSize(i) != tile->shape[i])
        fail("load result shape " + formatShape(type.getShape()) +
             " does not match the access tile's shape " + formatShape(tile->shape));
    MemoryContext mem{launch.global, launch.pads, tileId};
    set(load.getResult(), loadTile(*tile, elemKindOf(type), mem));
    return true;
  }

  if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
    TilePtr tile = std::get<TilePtr>(get(store.getTile()));
    TensorPtr data = tensor(store.getValue());
    if (data->shape() != ArrayRef<int64_t>(tile->shape))
      fail("stored tensor shape " + formatShape(data->shape()) +
           " does not match the access tile's shape " + formatShape(tile->shape));
    if (tile->view && data->kind() != tile->view->kind)
      fail(llvm::Twine("stored element type ") + kindName(data->kind()) +
           " differs from the view's " + kindName(tile->view->kind));
    MemoryContext mem{launch.global, launch.pads, tileId};
    storeTile(*tile, *data, mem);
    return true;
  }

  if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(op)) {
    auto type = cast<ktdp::RuntimeArgType>(extract.getInput().getType());
    switch (extract.getKind()) {
    case ktdp::RuntimeArgExtractKind::Value:
      set(extract.getResult(), get(extract.getInput()));
      return true;
    case ktdp::RuntimeArgExtractKind::Granularity:
      if (!type.getGranularity())
        fail("the runtime argument has no granularity");
      set(extract.getResult(), Scalar::ofInt(ElemKind::Index, *type.getGranularity()));
      return true;
    case ktdp::RuntimeArgExtractKind::Upperbound:
      if (!type.getUpperbound())
        fail("the runtime argument has no upperbound");
      set(extract.getResult(), Scalar::ofInt(ElemKind::Index, *type.getUpperbound()));
      return true;
    }
  }

  if (isa<ktdp::InterTileProduceOp, ktdp::InterTileReduceOp, ktdp::InterTileConsumeOp>(op))
    return execInterTile(op);
  return false;
}
