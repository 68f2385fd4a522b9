//===- ForwardLocalStores.cpp - program-owned scratchpad round trips ------===//
//
// Strategy. A kernel may stage values through its own tile's scratchpad
// (`ct_local` views without `ct_id`, ktir.md §2.5): it stores a tensor at
// local addresses it chose and loads it back later, possibly through a
// differently shaped view of the same bytes (§2.4: a load observes every
// earlier store of the same tile to the same bytes). Nothing outside the
// tile observes those bytes, and the compiler already keeps every tensor a
// compute group works on in that same scratchpad, so the round trip is a
// copy of values the schedule holds: each such load is replaced by the
// tensor the latest overlapping store wrote, when that store wrote exactly
// the loaded bytes in the loaded order and type. The stores, views and
// access tiles are then dead and go; with no `ct_local` access left, no
// range needs reserving (§2.5) before scratchpad allocation.
//
// Accesses are compared as byte-address functions: a base byte and, per
// tile dimension of more than one element, an extent and a byte stride.
// The function needs constant view offsets, strides and subscripts (true
// after specialization for the programs frontends write). Every access is
// also checked against the capacity of the memory backing `ct_local`
// (§2.1). What this cannot resolve is diagnosed here, naming the rule: a
// load of bytes no earlier store wrote (unspecified, §2.4), a load whose
// bytes were written in another shape, order or type, accesses inside
// loops or branches, and non-constant addresses. `ct_id` (another tile's
// scratchpad) is left for the input check, which names it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_FORWARDLOCALSTORES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// The bytes one access to a scratchpad touches, as a function of the
/// tile position: `base + sum(p_k * stride_k)` over the dimensions of more
/// than one element, in tile order.
struct ByteMap {
  Bytes base{0};
  SmallVector<std::pair<int64_t, Bytes>> dims; // (extent, byte stride)
  Type elementType;
  /// The lowest and one past the highest byte touched.
  Bytes lo{0}, hi{0};

  bool sameAs(const ByteMap &o) const {
    return base == o.base && dims == o.dims && elementType == o.elementType;
  }
  bool overlaps(const ByteMap &o) const { return lo < o.hi && o.lo < hi; }
};

/// A ct_local view of the executing tile's own scratchpad, or null.
ktdp::ConstructMemoryViewOp ownScratchpadView(ktdp::ConstructAccessTileOp tile) {
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view || !view.getMemorySpace().isCtLocal() || view.getMemorySpace().getCtId())
    return nullptr;
  return view;
}

/// The byte map of an access through `tile` to a ct_local view, or a
/// located error saying which part is not constant or not a box.
FailureOr<ByteMap> byteMapOf(ktdp::ConstructAccessTileOp tile, Operation *user) {
  auto view = cast<ktdp::ConstructMemoryViewOp>(tile.getBase().getDefiningOp());
  auto fail = [&](const Twine &what) {
    return user->emitError("a ct_local (scratchpad) access with ")
           << what << " not supported: staging through the program's scratchpad needs constant "
                      "addresses";
  };
  std::optional<int64_t> offset = getConstantIntValue(view.getOffset());
  if (!offset)
    return fail("a non-constant view offset");
  if (!view.getSizes().empty() || !view.getStrides().empty())
    return fail("SSA sizes or strides");
  if (!tile.getSymbolOperands().empty())
    return fail("access-tile symbols");
  SmallVector<int64_t> indices;
  for (Value v : tile.getIndices()) {
    std::optional<int64_t> c = getConstantIntValue(v);
    if (!c)
      return fail("a subscript that is not constant");
    indices.push_back(*c);
  }
  SmallVector<int64_t> start = tile.getBaseMap().compose(indices);
  std::optional<SmallVector<unsigned>> perm = tile.getOrderPermutation();
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  if (!perm || !box.isBounded() || !ktdp::isBox(tile.getAccessTileSet()))
    return fail("a set that is not a box or an order that is not a permutation");
  ktdp::BoundingBox viewBox = view.getCoordinateSet()
                                  ? ktdp::computeBoundingBox(*view.getCoordinateSet())
                                  : ktdp::BoundingBox();
  ArrayRef<int64_t> strides = view.getStaticStrides();
  ArrayRef<int64_t> sizes = view.getStaticSizes();
  ElementSize esize = elementSize(view.getElementType());
  ByteMap map;
  map.elementType = view.getElementType();
  // The view coordinate of set point p is start + p; its element address
  // offset + sum((c_k - lo_k) * stride_k), lo the coordinate set's lowest.
  int64_t element = *offset;
  for (unsigned d = 0; d < start.size(); ++d) {
    int64_t lo = viewBox.isBounded() ? viewBox.lower[d] : 0;
    int64_t first = start[d] + box.lower[d];
    int64_t last = first + box.getExtents()[d] - 1;
    int64_t viewEnd = viewBox.isBounded() ? viewBox.upper[d] : sizes[d] - 1;
    if (first < lo || last > viewEnd || last - lo >= sizes[d])
      return fail("points outside the view (masked loads read zeros)");
    element += (first - lo) * strides[d];
  }
  map.base = toBytes(Elements(element), esize);
  // Tile dimension i walks set dimension perm[i].
  Bytes lo = map.base, hi = map.base;
  for (unsigned i = 0; i < perm->size(); ++i) {
    unsigned d = (*perm)[i];
    int64_t extent = box.getExtents()[d];
    Bytes stride = toBytes(Elements(strides[d]), esize);
    if (extent > 1)
      map.dims.push_back({extent, stride});
    Bytes reach = stride * (extent - 1);
    if (reach.count() < 0)
      lo = lo + reach;
    else
      hi = hi + reach;
  }
  map.lo = lo;
  map.hi = hi + esize.bytes;
  if (map.lo.count() < 0)
    return fail("a negative address");
  return map;
}

struct LocalStore {
  ktdp::StoreOp op;
  ByteMap bytes;
};

struct ForwardLocalStoresPass
    : ktflow::ktsched::impl::ForwardLocalStoresBase<ForwardLocalStoresPass> {
  using Base::Base;

  /// Forwards within the body of `func`; false after a diagnostic.
  bool forward(func::FuncOp func, std::optional<Bytes> capacity) {
    auto ownTile = [](Value t) -> ktdp::ConstructAccessTileOp {
      auto tile = t.getDefiningOp<ktdp::ConstructAccessTileOp>();
      return tile && ownScratchpadView(tile) ? tile : nullptr;
    };
    bool ok = true;
    // Accesses in nested regions see stores of other iterations or
    // branches: not forwarded.
    func.walk([&](Operation *op) {
      if (op->getBlock() == &func.getBody().front())
        return;
      Value tile;
      if (auto load = dyn_cast<ktdp::LoadOp>(op))
        tile = load.getTile();
      else if (auto store = dyn_cast<ktdp::StoreOp>(op))
        tile = store.getTile();
      if (tile && ownTile(tile)) {
        op->emitError("a ct_local (scratchpad) access inside a loop or branch not supported: "
                      "staging through the program's scratchpad is forwarded in straight-line "
                      "code only");
        ok = false;
      }
    });
    if (!ok)
      return false;
    auto checkCapacity = [&](const ByteMap &map, Operation *op) {
      if (!capacity || map.hi <= *capacity)
        return true;
      op->emitError("a ct_local access reaching byte ")
          << map.hi.count() << " is outside the scratchpad's " << capacity->count()
          << " usable bytes (ktir.md 2.1)";
      return false;
    };
    SmallVector<LocalStore> stores;
    SmallVector<Operation *> dead;
    for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
      if (auto store = dyn_cast<ktdp::StoreOp>(op)) {
        ktdp::ConstructAccessTileOp tile = ownTile(store.getTile());
        if (!tile)
          continue;
        FailureOr<ByteMap> map = byteMapOf(tile, store);
        if (failed(map) || !checkCapacity(*map, store))
          return false;
        stores.push_back({store, *map});
        dead.push_back(store);
        continue;
      }
      auto load = dyn_cast<ktdp::LoadOp>(op);
      if (!load)
        continue;
      ktdp::ConstructAccessTileOp tile = ownTile(load.getTile());
      if (!tile)
        continue;
      FailureOr<ByteMap> map = byteMapOf(tile, load);
      if (failed(map) || !checkCapacity(*map, load))
        return false;
      LocalStore *latest = nullptr;
      for (LocalStore &s : llvm::reverse(stores))
        if (s.bytes.overlaps(*map)) {
          latest = &s;
          break;
        }
      if (!latest) {
        load.emitError("a ct_local load of scratchpad bytes no earlier store of this tile wrote: "
                       "their contents are unspecified (ktir.md 2.4)");
        return false;
      }
      if (!latest->bytes.sameAs(*map) ||
          latest->op.getValue().getType() != load.getResult().getType()) {
        InFlightDiagnostic diag =
            load.emitError("a ct_local load of scratchpad bytes the latest store wrote in another "
                           "shape, order or type not supported: only whole stored tensors are "
                           "read back");
        diag.attachNote(latest->op.getLoc()) << "the store";
        return false;
      }
      load.getResult().replaceAllUsesWith(latest->op.getValue());
      dead.push_back(load);
    }
    for (Operation *op : llvm::reverse(dead))
      op->erase();
    // What the forwarding left without users: own-scratchpad access tiles,
    // then their views.
    SmallVector<Operation *> tiles, views;
    func.walk([&](ktdp::ConstructAccessTileOp tile) {
      if (tile.use_empty() && ownScratchpadView(tile))
        tiles.push_back(tile);
    });
    for (Operation *tile : tiles)
      tile->erase();
    func.walk([&](ktdp::ConstructMemoryViewOp view) {
      if (view.use_empty() && view.getMemorySpace().isCtLocal() && !view.getMemorySpace().getCtId())
        views.push_back(view);
    });
    for (Operation *view : views)
      view->erase();
    return true;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](ktdp::ConstructMemoryViewOp view) {
      any |= view.getMemorySpace().isCtLocal();
    });
    if (!any)
      return;
    std::optional<Bytes> capacity;
    if (!arch.empty()) {
      auto model = getArchModel(module, arch);
      if (!model)
        return signalPassFailure();
      capacity = model->node(model->ctLocalMemory()).memory.usable();
    }
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !forward(func, capacity))
        return signalPassFailure();
  }
};

} // namespace
