//===- IntegerSetUtils.cpp - finite integer sets of KTIR ------------------===//
//
// Strategy: expressions are evaluated directly (with overflow checks). The
// bounding box of a set is computed with MLIR's Presburger library: the set
// is flattened (floordiv/mod become local variables), a rational simplex
// gives a first [ceil(min), floor(max)] interval per dimension, and a binary
// search with exact integer-emptiness tests tightens each end to the true
// integer min/max (the rational bound is loose for strided sets such as
// `d0 mod 2 == 0`). Enumeration walks the box and filters by membership.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/IntegerSetUtils.h"

#include "mlir/Analysis/FlatLinearValueConstraints.h"
#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/Simplex.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow::ktdp;
using presburger::BoundType;
using presburger::IntegerPolyhedron;

namespace {
/// Floor division of a by positive b.
int64_t floorDivPositive(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b) != 0 && a < 0)
    --q;
  return q;
}
} // namespace

std::optional<int64_t>
ktflow::ktdp::evaluateAffineExpr(AffineExpr expr, ArrayRef<int64_t> dims,
                                 ArrayRef<int64_t> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId: {
    unsigned pos = cast<AffineDimExpr>(expr).getPosition();
    if (pos >= dims.size())
      return std::nullopt;
    return dims[pos];
  }
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(expr).getPosition();
    if (pos >= symbols.size())
      return std::nullopt;
    return symbols[pos];
  }
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluateAffineExpr(binary.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluateAffineExpr(binary.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t result;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*lhs, *rhs, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return floorDivPositive(*lhs, *rhs);
  case AffineExprKind::CeilDiv:
    if (*rhs <= 0)
      return std::nullopt;
    return -floorDivPositive(-*lhs, *rhs);
  case AffineExprKind::Mod: {
    if (*rhs <= 0)
      return std::nullopt;
    int64_t m = *lhs % *rhs;
    return m < 0 ? m + *rhs : m;
  }
  default:
    return std::nullopt;
  }
}

std::optional<SmallVector<int64_t>>
ktflow::ktdp::evaluateAffineMap(AffineMap map, ArrayRef<int64_t> dims,
                                ArrayRef<int64_t> symbols) {
  SmallVector<int64_t> results;
  for (AffineExpr expr : map.getResults()) {
    std::optional<int64_t> value = evaluateAffineExpr(expr, dims, symbols);
    if (!value)
      return std::nullopt;
    results.push_back(*value);
  }
  return results;
}

std::optional<bool> ktflow::ktdp::containsPoint(IntegerSet set,
                                                ArrayRef<int64_t> point,
                                                ArrayRef<int64_t> symbols) {
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    std::optional<int64_t> value =
        evaluateAffineExpr(set.getConstraint(i), point, symbols);
    if (!value)
      return std::nullopt;
    if (set.isEq(i) ? *value != 0 : *value < 0)
      return false;
  }
  return true;
}

IntegerSet ktflow::ktdp::bindSymbols(IntegerSet set,
                                     ArrayRef<int64_t> symbols) {
  MLIRContext *ctx = set.getContext();
  SmallVector<AffineExpr> dimRepl, symRepl;
  for (unsigned i = 0; i < set.getNumDims(); ++i)
    dimRepl.push_back(getAffineDimExpr(i, ctx));
  for (int64_t value : symbols)
    symRepl.push_back(getAffineConstantExpr(value, ctx));
  return set.replaceDimsAndSymbols(dimRepl, symRepl, set.getNumDims(), 0);
}

SmallVector<int64_t> BoundingBox::getExtents() const {
  SmallVector<int64_t> extents;
  for (unsigned i = 0; i < lower.size(); ++i)
    extents.push_back(status == Status::Bounded ? upper[i] - lower[i] + 1 : 0);
  return extents;
}

/// Whether `poly` has an integer point with dimension `dim` <= value (or >=
/// value when `atLeast`).
static bool hasPointBeyond(const IntegerPolyhedron &poly, unsigned dim,
                           int64_t value, bool atLeast) {
  IntegerPolyhedron copy = poly;
  copy.addBound(atLeast ? BoundType::LB : BoundType::UB, dim, value);
  return !copy.isIntegerEmpty();
}

bool ktflow::ktdp::isBox(IntegerSet set) {
  for (AffineExpr constraint : set.getConstraints()) {
    unsigned used = 0;
    for (unsigned d = 0; d < set.getNumDims(); ++d)
      used += constraint.isFunctionOfDim(d) ? 1 : 0;
    if (used > 1)
      return false;
  }
  return true;
}

BoundingBox ktflow::ktdp::computeBoundingBox(IntegerSet set,
                                             ArrayRef<int64_t> symbols) {
  BoundingBox box;
  unsigned numDims = set.getNumDims();
  if (set.getNumSymbols() != 0) {
    if (symbols.size() != set.getNumSymbols()) {
      box.status = BoundingBox::Status::Symbolic;
      return box;
    }
    set = bindSymbols(set, symbols);
  }
  box.lower.assign(numDims, 0);
  box.upper.assign(numDims, -1);

  // Flattening fails on semi-affine constraints; check before building the
  // constraint system, whose constructor does not report that failure.
  std::vector<SmallVector<int64_t, 8>> flatExprs;
  FlatLinearConstraints localVars;
  if (failed(getFlattenedAffineExprs(set, &flatExprs, &localVars))) {
    box.status = BoundingBox::Status::NotAffine;
    return box;
  }
  FlatLinearValueConstraints poly(set);
  if (poly.isIntegerEmpty()) {
    box.status = BoundingBox::Status::Empty;
    return box;
  }
  presburger::Simplex simplex(poly);
  for (unsigned dim = 0; dim < numDims; ++dim) {
    SmallVector<DynamicAPInt> coeffs(poly.getNumCols(), DynamicAPInt(0));
    coeffs[dim] = DynamicAPInt(1);
    auto [minOpt, maxOpt] = simplex.computeIntegerBounds(coeffs);
    if (!minOpt.isBounded() || !maxOpt.isBounded()) {
      box.status = BoundingBox::Status::Unbounded;
      box.unboundedDim = dim;
      return box;
    }
    // Bounds beyond +-2^61 cannot be coordinates (and would overflow the
    // search below); treat them as unbounded.
    const DynamicAPInt limit(int64_t(1) << 61);
    if (*minOpt < -limit || *maxOpt > limit) {
      box.status = BoundingBox::Status::Unbounded;
      box.unboundedDim = dim;
      return box;
    }
    int64_t lo = int64_t(*minOpt), hi = int64_t(*maxOpt);
    // Tighten the lower end: smallest v in [lo, hi] with a point <= v. The
    // rational bound is usually exact (boxes), so try it first.
    int64_t a = lo, b = hi;
    if (hasPointBeyond(poly, dim, lo, /*atLeast=*/false))
      b = lo;
    while (a < b) {
      int64_t mid = a + (b - a) / 2;
      if (hasPointBeyond(poly, dim, mid, /*atLeast=*/false))
        b = mid;
      else
        a = mid + 1;
    }
    box.lower[dim] = a;
    // Tighten the upper end: largest v in [lower, hi] with a point >= v.
    a = box.lower[dim];
    b = hi;
    if (hasPointBeyond(poly, dim, hi, /*atLeast=*/true))
      a = hi;
    while (a < b) {
      int64_t mid = a + (b - a + 1) / 2;
      if (hasPointBeyond(poly, dim, mid, /*atLeast=*/true))
        a = mid;
      else
        b = mid - 1;
    }
    box.upper[dim] = a;
  }
  box.status = BoundingBox::Status::Bounded;
  return box;
}

std::optional<SmallVector<unsigned>>
ktflow::ktdp::getPermutation(AffineMap order) {
  if (!order || order.getNumSymbols() != 0 ||
      order.getNumResults() != order.getNumDims())
    return std::nullopt;
  SmallVector<unsigned> perm;
  SmallVector<bool> seen(order.getNumDims(), false);
  for (AffineExpr expr : order.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || seen[dim.getPosition()])
      return std::nullopt;
    seen[dim.getPosition()] = true;
    perm.push_back(dim.getPosition());
  }
  return perm;
}

TileShape ktflow::ktdp::computeTileShape(IntegerSet set, ArrayRef<unsigned> perm,
                                         ArrayRef<int64_t> symbols) {
  TileShape tile;
  tile.box = computeBoundingBox(set, symbols);
  if (tile.box.status != BoundingBox::Status::Bounded &&
      tile.box.status != BoundingBox::Status::Empty)
    return tile;
  SmallVector<int64_t> extents = tile.box.getExtents();
  for (unsigned p : perm) {
    tile.shape.push_back(extents[p]);
    tile.qlo.push_back(tile.box.isBounded() ? tile.box.lower[p] : 0);
  }
  return tile;
}

LogicalResult
ktflow::ktdp::forEachPoint(IntegerSet set, ArrayRef<int64_t> symbols,
                           function_ref<bool(ArrayRef<int64_t>)> fn) {
  BoundingBox box = computeBoundingBox(set, symbols);
  if (box.status == BoundingBox::Status::Empty)
    return success();
  if (!box.isBounded())
    return failure();
  unsigned n = set.getNumDims();
  SmallVector<int64_t> point(box.lower);
  if (n == 0) {
    if (containsPoint(set, point, symbols).value_or(false))
      fn(point);
    return success();
  }
  while (true) {
    if (containsPoint(set, point, symbols).value_or(false) && !fn(point))
      return success();
    int d = n - 1;
    while (d >= 0 && point[d] == box.upper[d]) {
      point[d] = box.lower[d];
      --d;
    }
    if (d < 0)
      return success();
    ++point[d];
  }
}

LogicalResult ktflow::ktdp::forEachTilePoint(
    IntegerSet set, ArrayRef<unsigned> perm, ArrayRef<int64_t> symbols,
    function_ref<bool(ArrayRef<int64_t>, ArrayRef<int64_t>)> fn) {
  unsigned n = set.getNumDims();
  if (perm.size() != n)
    return failure();
  // Q = order(S): rename set dimension perm[i] to i, then enumerate Q in its
  // own lexicographic order.
  SmallVector<AffineExpr> dimRepl(n);
  for (unsigned i = 0; i < n; ++i)
    dimRepl[perm[i]] = getAffineDimExpr(i, set.getContext());
  SmallVector<AffineExpr> symRepl;
  for (unsigned i = 0; i < set.getNumSymbols(); ++i)
    symRepl.push_back(getAffineSymbolExpr(i, set.getContext()));
  IntegerSet ordered =
      set.replaceDimsAndSymbols(dimRepl, symRepl, n, set.getNumSymbols());
  BoundingBox box = computeBoundingBox(ordered, symbols);
  if (box.status == BoundingBox::Status::Empty)
    return success();
  if (!box.isBounded())
    return failure();
  SmallVector<int64_t> point(n), position(n);
  return forEachPoint(ordered, symbols, [&](ArrayRef<int64_t> q) {
    for (unsigned i = 0; i < n; ++i) {
      point[perm[i]] = q[i];
      position[i] = q[i] - box.lower[i];
    }
    return fn(point, position);
  });
}
