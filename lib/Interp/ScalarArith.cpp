//===- ScalarArith.cpp - arith and math on scalars ------------------------===//
//
// The semantics of every arith/math op on one value: float ops round once to
// the result kind (ktir.md §7.1), integer ops wrap and report division by
// zero, compares and casts follow MLIR's definitions. The tensor loops and
// reductions call these where an op is not hot enough for its own loop.
//
// This file must be compiled with -ffp-contract=off (the whole library is):
// a fused multiply-add would skip a rounding the language requires.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/ElementKernels.h"

using namespace ktflow;
using namespace ktflow::interp;
using namespace ktflow::interp::kernels;
using mlir::arith::CmpFPredicate;
using mlir::arith::CmpIPredicate;

bool interp::isCommutative(FloatBinary k) {
  switch (k) {
  case FloatBinary::Add:
  case FloatBinary::Mul:
  case FloatBinary::MaximumF:
  case FloatBinary::MinimumF:
  case FloatBinary::MaxNumF:
  case FloatBinary::MinNumF:
    return true;
  default:
    return false;
  }
}

bool interp::isCommutative(IntBinary k) {
  switch (k) {
  case IntBinary::Add:
  case IntBinary::Mul:
  case IntBinary::And:
  case IntBinary::Or:
  case IntBinary::Xor:
  case IntBinary::MaxS:
  case IntBinary::MaxU:
  case IntBinary::MinS:
  case IntBinary::MinU:
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

template <FloatUnary K>
static Scalar unaryScalar(const Scalar &a) {
  // Ops exact in float round the same from double (double keeps > 2p+2 bits).
  return Scalar::ofFloat(a.kind, unaryOp<K>(a.f));
}

Scalar interp::applyUnary(FloatUnary k, const Scalar &a) {
  switch (k) {
#define KTFLOW_CASE(N)                                                         \
  case FloatUnary::N:                                                          \
    return unaryScalar<FloatUnary::N>(a);
    KTFLOW_FOR_EACH_FLOAT_UNARY(KTFLOW_CASE)
#undef KTFLOW_CASE
  }
  return a;
}

template <FloatBinary K>
static Scalar binaryScalar(const Scalar &a, const Scalar &b) {
  if (a.kind == ElemKind::F32 && !binaryViaDouble(K))
    return Scalar::ofFloat(a.kind, binaryOp<K>(float(a.f), float(b.f)));
  return Scalar::ofFloat(a.kind, binaryOp<K>(a.f, b.f));
}

Scalar interp::applyBinary(FloatBinary k, const Scalar &a, const Scalar &b) {
  switch (k) {
#define KTFLOW_CASE(N)                                                         \
  case FloatBinary::N:                                                         \
    return binaryScalar<FloatBinary::N>(a, b);
    KTFLOW_CASE(Add) KTFLOW_CASE(Sub) KTFLOW_CASE(Mul) KTFLOW_CASE(Div)
    KTFLOW_CASE(Rem) KTFLOW_CASE(MaximumF) KTFLOW_CASE(MinimumF)
    KTFLOW_CASE(MaxNumF) KTFLOW_CASE(MinNumF) KTFLOW_CASE(Pow)
    KTFLOW_CASE(CopySign) KTFLOW_CASE(Atan2)
#undef KTFLOW_CASE
  }
  return a;
}

static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
static int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

bool interp::applyBinary(IntBinary k, const Scalar &a, const Scalar &b,
                         Scalar &out) {
  ElemKind kind = a.kind;
  unsigned w = intWidth(kind);
  int64_t x = a.i, y = b.i;
  uint64_t ux = asUnsigned(kind, x), uy = asUnsigned(kind, y);
  int64_t r = 0;
  switch (k) {
  case IntBinary::Add:
    r = int64_t(uint64_t(x) + uint64_t(y));
    break;
  case IntBinary::Sub:
    r = int64_t(uint64_t(x) - uint64_t(y));
    break;
  case IntBinary::Mul:
    r = int64_t(uint64_t(x) * uint64_t(y));
    break;
  case IntBinary::DivS:
  case IntBinary::RemS:
  case IntBinary::FloorDivS:
  case IntBinary::CeilDivS:
    if (y == 0)
      return false;
    if (x == std::numeric_limits<int64_t>::min() && y == -1) {
      r = (k == IntBinary::RemS) ? 0 : x; // wraps
      break;
    }
    if (k == IntBinary::DivS)
      r = x / y;
    else if (k == IntBinary::RemS)
      r = x % y;
    else if (k == IntBinary::FloorDivS)
      r = floorDiv(x, y);
    else
      r = ceilDiv(x, y);
    break;
  case IntBinary::DivU:
  case IntBinary::RemU:
  case IntBinary::CeilDivU:
    if (uy == 0)
      return false;
    if (k == IntBinary::DivU)
      r = int64_t(ux / uy);
    else if (k == IntBinary::RemU)
      r = int64_t(ux % uy);
    else
      r = int64_t(ux / uy + (ux % uy != 0));
    break;
  case IntBinary::And:
    r = x & y;
    break;
  case IntBinary::Or:
    r = x | y;
    break;
  case IntBinary::Xor:
    r = x ^ y;
    break;
  case IntBinary::Shl:
    r = uy >= w ? 0 : int64_t(uint64_t(x) << uy);
    break;
  case IntBinary::ShrS:
    r = uy >= w ? (x < 0 ? -1 : 0) : (x >> uy);
    break;
  case IntBinary::ShrU:
    r = uy >= w ? 0 : int64_t(ux >> uy);
    break;
  case IntBinary::MaxS:
    r = std::max(x, y);
    break;
  case IntBinary::MinS:
    r = std::min(x, y);
    break;
  case IntBinary::MaxU:
    r = ux >= uy ? x : y;
    break;
  case IntBinary::MinU:
    r = ux <= uy ? x : y;
    break;
  }
  out = Scalar::ofInt(kind, r);
  return true;
}

Scalar interp::applyFma(const Scalar &a, const Scalar &b, const Scalar &c) {
  return Scalar::ofFloat(a.kind, fmaOp(a.f, b.f, c.f));
}

bool interp::compare(CmpFPredicate p, const Scalar &a, const Scalar &b) {
  double x = a.f, y = b.f;
  bool unordered = std::isnan(x) || std::isnan(y);
  switch (p) {
  case CmpFPredicate::AlwaysFalse:
    return false;
  case CmpFPredicate::OEQ:
    return !unordered && x == y;
  case CmpFPredicate::OGT:
    return !unordered && x > y;
  case CmpFPredicate::OGE:
    return !unordered && x >= y;
  case CmpFPredicate::OLT:
    return !unordered && x < y;
  case CmpFPredicate::OLE:
    return !unordered && x <= y;
  case CmpFPredicate::ONE:
    return !unordered && x != y;
  case CmpFPredicate::ORD:
    return !unordered;
  case CmpFPredicate::UEQ:
    return unordered || x == y;
  case CmpFPredicate::UGT:
    return unordered || x > y;
  case CmpFPredicate::UGE:
    return unordered || x >= y;
  case CmpFPredicate::ULT:
    return unordered || x < y;
  case CmpFPredicate::ULE:
    return unordered || x <= y;
  case CmpFPredicate::UNE:
    return unordered || x != y;
  case CmpFPredicate::UNO:
    return unordered;
  case CmpFPredicate::AlwaysTrue:
    return true;
  }
  return false;
}

bool interp::compare(CmpIPredicate p, const Scalar &a, const Scalar &b) {
  int64_t x = a.i, y = b.i;
  uint64_t ux = asUnsigned(a.kind, x), uy = asUnsigned(b.kind, y);
  switch (p) {
  case CmpIPredicate::eq:
    return x == y;
  case CmpIPredicate::ne:
    return x != y;
  case CmpIPredicate::slt:
    return x < y;
  case CmpIPredicate::sle:
    return x <= y;
  case CmpIPredicate::sgt:
    return x > y;
  case CmpIPredicate::sge:
    return x >= y;
  case CmpIPredicate::ult:
    return ux < uy;
  case CmpIPredicate::ule:
    return ux <= uy;
  case CmpIPredicate::ugt:
    return ux > uy;
  case CmpIPredicate::uge:
    return ux >= uy;
  }
  return false;
}

static int64_t floatToInt(double v, bool isSigned, ElemKind to) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (isSigned) {
    if (t >= 9.2233720368547758e18)
      return wrapInt(to, std::numeric_limits<int64_t>::max());
    if (t <= -9.2233720368547758e18)
      return std::numeric_limits<int64_t>::min();
    return wrapInt(to, int64_t(t));
  }
  if (t <= 0)
    return 0;
  if (t >= 1.8446744073709552e19)
    return wrapInt(to, -1);
  return wrapInt(to, int64_t(uint64_t(t)));
}

/// The raw bit pattern of a float scalar in its own format.
static uint64_t floatToRawBits(const Scalar &a) {
  switch (a.kind) {
  case ElemKind::F16:
    return doubleToHalfBits(a.f);
  case ElemKind::BF16:
    return doubleToBF16Bits(a.f);
  case ElemKind::F32:
    return floatBits(float(a.f));
  default:
    return doubleBits(a.f);
  }
}
static double rawBitsToFloat(ElemKind k, uint64_t bits) {
  switch (k) {
  case ElemKind::F16:
    return halfBitsToFloat(uint16_t(bits));
  case ElemKind::BF16:
    return bf16BitsToFloat(uint16_t(bits));
  case ElemKind::F32:
    return bitsToFloat(uint32_t(bits));
  default: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
}

Scalar interp::applyCast(CastKind k, ElemKind to, const Scalar &a) {
  switch (k) {
  case CastKind::ExtF:
  case CastKind::TruncF:
    return Scalar::ofFloat(to, a.f);
  case CastKind::SIToFP:
    return Scalar::ofFloat(to, double(a.i)); // exact for |i| < 2^53
  case CastKind::UIToFP:
    return Scalar::ofFloat(to, double(asUnsigned(a.kind, a.i)));
  case CastKind::FPToSI:
    return Scalar::ofInt(to, floatToInt(a.f, true, to));
  case CastKind::FPToUI:
    return Scalar::ofInt(to, floatToInt(a.f, false, to));
  case CastKind::ExtSI:
  case CastKind::TruncI:
  case CastKind::IndexCast:
    return Scalar::ofInt(to, a.i);
  case CastKind::ExtUI:
  case CastKind::IndexCastUI:
    return Scalar::ofInt(to, int64_t(asUnsigned(a.kind, a.i)));
  case CastKind::Bitcast: {
    uint64_t bits = a.isFloat() ? floatToRawBits(a) : asUnsigned(a.kind, a.i);
    if (isFloatKind(to)) {
      Scalar s;
      s.kind = to;
      s.f = rawBitsToFloat(to, bits);
      return s;
    }
    return Scalar::ofInt(to, int64_t(bits));
  }
  }
  return a;
}

Scalar interp::convertScalar(const Scalar &a, ElemKind to) {
  if (a.kind == to)
    return a;
  if (isFloatKind(to))
    return a.isFloat() ? Scalar::ofFloat(to, a.f) : Scalar::ofFloat(to, double(a.i));
  if (a.isFloat())
    return Scalar::ofInt(to, floatToInt(a.f, true, to));
  return Scalar::ofInt(to, a.i);
}
