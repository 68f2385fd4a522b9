//===- ResolvePartitions.cpp - which partitions a distributed view's tiles touch -===//
//
// Strategy. A distributed view (ktir.md §5.3) glues partition views into
// one logical tensor addressed by global coordinates; ktsched-form-groups
// made it a ktsched.tensor over the box of the union that names the
// partitions' tensors. The grid is static and every transfer's origin is
// affine in the grid coordinates, so which partition each coordinate of a
// grid tile's tile lies in is known at compile time: this pass checks the
// partitions (boxes that neither overlap, where the interpreter would take
// the first, nor leave a hole in the union's box, where it would mask) and
// records, on each load and store through the view, the pieces of every
// grid tile's tile: per piece the partition and the box it covers,
// relative to the tile's origin. The lowering copies each piece with its
// own partition's base and local offsets (lib/Lower/DistributedCopy.cpp)
// and lowers grid tiles with different pieces apart, as it does classes.
//
// Diagnosed here, each located: overlapping partitions, a hole, partitions
// of another rank, a view used by anything but a compute group's loads and
// stores (contractions, transposes, gathers through it), and a transfer in
// a loop whose bounds are carried symbolically. In a loop the pieces are
// recorded per grid tile and iteration. The passes that
// rewrite a tensor's layout (flattening, granule blocks, grid-tile merges)
// leave groups with distributed transfers alone.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_RESOLVEPARTITIONS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

struct Box {
  SmallVector<int64_t> lo, hi; // [lo, hi) per dimension

  bool empty() const {
    for (size_t d = 0; d < lo.size(); ++d)
      if (lo[d] >= hi[d])
        return true;
    return false;
  }
  int64_t volume() const {
    int64_t v = 1;
    for (size_t d = 0; d < lo.size(); ++d)
      v *= std::max<int64_t>(0, hi[d] - lo[d]);
    return v;
  }
  Box meet(const Box &other) const {
    Box r = *this;
    for (size_t d = 0; d < lo.size(); ++d) {
      r.lo[d] = std::max(lo[d], other.lo[d]);
      r.hi[d] = std::min(hi[d], other.hi[d]);
    }
    return r;
  }
  std::string str() const {
    std::string s;
    for (size_t d = 0; d < lo.size(); ++d)
      s += (d ? " x [" : "[") + std::to_string(lo[d]) + ", " + std::to_string(hi[d]) + ")";
    return s;
  }
};

Box boxOf(TensorOp tensor) {
  Box b;
  for (auto [lo, n] : llvm::zip(tensor.getLowerCorner(), tensor.getShape())) {
    b.lo.push_back(lo);
    b.hi.push_back(lo + n);
  }
  return b;
}

} // namespace

SmallVector<TensorOp> ktflow::ktsched::partitionTensors(TensorOp tensor) {
  SmallVector<TensorOp> parts;
  auto kernel = tensor->getParentOfType<KernelOp>();
  if (std::optional<ArrayAttr> list = tensor.getPartitions())
    for (Attribute ref : *list)
      if (auto part = kernel.lookupSymbol<TensorOp>(cast<FlatSymbolRefAttr>(ref).getValue()))
        parts.push_back(part);
  return parts;
}

bool ktflow::ktsched::touchesDistributed(Operation *root) {
  return namesTensor(root, [](TensorOp tensor) { return tensor.getPartitions().has_value(); });
}

namespace {

struct ResolvePartitions : public ktsched::impl::ResolvePartitionsBase<ResolvePartitions> {
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      for (TensorOp tensor : llvm::make_early_inc_range(kernel.getOps<TensorOp>()))
        if (tensor.getPartitions() && failed(resolve(kernel, tensor)))
          return signalPassFailure();
  }

  LogicalResult resolve(KernelOp kernel, TensorOp tensor) {
    SmallVector<TensorOp> parts = partitionTensors(tensor);
    SmallVector<Box> boxes;
    Box whole = boxOf(tensor);
    int64_t covered = 0;
    for (auto [i, part] : llvm::enumerate(parts)) {
      if (part.getShape().size() != tensor.getShape().size())
        return tensor.emitError("partition ") << i << " of a distributed view has another rank";
      boxes.push_back(boxOf(part));
      for (size_t j = 0; j < i; ++j)
        if (Box both = boxes[j].meet(boxes[i]); !both.empty())
          return tensor.emitError("partitions ")
                 << j << " and " << i << " of a distributed view overlap at " << both.str()
                 << ": overlapping partitions are not lowered (ktir.md §5.3 leaves which one a "
                    "coordinate resolves to unspecified)";
      covered += boxes[i].volume();
    }
    if (covered != whole.volume())
      return tensor.emitError("the partitions of a distributed view leave a hole in ")
             << whole.str() << " (" << whole.volume() - covered
             << " coordinates in no partition): masked points inside a distributed view are "
                "not lowered";
    // Every use: a compute group's load or store.
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(tensor, kernel);
    if (uses)
      for (const SymbolTable::SymbolUse &use : *uses) {
        Operation *user = use.getUser();
        if (!isa<LoadOp, StoreOp>(user) || !user->getParentOfType<GroupOp>())
          return user->emitError("a transfer through a distributed view in a '")
                 << user->getName()
                 << "': only element-wise and reducing compute groups' loads and stores "
                    "through distributed views are lowered";
        if (failed(recordPieces(kernel, user, boxes, whole)))
          return failure();
      }
    return success();
  }

  LogicalResult recordPieces(KernelOp kernel, Operation *transfer, ArrayRef<Box> boxes,
                             const Box &whole) {
    auto group = transfer->getParentOfType<GroupOp>();
    // In a loop, each iteration's tile is cut on its own: the pieces are
    // per grid tile and iteration (the loop's bounds are affine in the
    // grid coordinates). A bound carried symbolically is not known here.
    AffineMap lbMap, ubMap;
    int64_t step = 1;
    if (std::optional<DictionaryAttr> loop = group.getLoop()) {
      auto lb = loop->getAs<AffineMapAttr>("lb"), ub = loop->getAs<AffineMapAttr>("ub");
      auto stepAttr = loop->getAs<IntegerAttr>("step");
      if (!lb || !ub || !stepAttr || stepAttr.getInt() <= 0 || loop->get("ub_symbolic"))
        return transfer->emitError("a transfer through a distributed view in a loop whose "
                                   "bounds are not known at compile time: which partitions "
                                   "its tiles touch cannot be resolved");
      lbMap = lb.getValue(), ubMap = ub.getValue(), step = stepAttr.getInt();
    }
    AffineMap origin = cast<AffineMapAttr>(transfer->getAttr("origin")).getValue();
    ArrayRef<int64_t> shape = cast<DenseI64ArrayAttr>(transfer->getAttr("shape")).asArrayRef();
    ArrayRef<int64_t> grid = kernel.getGrid();
    Builder b(transfer->getContext());
    SmallVector<Attribute> perTile;
    for (int64_t linear = 0; linear < grid[0] * grid[1] * grid[2]; ++linear) {
      SmallVector<int64_t> grid3 = {linear % grid[0], (linear / grid[0]) % grid[1],
                                    linear / (grid[0] * grid[1])};
      int64_t first = lbMap ? evalLoopBound(lbMap, grid3, /*upper=*/false) : 0;
      int64_t last = ubMap ? evalLoopBound(ubMap, grid3, /*upper=*/true) : 1;
      SmallVector<Attribute> perIteration;
      for (int64_t iv = first; iv < last; iv += step) {
      SmallVector<int64_t> coords = {grid3[0], grid3[1], grid3[2], iv};
      coords.resize(origin.getNumDims(), 0);
      SmallVector<int64_t> at = origin.compose(coords);
      Box tile;
      for (auto [o, n] : llvm::zip(at, shape)) {
        tile.lo.push_back(o);
        tile.hi.push_back(o + n);
      }
      // Points outside the union's box are masked as for any view (the
      // grid-tile classes cut them off).
      tile = tile.meet(whole);
      SmallVector<Attribute> pieces;
      for (auto [p, box] : llvm::enumerate(boxes)) {
        Box piece = tile.meet(box);
        if (piece.empty())
          continue;
        SmallVector<int64_t> entry = {(int64_t)p};
        for (size_t d = 0; d < at.size(); ++d) {
          entry.push_back(piece.lo[d] - at[d]);
          entry.push_back(piece.hi[d] - piece.lo[d]);
        }
        pieces.push_back(b.getDenseI64ArrayAttr(entry));
      }
      perIteration.push_back(b.getArrayAttr(pieces));
      }
      // Without a loop (or with one iteration), a grid tile's pieces; else
      // a list of them per iteration.
      perTile.push_back(lbMap ? b.getArrayAttr(perIteration)
                              : (perIteration.empty() ? b.getArrayAttr({}) : perIteration[0]));
    }
    transfer->setAttr("pieces", b.getArrayAttr(perTile));
    return success();
  }
};

} // namespace
