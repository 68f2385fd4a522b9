//===- AbsorbContraction.cpp - a K loop of matmuls into one contraction ---===//
//
// Strategy. A K-tiled matrix product (example 10) is an scf.for whose one
// tensor iter_arg carries the accumulator: it starts from a splat constant,
// and each iteration loads an M x K block of A and a K x N block of B and
// takes linalg.matmul of them into the carried value (outs). When the A
// block advances by exactly its extent along its K dimension (1) and the B
// block along its K dimension (0) — adjacent blocks, no gaps, no overlap —
// and nothing else flows between iterations, the loop computes one
// linalg.matmul over the union of the blocks, initialised with the constant.
// The rewrite keeps the K order: the union's matmul folds k = 0, 1, ... into
// each element in the order the iterations did (ktir.md §7.2), which is the
// order the matrix unit's `mma` folds its K blocks in, so the result is the
// same bits. The accumulator stays one resident value across what were the
// iterations; how it is blocked, which operand stays resident and where the
// blocks live are decisions of ktsched-schedule-contraction, not of this
// pass. The widened access tiles record what they absorbed
// (`ktsched.absorbed_loop = {carried = "contraction", dim, trips}`).
//
// Left alone (the input check then names the loop): blocks that do not
// advance along K alone or by their extent, a union that passes a view's
// end (masked points), trip counts that are not constant, bodies with
// anything but index work, the two tiles, their loads and the matmul.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_ABSORBCONTRACTION
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// One K-tiled contraction loop and what its rewrite needs.
struct KLoop {
  scf::ForOp loop;
  linalg::MatmulOp matmul;
  ktdp::ConstructAccessTileOp aTile, bTile;
  int64_t trips = 0;
};

/// The constant an affine expression is, if it is one.
std::optional<int64_t> constantOf(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  return std::nullopt;
}

/// Per tile dimension, how far `tile` advances per iteration of `loop`
/// (step `step`), or failure when its subscripts are not affine in the
/// grid ids and the loop variable.
FailureOr<SmallVector<int64_t>> advanceOf(ktdp::ConstructAccessTileOp tile, scf::ForOp loop,
                                          int64_t step) {
  Value iv = loop.getInductionVar();
  SmallVector<AffineExpr> operands;
  for (Value index : tile.getIndices()) {
    FailureOr<AffineExpr> e = traceAffineIndex(index, iv);
    if (failed(e))
      return failure();
    operands.push_back(*e);
  }
  AffineMap baseMap = tile.getBaseMap();
  unsigned nDims = baseMap.getNumDims();
  AffineMap anchor = baseMap.replaceDimsAndSymbols(ArrayRef(operands).take_front(nDims),
                                                   ArrayRef(operands).drop_front(nDims),
                                                   kOriginDims, 0);
  AffineExpr ivExpr = getAffineDimExpr(kOriginDims - 1, loop.getContext());
  SmallVector<int64_t> advance;
  for (AffineExpr e : anchor.getResults()) {
    std::optional<int64_t> a = constantOf(e.replace(ivExpr, ivExpr + step) - e);
    if (!a)
      return failure();
    advance.push_back(*a);
  }
  return advance;
}

/// Whether `tile` advances by its extent along `dim` and along no other
/// dimension, and the union of `trips` blocks stays inside its view.
bool advancesAlong(ktdp::ConstructAccessTileOp tile, scf::ForOp loop, int64_t step,
                   int64_t dim, int64_t trips) {
  FailureOr<SmallVector<int64_t>> advance = advanceOf(tile, loop, step);
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  if (failed(advance) || !box.isBounded() || (int64_t)advance->size() != 2 ||
      box.getExtents().size() != 2)
    return false;
  for (int64_t d = 0; d < 2; ++d)
    if ((*advance)[d] != (d == dim ? box.getExtents()[d] : 0))
      return false;
  // The union along K: from the first block's start, trips blocks. It must
  // not pass the view's end (KTIR would load masked points as zeros, which
  // a product folds in; a contraction over valid points only is not that).
  auto view = tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>();
  if (!view)
    return false;
  FailureOr<AffineExpr> start = traceAffineIndex(tile.getIndices()[dim], loop.getInductionVar());
  if (failed(start))
    return false;
  AffineExpr lbExpr = getAffineConstantExpr(0, loop.getContext());
  if (auto lb = getConstantIntValue(loop.getLowerBound()))
    lbExpr = getAffineConstantExpr(*lb, loop.getContext());
  else
    return false;
  std::optional<int64_t> first =
      constantOf(start->replace(getAffineDimExpr(kOriginDims - 1, loop.getContext()), lbExpr));
  SmallVector<int64_t> sizes(view.getStaticSizes());
  return first && dim < (int64_t)sizes.size() && *first >= 0 &&
         *first + box.lower[dim] + box.getExtents()[dim] * trips <= sizes[dim];
}

/// The K loop `loop` is, if it is one this pass rewrites.
std::optional<KLoop> analyze(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1 || !loop.getBody()->getOps<scf::ForOp>().empty())
    return std::nullopt;
  auto lb = getConstantIntValue(loop.getLowerBound());
  auto ub = getConstantIntValue(loop.getUpperBound());
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return std::nullopt;
  Value carried = loop.getRegionIterArgs()[0];
  auto init = loop.getInitArgs()[0].getDefiningOp<arith::ConstantOp>();
  if (!init || !isa<SplatElementsAttr>(init.getValue()))
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  auto matmul = yield.getOperand(0).getDefiningOp<linalg::MatmulOp>();
  if (!matmul || matmul->getBlock() != loop.getBody() || matmul.getDpsInits()[0] != carried ||
      !carried.hasOneUse() || !matmul->getResult(0).hasOneUse())
    return std::nullopt;
  // Only the default (identity) indexing maps: A is M x K, B is K x N.
  if (matmul.hasUserDefinedMaps())
    return std::nullopt;
  KLoop k;
  k.loop = loop;
  k.matmul = matmul;
  k.trips = (*ub - *lb + *step - 1) / *step;
  for (auto [i, input] : llvm::enumerate(matmul.getDpsInputs())) {
    auto load = input.getDefiningOp<ktdp::LoadOp>();
    if (!load || load->getBlock() != loop.getBody() || !load->getResult(0).hasOneUse())
      return std::nullopt;
    auto tile = load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    if (!tile || tile->getBlock() != loop.getBody() || !tile->getResult(0).hasOneUse())
      return std::nullopt;
    (i == 0 ? k.aTile : k.bTile) = tile;
  }
  if (!advancesAlong(k.aTile, loop, *step, /*dim=*/1, k.trips) ||
      !advancesAlong(k.bTile, loop, *step, /*dim=*/0, k.trips))
    return std::nullopt;
  // Nothing else in the body but scalar index work.
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (&op == matmul.getOperation() || &op == k.aTile.getOperation() ||
        &op == k.bTile.getOperation() || &op == *k.aTile->getUsers().begin() ||
        &op == *k.bTile->getUsers().begin())
      continue;
    if (llvm::any_of(op.getResultTypes(), [](Type t) { return !t.isIndex(); }) ||
        op.getNumRegions() != 0)
      return std::nullopt;
  }
  return k;
}

/// `tile`'s access set and type widened `trips` times along `dim`.
void widenTile(ktdp::ConstructAccessTileOp tile, int64_t dim, int64_t trips,
               DictionaryAttr record) {
  MLIRContext *ctx = tile.getContext();
  ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
  SmallVector<AffineExpr> constraints;
  SmallVector<int64_t> shape;
  for (auto [i, lower] : llvm::enumerate(box.lower)) {
    int64_t extent = box.getExtents()[i] * ((int64_t)i == dim ? trips : 1);
    AffineExpr d = getAffineDimExpr(i, ctx);
    constraints.push_back(d - lower);
    constraints.push_back(-d + lower + extent - 1);
    shape.push_back(extent);
  }
  SmallVector<bool> eq(constraints.size(), false);
  tile.setAccessTileSetAttr(
      IntegerSetAttr::get(IntegerSet::get(box.lower.size(), 0, constraints, eq)));
  tile.getResult().setType(ktdp::AccessTileType::get(ctx, shape));
  tile->setAttr("ktsched.absorbed_loop", record);
}

/// Rewrites `k.loop` into one matmul over the union of its blocks.
void absorb(KLoop &k) {
  scf::ForOp loop = k.loop;
  OpBuilder b(loop);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), loop.getLowerBound());
  mapping.map(loop.getRegionIterArgs()[0], loop.getInitArgs()[0]);
  MLIRContext *ctx = loop.getContext();
  auto record = [&](int64_t dim) {
    return DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "dim"), b.getI64IntegerAttr(dim)),
              NamedAttribute(StringAttr::get(ctx, "trips"), b.getI64IntegerAttr(k.trips)),
              NamedAttribute(StringAttr::get(ctx, "carried"), b.getStringAttr("contraction"))});
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    Operation *clone = b.clone(op, mapping);
    if (&op == k.aTile.getOperation())
      widenTile(cast<ktdp::ConstructAccessTileOp>(clone), 1, k.trips, record(1));
    else if (&op == k.bTile.getOperation())
      widenTile(cast<ktdp::ConstructAccessTileOp>(clone), 0, k.trips, record(0));
    else if (auto load = dyn_cast<ktdp::LoadOp>(clone)) {
      auto type = cast<RankedTensorType>(load.getResult().getType());
      auto tileShape = cast<ktdp::AccessTileType>(load.getTile().getType()).getShape();
      load.getResult().setType(RankedTensorType::get(tileShape, type.getElementType()));
    }
  }
  Value result = mapping.lookup(k.matmul->getResult(0));
  loop.getResult(0).replaceAllUsesWith(result);
  loop.erase();
}

struct AbsorbContractionPass
    : ktflow::ktsched::impl::AbsorbContractionBase<AbsorbContractionPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (std::optional<KLoop> k = analyze(loop))
        absorb(*k);
  }
};

} // namespace
