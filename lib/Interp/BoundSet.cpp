//===- BoundSet.cpp - enumerating bounded integer sets --------------------===//
//
// Strategy: after substituting the symbols, every constraint that is linear
// in the dimensions becomes a coefficient vector; the rest (floordiv,
// ceildiv, mod of dimensions) are kept as expressions and only filter
// points. If every linear constraint names one dimension, the set is a box
// and its bounds are read off directly. Otherwise each dimension's bounds
// come from Fourier-Motzkin elimination of the other dimensions over the
// linear constraints (a rational relaxation, so the box may be a little
// larger than the integer points), and enumeration walks that box and
// filters every point.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/BoundSet.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
static int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }

int64_t interp::evaluateAffine(AffineExpr expr, llvm::ArrayRef<int64_t> dims,
                               llvm::ArrayRef<int64_t> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t l = evaluateAffine(bin.getLHS(), dims, symbols);
  int64_t r = evaluateAffine(bin.getRHS(), dims, symbols);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return l + r;
  case AffineExprKind::Mul:
    return l * r;
  case AffineExprKind::FloorDiv:
    return r == 0 ? 0 : floorDiv(l, r);
  case AffineExprKind::CeilDiv:
    return r == 0 ? 0 : ceilDiv(l, r);
  case AffineExprKind::Mod: {
    if (r == 0)
      return 0;
    int64_t m = l % r;
    return m < 0 ? m + (r < 0 ? -r : r) : m;
  }
  default:
    return 0;
  }
}

/// Writes `expr` as coeffs . dims + constant; false if it is not linear in
/// the dimensions once symbols are known.
static bool linearize(AffineExpr expr, llvm::ArrayRef<int64_t> symbols,
                      llvm::SmallVectorImpl<int64_t> &coeffs, int64_t &constant,
                      int64_t scale = 1) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    constant += scale * cast<AffineConstantExpr>(expr).getValue();
    return true;
  case AffineExprKind::DimId:
    coeffs[cast<AffineDimExpr>(expr).getPosition()] += scale;
    return true;
  case AffineExprKind::SymbolId:
    constant += scale * symbols[cast<AffineSymbolExpr>(expr).getPosition()];
    return true;
  case AffineExprKind::Add: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    return linearize(bin.getLHS(), symbols, coeffs, constant, scale) &&
           linearize(bin.getRHS(), symbols, coeffs, constant, scale);
  }
  case AffineExprKind::Mul: {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    // One side is free of dimensions (MLIR keeps expressions affine).
    if (bin.getRHS().isSymbolicOrConstant())
      return linearize(bin.getLHS(), symbols, coeffs, constant,
                       scale * evaluateAffine(bin.getRHS(), {}, symbols));
    if (bin.getLHS().isSymbolicOrConstant())
      return linearize(bin.getRHS(), symbols, coeffs, constant,
                       scale * evaluateAffine(bin.getLHS(), {}, symbols));
    return false;
  }
  default:
    if (expr.isSymbolicOrConstant()) {
      constant += scale * evaluateAffine(expr, {}, symbols);
      return true;
    }
    return false;
  }
}

namespace {
/// A linear inequality sum(c[d] x[d]) + k >= 0 used during elimination.
struct Ineq {
  llvm::SmallVector<int64_t, 4> c;
  int64_t k;
};
} // namespace

/// Fourier-Motzkin: bounds of dimension `dim` from `ineqs`.
static void boundsOf(unsigned dim, unsigned numDims, std::vector<Ineq> ineqs,
                     std::optional<int64_t> &lower, std::optional<int64_t> &upper) {
  for (unsigned d = 0; d < numDims; ++d) {
    if (d == dim)
      continue;
    std::vector<Ineq> pos, neg, rest;
    for (Ineq &q : ineqs) {
      if (q.c[d] > 0)
        pos.push_back(q);
      else if (q.c[d] < 0)
        neg.push_back(q);
      else
        rest.push_back(q);
    }
    for (const Ineq &p : pos)
      for (const Ineq &n : neg) {
        int64_t a = p.c[d], b = -n.c[d];
        Ineq combined;
        combined.c.resize(numDims);
        for (unsigned e = 0; e < numDims; ++e)
          combined.c[e] = b * p.c[e] + a * n.c[e];
        combined.k = b * p.k + a * n.k;
        int64_t g = std::abs(combined.k);
        for (int64_t v : combined.c)
          g = std::gcd(g, std::abs(v));
        if (g > 1) {
          for (int64_t &v : combined.c)
            v /= g;
          combined.k = floorDiv(combined.k, g);
        }
        rest.push_back(combined);
      }
    ineqs = std::move(rest);
    if (ineqs.size() > 4096) // give up on pathological growth
      break;
  }
  for (const Ineq &q : ineqs) {
    bool single = true;
    for (unsigned e = 0; e < numDims; ++e)
      if (e != dim && q.c[e] != 0)
        single = false;
    if (!single || q.c[dim] == 0)
      continue;
    int64_t a = q.c[dim];
    if (a > 0) {
      int64_t l = ceilDiv(-q.k, a);
      if (!lower || l > *lower)
        lower = l;
    } else {
      int64_t u = floorDiv(q.k, -a);
      if (!upper || u < *upper)
        upper = u;
    }
  }
}

std::optional<BoundSet> BoundSet::bind(IntegerSet set,
                                       llvm::ArrayRef<int64_t> symbols,
                                       std::string &error) {
  BoundSet bs;
  bs.numDims = set.getNumDims();
  bs.symbolValues.assign(symbols.begin(), symbols.end());
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    Linear lin;
    lin.coeffs.assign(bs.numDims, 0);
    lin.equality = set.isEq(i);
    AffineExpr expr = set.getConstraint(i);
    if (!linearize(expr, symbols, lin.coeffs, lin.constant)) {
      bs.nonlinear.push_back({expr, set.isEq(i)});
      bs.box = false;
      continue;
    }
    unsigned nonzero = llvm::count_if(lin.coeffs, [](int64_t c) { return c != 0; });
    if (nonzero == 0) {
      bool holds = lin.equality ? lin.constant == 0 : lin.constant >= 0;
      if (!holds)
        bs.empty = true;
      continue;
    }
    if (nonzero > 1)
      bs.box = false;
    bs.linear.push_back(lin);
  }

  std::vector<Ineq> ineqs;
  for (const Linear &l : bs.linear) {
    ineqs.push_back({l.coeffs, l.constant});
    if (l.equality) {
      Ineq neg{l.coeffs, -l.constant};
      for (int64_t &c : neg.c)
        c = -c;
      ineqs.push_back(neg);
    }
  }
  bs.lo.assign(bs.numDims, 0);
  bs.hi.assign(bs.numDims, -1);
  for (unsigned d = 0; d < bs.numDims; ++d) {
    std::optional<int64_t> lower, upper;
    if (bs.box) {
      for (const Ineq &q : ineqs) {
        int64_t a = q.c[d];
        if (a > 0) {
          int64_t l = ceilDiv(-q.k, a);
          if (!lower || l > *lower)
            lower = l;
        } else if (a < 0) {
          int64_t u = floorDiv(q.k, -a);
          if (!upper || u < *upper)
            upper = u;
        }
      }
    } else {
      boundsOf(d, bs.numDims, ineqs, lower, upper);
    }
    if (!lower || !upper) {
      error = "integer set " + std::to_string(d) + "-th dimension (d" +
              std::to_string(d) + ") is unbounded";
      return std::nullopt;
    }
    bs.lo[d] = *lower;
    bs.hi[d] = *upper;
    if (*lower > *upper)
      bs.empty = true;
  }
  if (bs.empty)
    bs.box = true, bs.hi = bs.lo, bs.empty = true;
  return bs;
}

bool BoundSet::contains(llvm::ArrayRef<int64_t> p) const {
  if (empty)
    return false;
  for (unsigned d = 0; d < numDims; ++d)
    if (p[d] < lo[d] || p[d] > hi[d])
      return false;
  if (box)
    return true;
  for (const Linear &l : linear) {
    int64_t v = l.constant;
    for (unsigned d = 0; d < numDims; ++d)
      v += l.coeffs[d] * p[d];
    if (l.equality ? v != 0 : v < 0)
      return false;
  }
  for (const auto &[expr, eq] : nonlinear) {
    int64_t v = evaluateAffine(expr, p, symbolValues);
    if (eq ? v != 0 : v < 0)
      return false;
  }
  return true;
}

void BoundSet::forEach(llvm::ArrayRef<unsigned> order,
                       llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn) const {
  if (empty)
    return;
  if (numDims == 0) {
    fn({});
    return;
  }
  llvm::SmallVector<int64_t, 4> p(lo.begin(), lo.end());
  while (true) {
    if (box || contains(p))
      fn(p);
    int level = int(numDims) - 1;
    for (; level >= 0; --level) {
      unsigned d = order[level];
      if (++p[d] <= hi[d])
        break;
      p[d] = lo[d];
    }
    if (level < 0)
      return;
  }
}

bool BoundSet::exactCorners(llvm::SmallVectorImpl<int64_t> &lower,
                            llvm::SmallVectorImpl<int64_t> &upper) const {
  if (empty)
    return false;
  if (box) {
    lower.assign(lo.begin(), lo.end());
    upper.assign(hi.begin(), hi.end());
    return true;
  }
  bool any = false;
  llvm::SmallVector<unsigned, 4> identity;
  for (unsigned d = 0; d < numDims; ++d)
    identity.push_back(d);
  lower.assign(numDims, 0);
  upper.assign(numDims, 0);
  forEach(identity, [&](llvm::ArrayRef<int64_t> p) {
    for (unsigned d = 0; d < numDims; ++d) {
      if (!any || p[d] < lower[d])
        lower[d] = p[d];
      if (!any || p[d] > upper[d])
        upper[d] = p[d];
    }
    any = true;
  });
  return any;
}

int64_t BoundSet::boxVolume() const {
  if (empty)
    return 0;
  int64_t v = 1;
  for (unsigned d = 0; d < numDims; ++d)
    v *= hi[d] - lo[d] + 1;
  return v;
}
