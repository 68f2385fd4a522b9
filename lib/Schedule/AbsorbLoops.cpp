//===- AbsorbLoops.cpp - loops whose iterations tile one larger block -----===//
//
// Strategy. A loop whose iterations move adjacent blocks — every access
// tile of its body advances, per iteration, by exactly its extent along one
// tile dimension (the same for all) and moves along no other — computes
// what one iteration over the union of those blocks computes, when nothing
// flows between iterations but an accumulation. Two such loops are
// rewritten into that one wider iteration:
//
//  * an accumulating loop (`iter_args`): each carried value starts from a
//    constant and is combined (add, max, min) with a reduction, by the same
//    combiner, over the advancing dimension of a value computed from the
//    iteration's loads. The union is one reduction over the whole span,
//    initialised with the carried value's init; the accumulator is the
//    reduction's (registers per result vector in the lowering), resident
//    across what were the iterations. Sums are reordered, which ktir.md
//    §7.3's tolerance for reductions allows. A scalar iter_arg (Triton's
//    running sum) is the same accumulation of a reduction's one element
//    (tensor.extract): the union's reduction is initialised with the
//    scalar init splat to its one-element result, the loop's result is
//    that element, and its scalar uses then move onto the tensor
//    (ScalarResults.h).
//  * a loop without `iter_args` nested in another loop (column blocks of a
//    row loop): the wider block takes the inner loop's place, so the outer
//    loop is the group's one loop level.
//
// The trip count must be the same on every grid tile (the wider block has
// one static shape); the last iteration's overhang past the loop's bound is
// part of the union exactly as it was part of the last block (the views'
// coordinate sets mask it). KTIR loads masked points as zeros and an
// accumulation folds in what the body makes of them, the lowering only
// valid elements: a union past a view's end is absorbed when that value is
// a known constant (maskedValue) the init can take — zero into a sum, any
// value into a max or min that every grid tile's union folds in alike. The rewritten access tiles record what they
// absorbed (`ktsched.absorbed_loop`), and the compute groups carry it.
// Loops this pass leaves alone are diagnosed by the input check.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScalarResults.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

#include <cmath>

namespace ktflow::ktsched {
#define GEN_PASS_DEF_ABSORBLOOPS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// One carried value of an accumulating loop: the reduction whose result
/// the yield combines into the iter_arg. A scalar iter_arg (Triton's form)
/// takes the reduction's one element through `extract`.
struct Accumulation {
  linalg::ReduceOp reduce;
  Operation *combine = nullptr;
  tensor::ExtractOp extract;
  /// Where the union has masked points: the init with their value folded
  /// in (the loop's init when that changes nothing).
  std::optional<double> maskedInit;
};

/// What a loop absorbs: the tile dimension its blocks advance along, how
/// many iterations, and, for an accumulating loop, the accumulations.
struct Absorption {
  scf::ForOp loop;
  int64_t dim = -1;
  int64_t trips = 0;
  int64_t step = 0;
  int64_t rank = 0;
  SmallVector<Accumulation> accumulations;
};

} // namespace

/// The loops enclosing `op`, outermost first, with `op` itself when it is
/// one: the loop variables an index may depend on.
static SmallVector<Value> enclosingIvs(Operation *op) {
  SmallVector<Value> ivs;
  for (Operation *p = op; p; p = p->getParentOp())
    if (auto loop = dyn_cast<scf::ForOp>(p))
      ivs.insert(ivs.begin(), loop.getInductionVar());
  return ivs;
}

/// The constant an affine expression is, if it is one.
static std::optional<int64_t> constantOf(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(e, 8, 0)))
    return c.getValue();
  return std::nullopt;
}

static std::optional<StringRef> combinerOf(Operation *op) {
  if (isa<arith::AddFOp>(op))
    return StringRef("add");
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return StringRef("max");
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return StringRef("min");
  return std::nullopt;
}

static std::optional<StringRef> reduceCombiner(linalg::ReduceOp reduce) {
  Block &body = reduce.getCombiner().front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  return combinerOf(&body.front());
}

/// Whether `value` is a constant tensor equal everywhere to the identity of
/// `combiner` (a reduction's init that folding in changes nothing).
static std::optional<double> splatConstant(Value value) {
  Operation *def = value.getDefiningOp();
  Attribute attr;
  if (auto constant = dyn_cast_or_null<arith::ConstantOp>(def))
    attr = constant.getValue();
  else if (auto splat = dyn_cast_or_null<tensor::SplatOp>(def))
    return splatConstant(splat.getInput());
  else if (auto fill = dyn_cast_or_null<linalg::FillOp>(def))
    return splatConstant(fill.getInputs()[0]);
  else
    return std::nullopt;
  if (auto dense = dyn_cast<SplatElementsAttr>(attr))
    attr = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  return std::nullopt;
}

static bool isIdentity(StringRef combiner, double value) {
  if (combiner == "add")
    return value == 0.0;
  if (combiner == "max")
    return std::isinf(value) && value < 0;
  return std::isinf(value) && value > 0;
}

/// Where `tile` starts, as an affine map over the grid ids and the
/// enclosing loops' variables (dimension `ivDim` the innermost's).
static FailureOr<AffineMap> tileAnchor(ktdp::ConstructAccessTileOp tile, ArrayRef<Value> ivs,
                                       unsigned ivDim) {
  SmallVector<AffineExpr> operands;
  for (Value index : tile.getIndices()) {
    FailureOr<AffineExpr> e = traceAffineIndexOver(index, ivs);
    if (failed(e))
      return failure();
    operands.push_back(*e);
  }
  AffineMap baseMap = tile.getBaseMap();
  unsigned nDims = baseMap.getNumDims();
  return baseMap.replaceDimsAndSymbols(ArrayRef(operands).take_front(nDims),
                                       ArrayRef(operands).drop_front(nDims), ivDim + 1, 0);
}

/// Per access tile of the body: how far it advances along each tile
/// dimension per iteration. The loop is absorbable along `dim` when every
/// tile advances by its extent along `dim` and nowhere else.
static std::optional<int64_t> advancingDim(scf::ForOp loop, int64_t step) {
  SmallVector<Value> ivs = enclosingIvs(loop);
  unsigned ivDim = 3 + ivs.size() - 1;
  MLIRContext *ctx = loop.getContext();
  std::optional<int64_t> dim;
  bool ok = true;
  loop.getBody()->walk([&](ktdp::ConstructAccessTileOp tile) {
    FailureOr<AffineMap> traced = tileAnchor(tile, ivs, ivDim);
    if (failed(traced)) {
      ok = false;
      return;
    }
    AffineMap anchor = *traced;
    ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
    if (!box.isBounded() || (int64_t)box.getExtents().size() != anchor.getNumResults()) {
      ok = false;
      return;
    }
    AffineExpr iv = getAffineDimExpr(ivDim, ctx);
    for (auto [i, e] : llvm::enumerate(anchor.getResults())) {
      std::optional<int64_t> advance = constantOf(e.replace(iv, iv + step) - e);
      if (!advance) {
        ok = false;
        return;
      }
      if (*advance == 0)
        continue;
      if (*advance != box.getExtents()[i] || (dim && *dim != (int64_t)i)) {
        ok = false;
        return;
      }
      dim = i;
    }
    if (!dim)
      ok = false; // a block every iteration reads again: not a part of the union
  });
  if (!ok)
    return std::nullopt;
  return dim;
}

/// The kernel's grid, padded to three dimensions.
static SmallVector<int64_t, 3> gridOf(Operation *op) {
  SmallVector<int64_t, 3> grid;
  auto func = op->getParentOfType<func::FuncOp>();
  if (auto array = func ? func->getAttrOfType<ArrayAttr>("grid") : ArrayAttr()) {
    for (Attribute a : array)
      if (auto i = dyn_cast<IntegerAttr>(a))
        grid.push_back(i.getInt());
  } else if (auto dense = func ? func->getAttrOfType<DenseI64ArrayAttr>("grid")
                               : DenseI64ArrayAttr()) {
    grid.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  }
  while (grid.size() < 3)
    grid.push_back(1);
  return grid;
}

/// How the blocks an accumulating loop loads lie against their views along
/// the advancing dimension, over the grid tiles. KTIR reads masked points
/// as zeros, which the reduction folds in (after the element-wise ops
/// before it); the lowering folds only valid elements.
struct UnionMasking {
  /// Every load traced, and where some are masked, all alike on each tile
  /// (the same valid span), with at least one valid point.
  bool known = true;
  bool anyMasked = false;
  bool everyTileMasked = true;
};

static UnionMasking unionMasking(scf::ForOp loop, int64_t dim, int64_t trips) {
  UnionMasking result;
  SmallVector<Value> ivs = enclosingIvs(loop);
  unsigned ivDim = 3 + ivs.size() - 1;
  FailureOr<AffineExpr> lb = traceAffineIndexOver(loop.getLowerBound(), ivs);
  if (failed(lb))
    return {false};
  SmallVector<int64_t, 3> grid = gridOf(loop);
  int64_t tiles = grid[0] * grid[1] * grid[2];
  // Per grid tile: the union's span and its valid part, of the first load.
  SmallVector<std::array<int64_t, 4>> spans;
  loop.getBody()->walk([&](ktdp::LoadOp load) {
    auto tile = load.getTile().getDefiningOp<ktdp::ConstructAccessTileOp>();
    auto view = tile ? tile.getBase().getDefiningOp<ktdp::ConstructMemoryViewOp>()
                     : ktdp::ConstructMemoryViewOp();
    FailureOr<AffineMap> traced =
        view && view.getCoordinateSet() ? tileAnchor(tile, ivs, ivDim)
                                        : FailureOr<AffineMap>(failure());
    if (failed(traced)) {
      result.known = false;
      return;
    }
    AffineMap anchor = *traced;
    AffineExpr start = anchor.getResult(dim).replace(
        getAffineDimExpr(ivDim, loop.getContext()), *lb);
    AffineMap at = AffineMap::get(ivDim + 1, 0, start);
    // Outer loop variables must not move the block along this dimension.
    for (unsigned d = 3; d < ivDim; ++d)
      if (at.isFunctionOfDim(d)) {
        result.known = false;
        return;
      }
    ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
    ktdp::BoundingBox bounds = ktdp::computeBoundingBox(*view.getCoordinateSet());
    if (!bounds.isBounded() || (int64_t)bounds.lower.size() <= dim) {
      result.known = false;
      return;
    }
    int64_t low = bounds.lower[dim], high = bounds.lower[dim] + bounds.getExtents()[dim];
    bool first = spans.empty();
    for (int64_t c = 0; c < tiles && result.known; ++c) {
      SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1],
                                     c / (grid[0] * grid[1])};
      coords.resize(ivDim + 1, 0);
      int64_t begin = at.compose(coords)[0] + box.lower[dim];
      int64_t end = begin + box.getExtents()[dim] * trips;
      std::array<int64_t, 4> span = {begin, end, std::max(begin, low), std::min(end, high)};
      if (first)
        spans.push_back(span);
      bool masked = begin < low || end > high;
      result.anyMasked |= masked;
      result.everyTileMasked &= masked;
      // A union with no valid point, or loads masked differently (a point
      // masked in one and valid in another takes no constant value).
      if (span[2] >= span[3] || ((masked || result.anyMasked) && spans[c] != span))
        result.known = false;
    }
  });
  return result;
}

/// `combiner` applied to `a` and `b` (max and min order signed zeros).
static double combine(StringRef combiner, double a, double b) {
  if (combiner == "add")
    return a + b;
  if (a == 0.0 && b == 0.0) // signed zeros: max takes +0 unless both are -0
    return combiner == "max" ? (std::signbit(a) && std::signbit(b) ? -0.0 : 0.0)
                             : (std::signbit(a) || std::signbit(b) ? -0.0 : 0.0);
  return combiner == "max" ? std::max(a, b) : std::min(a, b);
}

/// `x` rounded to the float type `type` (to nearest, ties to even).
static double roundTo(Type type, double x) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return x;
  llvm::APFloat value(x);
  bool lost = false;
  value.convert(floatType.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// The value `value` takes at a block's masked points, which KTIR loads as
/// +0, where every op on the way is known there: arithmetic (add, sub, mul,
/// div, rounded to the op's type as the interpreter rounds), casts,
/// negation, abs, max, min and select; exp, log, sqrt, rsqrt, tanh, erf and
/// pow only where their results are exact (exp(0), log(1), sqrt(0),
/// rsqrt(1), tanh(0), erf(0), pow(1, x), pow(x, 0)). Splat constants are
/// themselves.
static std::optional<double> maskedValue(Value value) {
  if (std::optional<double> constant = splatConstant(value))
    return constant;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1)
    return std::nullopt;
  if (isa<ktdp::LoadOp>(def))
    return 0.0;
  ValueRange operands = def->getOperands();
  if (auto named = dyn_cast<linalg::LinalgOp>(def))
    operands = named.getDpsInputs();
  SmallVector<double, 3> v;
  for (Value operand : operands) {
    std::optional<double> known = maskedValue(operand);
    if (!known)
      return std::nullopt;
    v.push_back(*known);
  }
  Type type = getElementTypeOrSelf(def->getResult(0).getType());
  auto exact = [](double x) { return std::optional<double>(x); };
  auto zero = [](double x) { return x == 0.0; };
  if (isa<arith::ExtFOp, arith::TruncFOp>(def))
    return roundTo(type, v[0]);
  if (isa<arith::NegFOp, linalg::NegFOp>(def))
    return -v[0];
  if (isa<math::AbsFOp, linalg::AbsOp>(def))
    return std::fabs(v[0]);
  if (isa<math::ExpOp, linalg::ExpOp>(def))
    return zero(v[0]) ? exact(1.0) : std::nullopt;
  if (isa<math::LogOp, linalg::LogOp>(def))
    return v[0] == 1.0 ? exact(0.0) : std::nullopt;
  if (isa<math::SqrtOp, math::TanhOp, math::ErfOp, linalg::SqrtOp, linalg::TanhOp,
          linalg::ErfOp>(def))
    return zero(v[0]) ? exact(v[0]) : std::nullopt;
  if (isa<math::RsqrtOp, linalg::RsqrtOp>(def))
    return v[0] == 1.0 ? exact(1.0) : std::nullopt;
  if (isa<math::PowFOp, linalg::PowFOp>(def))
    return v[0] == 1.0 || zero(v[1]) ? exact(1.0) : std::nullopt;
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    auto cmp = select.getCondition().getDefiningOp<arith::CmpFOp>();
    std::optional<double> l = cmp ? maskedValue(cmp.getLhs()) : std::nullopt;
    std::optional<double> r = cmp ? maskedValue(cmp.getRhs()) : std::nullopt;
    if (!l || !r || v.size() != 3)
      return std::nullopt;
    std::optional<bool> taken;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::OLT: taken = *l < *r; break;
    case arith::CmpFPredicate::OLE: taken = *l <= *r; break;
    case arith::CmpFPredicate::OGT: taken = *l > *r; break;
    case arith::CmpFPredicate::OGE: taken = *l >= *r; break;
    case arith::CmpFPredicate::OEQ: taken = *l == *r; break;
    case arith::CmpFPredicate::UNE: taken = *l != *r; break;
    default: break;
    }
    if (!taken)
      return std::nullopt;
    return *taken ? v[1] : v[2];
  }
  if (v.size() != 2)
    return std::nullopt;
  double a = v[0], b = v[1];
  // Sums, differences, products and quotients of two values of `type`: in
  // double, then rounded to `type`, which is the correctly rounded result
  // (double has more than twice the precision plus two bits of f32, f16
  // and bf16), as the interpreter's.
  if (isa<arith::AddFOp, linalg::AddOp>(def))
    return roundTo(type, a + b);
  if (isa<arith::SubFOp, linalg::SubOp>(def))
    return roundTo(type, a - b);
  if (isa<arith::MulFOp, linalg::MulOp>(def))
    return roundTo(type, a * b);
  if (isa<arith::DivFOp, linalg::DivOp>(def))
    return zero(b) ? std::nullopt : exact(roundTo(type, a / b));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, linalg::MaxOp>(def))
    return combine("max", a, b);
  if (isa<arith::MinimumFOp, arith::MinNumFOp, linalg::MinOp>(def))
    return combine("min", a, b);
  return std::nullopt;
}


/// The accumulations of `loop`'s iter_args, or failure when a carried value
/// is anything else.
static FailureOr<SmallVector<Accumulation>> accumulationsOf(scf::ForOp loop, int64_t dim) {
  SmallVector<Accumulation> result;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    bool scalar = isa<FloatType>(arg.getType());
    if ((!isa<RankedTensorType>(arg.getType()) && !scalar) || !arg.hasOneUse())
      return failure();
    Operation *combine = yield.getOperand(i).getDefiningOp();
    std::optional<StringRef> kind = combine ? combinerOf(combine) : std::nullopt;
    if (!kind || combine->getBlock() != loop.getBody() || !combine->hasOneUse())
      return failure();
    Value other = combine->getOperand(0) == arg ? combine->getOperand(1)
                  : combine->getOperand(1) == arg ? combine->getOperand(0)
                                                  : Value();
    // A scalar carries the one element of the block's reduction.
    tensor::ExtractOp extract;
    if (scalar) {
      extract = other ? other.getDefiningOp<tensor::ExtractOp>() : tensor::ExtractOp();
      if (!extract || !extract->hasOneUse() ||
          extract.getTensor().getType().getNumElements() != 1)
        return failure();
      other = extract.getTensor();
    }
    auto reduce = other ? other.getDefiningOp<linalg::ReduceOp>() : linalg::ReduceOp();
    if (!reduce || reduce.getDimensions().size() != 1 || reduce.getDimensions()[0] != dim ||
        reduceCombiner(reduce) != kind || !reduce->hasOneUse())
      return failure();
    std::optional<double> inner = splatConstant(reduce.getInits()[0]);
    if (!inner || !isIdentity(*kind, *inner) ||
        !splatConstant(loop.getInitArgs()[i]))
      return failure();
    result.push_back({reduce, combine, extract});
  }
  return result;
}

/// The init of the iter_arg `acc` combines into.
static Value carriedInit(scf::ForOp loop, Accumulation acc) {
  Value reduced = acc.extract ? acc.extract.getResult() : acc.reduce.getResult(0);
  Operation *combine = acc.combine;
  auto arg = cast<BlockArgument>(combine->getOperand(0) == reduced ? combine->getOperand(1)
                                                                   : combine->getOperand(0));
  return loop.getInitArgs()[arg.getArgNumber() - 1];
}

/// Where an accumulating loop's union has masked points, what KTIR folds in
/// there must be a constant the init can take instead: the same on every
/// tile's points (zero for a sum, which then changes nothing; any constant
/// for a max or min, on every grid tile alike, folded into the init).
static LogicalResult foldMaskedPoints(Absorption &a) {
  UnionMasking masking = unionMasking(a.loop, a.dim, a.trips);
  if (!masking.known)
    return failure();
  if (!masking.anyMasked)
    return success();
  for (Accumulation &acc : a.accumulations) {
    StringRef kind = *reduceCombiner(acc.reduce);
    std::optional<double> masked = maskedValue(acc.reduce.getInputs()[0]);
    std::optional<double> init = splatConstant(carriedInit(a.loop, acc));
    if (!masked || !init)
      return failure();
    if (kind == "add") {
      if (*masked != 0.0)
        return failure();
      continue;
    }
    if (!masking.everyTileMasked)
      return failure();
    acc.maskedInit = combine(kind, *init, *masked);
  }
  return success();
}

/// `type` with `extent` along dimension `dim`.
static RankedTensorType widened(RankedTensorType type, int64_t dim, int64_t extent) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = extent;
  return RankedTensorType::get(shape, type.getElementType());
}

/// Whether `value` is a broadcast (into a static tensor.empty) along `dim`
/// among others: a value computed before the loop that every block reads
/// alike (example 19's row scale), so the wider block takes a wider copy.
static bool isWidenableBroadcast(Value value, int64_t dim) {
  auto broadcast = value.getDefiningOp<linalg::BroadcastOp>();
  if (!broadcast || !llvm::is_contained(broadcast.getDimensions(), dim))
    return false;
  auto empty = broadcast.getInit().getDefiningOp<tensor::EmptyOp>();
  return empty && empty.getType().hasStaticShape() && empty->hasOneUse();
}

/// Whether the body holds only what the wider block can take: index work,
/// views, access tiles, loads, element-wise tensor ops of the tile rank and
/// splat constants. An accumulating loop's reductions are its
/// accumulations and it stores nothing; a loop without iter_args reduces
/// nothing. Tensors from outside the loop are splat constants (widened too)
/// or, for a loop without iter_args, broadcasts along the advancing
/// dimension (widened copies).
static bool bodyIsAbsorbable(Absorption &a, int64_t rank) {
  bool accumulating = !a.accumulations.empty();
  auto isAccumulated = [&](Operation *op) {
    return llvm::any_of(a.accumulations, [&](const Accumulation &acc) {
      return acc.reduce == op || acc.combine == op || acc.extract == op;
    });
  };
  // An accumulation's identity init (a fill of an empty tensor, a
  // constant) feeds nothing but the accumulations.
  std::function<bool(Operation *)> onlyInitializes = [&](Operation *op) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      return isAccumulated(user) || onlyInitializes(user);
    });
  };
  for (Operation &op : a.loop.getBody()->without_terminator()) {
    if (isAccumulated(&op))
      continue;
    if (isa<scf::ForOp, linalg::ReduceOp, linalg::BroadcastOp, tensor::CollapseShapeOp,
            tensor::ExpandShapeOp>(op))
      return false;
    if (accumulating && isa<ktdp::StoreOp>(op))
      return false;
    for (Value operand : op.getOperands())
      if (auto tensor = dyn_cast<RankedTensorType>(operand.getType());
          tensor && a.loop.isDefinedOutsideOfLoop(operand) &&
          (!operand.getDefiningOp<arith::ConstantOp>() || !splatConstant(operand)) &&
          (accumulating || !isWidenableBroadcast(operand, a.dim)))
        return false;
    for (Type type : op.getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type)) {
        // Below the tile rank: only an accumulation's identity init.
        bool init = tensor.getRank() == rank - 1 && accumulating && onlyInitializes(&op);
        if (tensor.getRank() != rank && !init)
          return false;
      }
  }
  return true;
}

/// Rewrites `a.loop` into one iteration over the union of its blocks (the
/// checks of analyze() guarantee every step applies).
static void absorb(Absorption &a, int64_t rank) {
  scf::ForOp loop = a.loop;
  OpBuilder b(loop);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), loop.getLowerBound());
  MLIRContext *ctx = loop.getContext();
  auto record = DictionaryAttr::get(
      ctx, {NamedAttribute(StringAttr::get(ctx, "dim"), b.getI64IntegerAttr(a.dim)),
            NamedAttribute(StringAttr::get(ctx, "trips"), b.getI64IntegerAttr(a.trips)),
            NamedAttribute(StringAttr::get(ctx, "carried"),
                           b.getStringAttr(a.accumulations.empty() ? "none" : "accumulator"))});
  auto widen = [&](Value value) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (!tensor || tensor.getRank() != rank)
      return;
    auto wide = widened(tensor, a.dim, tensor.getDimSize(a.dim) * a.trips);
    value.setType(wide);
    if (auto constant = value.getDefiningOp<arith::ConstantOp>())
      constant.setValueAttr(SplatElementsAttr::get(
          wide, cast<SplatElementsAttr>(constant.getValue()).getSplatValue<Attribute>()));
  };
  for (Operation &op : loop.getBody()->without_terminator()) {
    // Splat constants from outside the loop get a wider copy of their own.
    for (Value operand : op.getOperands())
      if (isa<RankedTensorType>(operand.getType()) && loop.isDefinedOutsideOfLoop(operand) &&
          !mapping.contains(operand) &&
          cast<RankedTensorType>(operand.getType()).getRank() == rank) {
        Operation *def = operand.getDefiningOp();
        IRMapping inits;
        if (auto broadcast = dyn_cast<linalg::BroadcastOp>(def)) {
          // A broadcast from before the loop fills a wider empty tensor.
          Operation *empty = b.clone(*broadcast.getInit().getDefiningOp());
          widen(empty->getResult(0));
          inits.map(broadcast.getInit(), empty->getResult(0));
        }
        Operation *copy = b.clone(*def, inits);
        widen(copy->getResult(0));
        mapping.map(operand, copy->getResult(0));
      }
    Accumulation *accumulation = nullptr;
    for (Accumulation &acc : a.accumulations)
      if (acc.combine == &op || acc.reduce == &op || acc.extract == &op)
        accumulation = &acc;
    if (accumulation && accumulation->combine == &op) {
      // The combine of the carried value becomes the wider reduction (its
      // one element, for a scalar).
      Value reduced = accumulation->extract ? accumulation->extract.getResult()
                                            : accumulation->reduce.getResult(0);
      mapping.map(op.getResult(0), mapping.lookup(reduced));
      continue;
    }
    Operation *clone = b.clone(op, mapping);
    if (accumulation && accumulation->reduce == &op) {
      // The carried value's init is the wider reduction's (with the masked
      // points' value folded in, where that changes it): a scalar's, splat
      // to the one-element result.
      Value init = carriedInit(loop, *accumulation);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(clone);
      if (accumulation->maskedInit) {
        Type type = init.getType();
        auto element = cast<FloatType>(getElementTypeOrSelf(type));
        FloatAttr value = b.getFloatAttr(element, *accumulation->maskedInit);
        init = arith::ConstantOp::create(
            b, init.getLoc(), type,
            isa<RankedTensorType>(type)
                ? TypedAttr(SplatElementsAttr::get(cast<RankedTensorType>(type), value))
                : TypedAttr(value));
      }
      if (accumulation->extract)
        init = tensor::SplatOp::create(b, init.getLoc(),
                                       accumulation->reduce.getResult(0).getType(), init);
      cast<linalg::ReduceOp>(clone).getDpsInitsMutable()[0].set(init);
      continue;
    }
    if (auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(clone)) {
      ktdp::BoundingBox box = ktdp::computeBoundingBox(tile.getAccessTileSet());
      SmallVector<AffineExpr> constraints;
      SmallVector<int64_t> shape;
      for (auto [i, lower] : llvm::enumerate(box.lower)) {
        int64_t extent = box.getExtents()[i] * ((int64_t)i == a.dim ? a.trips : 1);
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
      continue;
    }
    for (OpResult result : clone->getResults())
      widen(result);
  }
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (auto [i, result] : llvm::enumerate(loop.getResults()))
    result.replaceAllUsesWith(mapping.lookup(yield.getOperand(i)));
  loop.erase();
}

/// The absorption `loop` admits, if any; `nested` says whether another loop
/// encloses it (only then is a loop without iter_args absorbed: a loop at
/// the top is the group's loop level already).
static std::optional<Absorption> analyze(scf::ForOp loop) {
  bool nested = loop->getParentOfType<scf::ForOp>() != nullptr;
  if (loop.getNumRegionIterArgs() == 0 && !nested)
    return std::nullopt;
  // Inner loops first: a loop that still holds one is left alone.
  if (!loop.getBody()->getOps<scf::ForOp>().empty())
    return std::nullopt;
  auto step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return std::nullopt;
  SmallVector<Value> outer = enclosingIvs(loop->getParentOp());
  FailureOr<AffineExpr> lb = traceAffineIndexOver(loop.getLowerBound(), outer);
  FailureOr<AffineExpr> ub = traceAffineIndexOver(loop.getUpperBound(), outer);
  if (failed(lb) || failed(ub))
    return std::nullopt;
  std::optional<int64_t> span = constantOf(*ub - *lb);
  if (!span || *span <= 0)
    return std::nullopt;
  Absorption a;
  a.loop = loop;
  a.step = *step;
  a.trips = (*span + *step - 1) / *step;
  std::optional<int64_t> dim = advancingDim(loop, *step);
  if (!dim)
    return std::nullopt;
  a.dim = *dim;
  FailureOr<SmallVector<Accumulation>> accumulations = accumulationsOf(loop, a.dim);
  if (failed(accumulations))
    return std::nullopt;
  a.accumulations = std::move(*accumulations);
  if (!a.accumulations.empty() && failed(foldMaskedPoints(a)))
    return std::nullopt;
  int64_t rank = -1;
  bool sameRank = true;
  loop.getBody()->walk([&](ktdp::ConstructAccessTileOp tile) {
    int64_t r = tile.getType().getShape().size();
    sameRank &= rank < 0 || r == rank;
    rank = r;
  });
  if (!sameRank || rank <= a.dim || !bodyIsAbsorbable(a, rank))
    return std::nullopt;
  a.rank = rank;
  // Every tensor of the tile rank must be one block per iteration along the
  // absorbed dimension, as the tiles are.
  int64_t block = -1;
  WalkResult walk = loop.getBody()->walk([&](ktdp::ConstructAccessTileOp tile) {
    int64_t e = tile.getType().getShape()[a.dim];
    if (block >= 0 && e != block)
      return WalkResult::interrupt();
    block = e;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || block <= 0)
    return std::nullopt;
  for (Operation &op : loop.getBody()->without_terminator())
    for (Type type : op.getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.getRank() == rank && tensor.getDimSize(a.dim) != block)
        return std::nullopt;
  return a;
}

namespace {
struct AbsorbLoopsPass : ktflow::ktsched::impl::AbsorbLoopsBase<AbsorbLoopsPass> {
  void runOnOperation() override {
    // Post-order: inner loops before the loops holding them, so a row loop
    // whose column-block loop was absorbed is seen without it. An absorbed
    // scalar accumulation is the one element of its reduction: its scalar
    // uses move onto that tensor, after which a later loop reading them
    // (example 19's second loop, through a broadcast) may be absorbed too.
    for (bool changed = true; changed;) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        if (std::optional<Absorption> a = analyze(loop)) {
          absorb(*a, a->rank);
          changed = true;
        }
      }
      liftOneElementScalars(getOperation());
    }
  }
};
} // namespace
