//===- Elementwise.cpp - numeric kernels of arith, math and linalg --------===//
//
// Strategy: the op kind is a template parameter, so each (op, element kind)
// pair compiles to its own tight loop with the rounding hoisted out of the
// per-element work. Ops that are exact in f32 followed by one rounding
// (add, sub, mul, div, sqrt, min/max, ...) compute in float for f16/bf16/f32
// storage; transcendentals compute in double and round once to the result
// type. Integer ops, compares and casts are not hot in KTIR kernels and go
// through the scalar routines element by element.
//
// This file must be compiled with -ffp-contract=off: a fused multiply-add
// would skip a rounding the language requires.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Elementwise.h"

#include <cmath>
#include <limits>

using namespace ktflow;
using namespace ktflow::interp;
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
// Per-element definitions
//===----------------------------------------------------------------------===//

/// Whether kind K is computed in double (then rounded) for float storage.
static constexpr bool unaryViaDouble(FloatUnary k) {
  switch (k) {
  case FloatUnary::Neg:
  case FloatUnary::Abs:
  case FloatUnary::Ceil:
  case FloatUnary::Floor:
  case FloatUnary::Round:
  case FloatUnary::RoundEven:
  case FloatUnary::Trunc:
  case FloatUnary::Sqrt:
  case FloatUnary::Reciprocal:
  case FloatUnary::Square:
    return false;
  default:
    return true;
  }
}
static constexpr bool binaryViaDouble(FloatBinary k) {
  return k == FloatBinary::Pow || k == FloatBinary::Atan2 || k == FloatBinary::Rem;
}

template <FloatUnary K, class T>
static inline T unaryOp(T a) {
  if constexpr (K == FloatUnary::Neg)
    return -a;
  else if constexpr (K == FloatUnary::Abs)
    return std::fabs(a);
  else if constexpr (K == FloatUnary::Ceil)
    return std::ceil(a);
  else if constexpr (K == FloatUnary::Floor)
    return std::floor(a);
  else if constexpr (K == FloatUnary::Round)
    return std::round(a);
  else if constexpr (K == FloatUnary::RoundEven)
    return std::nearbyint(a);
  else if constexpr (K == FloatUnary::Trunc)
    return std::trunc(a);
  else if constexpr (K == FloatUnary::Sqrt)
    return std::sqrt(a);
  else if constexpr (K == FloatUnary::Rsqrt)
    return T(1) / std::sqrt(a);
  else if constexpr (K == FloatUnary::Exp)
    return std::exp(a);
  else if constexpr (K == FloatUnary::Exp2)
    return std::exp2(a);
  else if constexpr (K == FloatUnary::Expm1)
    return std::expm1(a);
  else if constexpr (K == FloatUnary::Log)
    return std::log(a);
  else if constexpr (K == FloatUnary::Log2)
    return std::log2(a);
  else if constexpr (K == FloatUnary::Log10)
    return std::log10(a);
  else if constexpr (K == FloatUnary::Log1p)
    return std::log1p(a);
  else if constexpr (K == FloatUnary::Tanh)
    return std::tanh(a);
  else if constexpr (K == FloatUnary::Sin)
    return std::sin(a);
  else if constexpr (K == FloatUnary::Cos)
    return std::cos(a);
  else if constexpr (K == FloatUnary::Tan)
    return std::tan(a);
  else if constexpr (K == FloatUnary::Atan)
    return std::atan(a);
  else if constexpr (K == FloatUnary::Erf)
    return std::erf(a);
  else if constexpr (K == FloatUnary::Cbrt)
    return std::cbrt(a);
  else if constexpr (K == FloatUnary::Reciprocal)
    return T(1) / a;
  else
    return a * a;
}

template <class T>
static inline T maximumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <class T>
static inline T minimumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

template <FloatBinary K, class T>
static inline T binaryOp(T a, T b) {
  if constexpr (K == FloatBinary::Add)
    return a + b;
  else if constexpr (K == FloatBinary::Sub)
    return a - b;
  else if constexpr (K == FloatBinary::Mul)
    return a * b;
  else if constexpr (K == FloatBinary::Div)
    return a / b;
  else if constexpr (K == FloatBinary::Rem)
    return std::fmod(a, b);
  else if constexpr (K == FloatBinary::MaximumF)
    return maximumF(a, b);
  else if constexpr (K == FloatBinary::MinimumF)
    return minimumF(a, b);
  else if constexpr (K == FloatBinary::MaxNumF)
    return std::fmax(a, b);
  else if constexpr (K == FloatBinary::MinNumF)
    return std::fmin(a, b);
  else if constexpr (K == FloatBinary::Pow)
    return std::pow(a, b);
  else if constexpr (K == FloatBinary::CopySign)
    return std::copysign(a, b);
  else
    return std::atan2(a, b);
}

/// Rounds a double result into float storage of kind `k`.
static inline float roundDoubleToStorage(ElemKind k, double d) {
  if (k == ElemKind::F16)
    return halfBitsToFloat(doubleToHalfBits(d));
  if (k == ElemKind::BF16)
    return bf16BitsToFloat(doubleToBF16Bits(d));
  return float(d);
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
    KTFLOW_CASE(Neg) KTFLOW_CASE(Abs) KTFLOW_CASE(Ceil) KTFLOW_CASE(Floor)
    KTFLOW_CASE(Round) KTFLOW_CASE(RoundEven) KTFLOW_CASE(Trunc)
    KTFLOW_CASE(Sqrt) KTFLOW_CASE(Rsqrt) KTFLOW_CASE(Exp) KTFLOW_CASE(Exp2)
    KTFLOW_CASE(Expm1) KTFLOW_CASE(Log) KTFLOW_CASE(Log2) KTFLOW_CASE(Log10)
    KTFLOW_CASE(Log1p) KTFLOW_CASE(Tanh) KTFLOW_CASE(Sin) KTFLOW_CASE(Cos)
    KTFLOW_CASE(Tan) KTFLOW_CASE(Atan) KTFLOW_CASE(Erf) KTFLOW_CASE(Cbrt)
    KTFLOW_CASE(Reciprocal) KTFLOW_CASE(Square)
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
  return Scalar::ofFloat(a.kind, std::fma(a.f, b.f, c.f));
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

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

template <FloatUnary K>
static TensorPtr unaryTensor(const Tensor &a) {
  auto out = std::make_shared<Tensor>(a.kind(), a.shape());
  int64_t n = a.numElements();
  if (a.storage() == Storage::F64) {
    const double *x = a.f64();
    double *y = out->f64();
    for (int64_t i = 0; i < n; ++i)
      y[i] = unaryOp<K>(x[i]);
    return out;
  }
  const float *x = a.f32();
  float *y = out->f32();
  ElemKind k = a.kind();
  if constexpr (unaryViaDouble(K)) {
    for (int64_t i = 0; i < n; ++i)
      y[i] = roundDoubleToStorage(k, unaryOp<K>(double(x[i])));
  } else if (k == ElemKind::F16) {
    for (int64_t i = 0; i < n; ++i)
      y[i] = roundToHalf(unaryOp<K>(x[i]));
  } else if (k == ElemKind::BF16) {
    for (int64_t i = 0; i < n; ++i)
      y[i] = roundToBF16(unaryOp<K>(x[i]));
  } else {
    for (int64_t i = 0; i < n; ++i)
      y[i] = unaryOp<K>(x[i]);
  }
  return out;
}

TensorPtr interp::applyUnary(FloatUnary k, const Tensor &a) {
  switch (k) {
#define KTFLOW_CASE(N)                                                         \
  case FloatUnary::N:                                                          \
    return unaryTensor<FloatUnary::N>(a);
    KTFLOW_CASE(Neg) KTFLOW_CASE(Abs) KTFLOW_CASE(Ceil) KTFLOW_CASE(Floor)
    KTFLOW_CASE(Round) KTFLOW_CASE(RoundEven) KTFLOW_CASE(Trunc)
    KTFLOW_CASE(Sqrt) KTFLOW_CASE(Rsqrt) KTFLOW_CASE(Exp) KTFLOW_CASE(Exp2)
    KTFLOW_CASE(Expm1) KTFLOW_CASE(Log) KTFLOW_CASE(Log2) KTFLOW_CASE(Log10)
    KTFLOW_CASE(Log1p) KTFLOW_CASE(Tanh) KTFLOW_CASE(Sin) KTFLOW_CASE(Cos)
    KTFLOW_CASE(Tan) KTFLOW_CASE(Atan) KTFLOW_CASE(Erf) KTFLOW_CASE(Cbrt)
    KTFLOW_CASE(Reciprocal) KTFLOW_CASE(Square)
#undef KTFLOW_CASE
  }
  return nullptr;
}

template <FloatBinary K>
static TensorPtr binaryTensor(const Tensor &a, const Tensor &b) {
  auto out = std::make_shared<Tensor>(a.kind(), a.shape());
  int64_t n = a.numElements();
  if (a.storage() == Storage::F64) {
    const double *x = a.f64(), *y = b.f64();
    double *z = out->f64();
    for (int64_t i = 0; i < n; ++i)
      z[i] = binaryOp<K>(x[i], y[i]);
    return out;
  }
  const float *x = a.f32(), *y = b.f32();
  float *z = out->f32();
  ElemKind k = a.kind();
  if constexpr (binaryViaDouble(K)) {
    for (int64_t i = 0; i < n; ++i)
      z[i] = roundDoubleToStorage(k, binaryOp<K>(double(x[i]), double(y[i])));
  } else if (k == ElemKind::F16) {
    for (int64_t i = 0; i < n; ++i)
      z[i] = roundToHalf(binaryOp<K>(x[i], y[i]));
  } else if (k == ElemKind::BF16) {
    for (int64_t i = 0; i < n; ++i)
      z[i] = roundToBF16(binaryOp<K>(x[i], y[i]));
  } else {
    for (int64_t i = 0; i < n; ++i)
      z[i] = binaryOp<K>(x[i], y[i]);
  }
  return out;
}

TensorPtr interp::applyBinary(FloatBinary k, const Tensor &a, const Tensor &b) {
  switch (k) {
#define KTFLOW_CASE(N)                                                         \
  case FloatBinary::N:                                                         \
    return binaryTensor<FloatBinary::N>(a, b);
    KTFLOW_CASE(Add) KTFLOW_CASE(Sub) KTFLOW_CASE(Mul) KTFLOW_CASE(Div)
    KTFLOW_CASE(Rem) KTFLOW_CASE(MaximumF) KTFLOW_CASE(MinimumF)
    KTFLOW_CASE(MaxNumF) KTFLOW_CASE(MinNumF) KTFLOW_CASE(Pow)
    KTFLOW_CASE(CopySign) KTFLOW_CASE(Atan2)
#undef KTFLOW_CASE
  }
  return nullptr;
}

TensorPtr interp::applyBinary(IntBinary k, const Tensor &a, const Tensor &b,
                              int64_t &badIndex) {
  auto out = std::make_shared<Tensor>(a.kind(), a.shape());
  int64_t n = a.numElements();
  const int64_t *x = a.i64(), *y = b.i64();
  int64_t *z = out->i64();
  if (k == IntBinary::Add) {
    for (int64_t i = 0; i < n; ++i)
      z[i] = wrapInt(a.kind(), int64_t(uint64_t(x[i]) + uint64_t(y[i])));
    return out;
  }
  for (int64_t i = 0; i < n; ++i) {
    Scalar r;
    if (!applyBinary(k, Scalar::ofInt(a.kind(), x[i]),
                     Scalar::ofInt(b.kind(), y[i]), r)) {
      badIndex = i;
      return nullptr;
    }
    z[i] = r.i;
  }
  return out;
}

TensorPtr interp::applyFma(const Tensor &a, const Tensor &b, const Tensor &c) {
  auto out = std::make_shared<Tensor>(a.kind(), a.shape());
  for (int64_t i = 0, n = a.numElements(); i < n; ++i)
    out->set(i, applyFma(a.get(i), b.get(i), c.get(i)));
  return out;
}

TensorPtr interp::compare(CmpFPredicate p, const Tensor &a, const Tensor &b) {
  auto out = std::make_shared<Tensor>(ElemKind::I1, a.shape());
  int64_t *z = out->i64();
  for (int64_t i = 0, n = a.numElements(); i < n; ++i)
    z[i] = compare(p, a.get(i), b.get(i)) ? -1 : 0;
  return out;
}

TensorPtr interp::compare(CmpIPredicate p, const Tensor &a, const Tensor &b) {
  auto out = std::make_shared<Tensor>(ElemKind::I1, a.shape());
  int64_t *z = out->i64();
  for (int64_t i = 0, n = a.numElements(); i < n; ++i)
    z[i] = compare(p, a.get(i), b.get(i)) ? -1 : 0;
  return out;
}

TensorPtr interp::applyCast(CastKind k, ElemKind to, const Tensor &a) {
  auto out = std::make_shared<Tensor>(to, a.shape());
  int64_t n = a.numElements();
  // extf from f16/bf16 to f32 is a plain copy in float storage.
  if ((k == CastKind::ExtF || k == CastKind::TruncF) &&
      a.storage() == Storage::F32 && out->storage() == Storage::F32) {
    const float *x = a.f32();
    float *y = out->f32();
    if (to == ElemKind::F16)
      for (int64_t i = 0; i < n; ++i)
        y[i] = roundToHalf(x[i]);
    else if (to == ElemKind::BF16)
      for (int64_t i = 0; i < n; ++i)
        y[i] = roundToBF16(x[i]);
    else
      std::copy(x, x + n, y);
    return out;
  }
  for (int64_t i = 0; i < n; ++i)
    out->set(i, applyCast(k, to, a.get(i)));
  return out;
}

TensorPtr interp::convertTensor(const Tensor &a, ElemKind to) {
  auto out = std::make_shared<Tensor>(to, a.shape());
  for (int64_t i = 0, n = a.numElements(); i < n; ++i)
    out->set(i, convertScalar(a.get(i), to));
  return out;
}

TensorPtr interp::select(const Tensor &cond, const Tensor &a, const Tensor &b) {
  auto out = std::make_shared<Tensor>(a.kind(), a.shape());
  const int64_t *c = cond.i64();
  for (int64_t i = 0, n = a.numElements(); i < n; ++i)
    out->copyElement(i, c[i] ? a : b, i);
  return out;
}

//===----------------------------------------------------------------------===//
// Reductions, matmul, strided gathers
//===----------------------------------------------------------------------===//

/// Per input dimension, the stride of the matching output dimension (0 for
/// reduced dimensions).
static llvm::SmallVector<int64_t, 4> reduceOutputStrides(const Tensor &input,
                                                         const Tensor &init,
                                                         llvm::ArrayRef<int64_t> dims) {
  auto outStrides = init.strides();
  llvm::SmallVector<int64_t, 4> result;
  unsigned next = 0;
  for (unsigned d = 0; d < input.rank(); ++d) {
    if (llvm::is_contained(dims, int64_t(d)))
      result.push_back(0);
    else
      result.push_back(outStrides[next++]);
  }
  return result;
}

/// Calls fn(inputLinear, outputLinear) in row-major input order.
template <class Fn>
static void forEachReduced(const Tensor &input, llvm::ArrayRef<int64_t> ostride,
                           Fn fn) {
  unsigned rank = input.rank();
  int64_t n = input.numElements();
  if (n == 0)
    return;
  if (rank == 0) {
    fn(0, 0);
    return;
  }
  llvm::ArrayRef<int64_t> shape = input.shape();
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  int64_t o = 0;
  int64_t inner = shape[rank - 1], innerStride = ostride[rank - 1];
  for (int64_t i = 0; i < n; i += inner) {
    for (int64_t j = 0; j < inner; ++j)
      fn(i + j, o + j * innerStride);
    for (int level = int(rank) - 2; level >= 0; --level) {
      o += ostride[level];
      if (++idx[level] < shape[level])
        break;
      o -= shape[level] * ostride[level];
      idx[level] = 0;
    }
  }
}

template <FloatBinary K>
static TensorPtr reduceFloat(const Tensor &input, const Tensor &init,
                             llvm::ArrayRef<int64_t> dims) {
  auto out = std::make_shared<Tensor>(init);
  auto ostride = reduceOutputStrides(input, init, dims);
  ElemKind k = init.kind();
  if (out->storage() == Storage::F64) {
    const double *x = input.f64();
    double *acc = out->f64();
    forEachReduced(input, ostride, [&](int64_t i, int64_t o) {
      acc[o] = binaryOp<K>(x[i], acc[o]);
    });
    return out;
  }
  const float *x = input.f32();
  float *acc = out->f32();
  if (k == ElemKind::F16)
    forEachReduced(input, ostride, [&](int64_t i, int64_t o) {
      acc[o] = roundToHalf(binaryOp<K>(x[i], acc[o]));
    });
  else if (k == ElemKind::BF16)
    forEachReduced(input, ostride, [&](int64_t i, int64_t o) {
      acc[o] = roundToBF16(binaryOp<K>(x[i], acc[o]));
    });
  else
    forEachReduced(input, ostride, [&](int64_t i, int64_t o) {
      acc[o] = binaryOp<K>(x[i], acc[o]);
    });
  return out;
}

TensorPtr interp::reduce(FloatBinary k, const Tensor &input, const Tensor &init,
                         llvm::ArrayRef<int64_t> dims) {
  switch (k) {
#define KTFLOW_CASE(N)                                                         \
  case FloatBinary::N:                                                         \
    return reduceFloat<FloatBinary::N>(input, init, dims);
    KTFLOW_CASE(Add) KTFLOW_CASE(Sub) KTFLOW_CASE(Mul) KTFLOW_CASE(Div)
    KTFLOW_CASE(Rem) KTFLOW_CASE(MaximumF) KTFLOW_CASE(MinimumF)
    KTFLOW_CASE(MaxNumF) KTFLOW_CASE(MinNumF) KTFLOW_CASE(Pow)
    KTFLOW_CASE(CopySign) KTFLOW_CASE(Atan2)
#undef KTFLOW_CASE
  }
  return nullptr;
}

TensorPtr interp::reduce(IntBinary k, const Tensor &input, const Tensor &init,
                         llvm::ArrayRef<int64_t> dims) {
  auto out = std::make_shared<Tensor>(init);
  auto ostride = reduceOutputStrides(input, init, dims);
  const int64_t *x = input.i64();
  int64_t *acc = out->i64();
  ElemKind kind = init.kind();
  bool ok = true;
  forEachReduced(input, ostride, [&](int64_t i, int64_t o) {
    Scalar r;
    ok &= applyBinary(k, Scalar::ofInt(kind, x[i]), Scalar::ofInt(kind, acc[o]), r);
    acc[o] = r.i;
  });
  return ok ? TensorPtr(out) : nullptr;
}

template <class T, class Round>
static void matmulLoop(const T *a, const T *b, T *c, int64_t m, int64_t n,
                       int64_t kk, Round round) {
  // i-k-j order: each output element still folds k = 0, 1, ... in order.
  for (int64_t i = 0; i < m; ++i) {
    T *crow = c + i * n;
    for (int64_t k = 0; k < kk; ++k) {
      T aik = a[i * kk + k];
      const T *brow = b + k * n;
      for (int64_t j = 0; j < n; ++j)
        crow[j] = round(crow[j] + round(aik * brow[j]));
    }
  }
}

TensorPtr interp::matmul(const Tensor &a, const Tensor &b, const Tensor &c) {
  auto out = std::make_shared<Tensor>(c);
  unsigned r = c.rank();
  int64_t batch = r == 3 ? c.shape()[0] : 1;
  int64_t m = c.shape()[r - 2], n = c.shape()[r - 1], kk = a.shape()[r - 1];
  for (int64_t bi = 0; bi < batch; ++bi) {
    int64_t ao = bi * m * kk, bo = bi * kk * n, co = bi * m * n;
    switch (c.kind()) {
    case ElemKind::F16:
      matmulLoop(a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk,
                 [](float v) { return roundToHalf(v); });
      break;
    case ElemKind::BF16:
      matmulLoop(a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk,
                 [](float v) { return roundToBF16(v); });
      break;
    case ElemKind::F32:
      matmulLoop(a.f32() + ao, b.f32() + bo, out->f32() + co, m, n, kk,
                 [](float v) { return v; });
      break;
    case ElemKind::F64:
      matmulLoop(a.f64() + ao, b.f64() + bo, out->f64() + co, m, n, kk,
                 [](double v) { return v; });
      break;
    default: {
      ElemKind kind = c.kind();
      matmulLoop(a.i64() + ao, b.i64() + bo, out->i64() + co, m, n, kk,
                 [kind](int64_t v) { return wrapInt(kind, v); });
    }
    }
  }
  return out;
}

TensorPtr interp::gatherStrided(const Tensor &src, llvm::ArrayRef<int64_t> outShape,
                                llvm::ArrayRef<int64_t> srcStrides) {
  auto out = std::make_shared<Tensor>(src.kind(), outShape);
  int64_t n = out->numElements();
  unsigned rank = outShape.size();
  if (n == 0)
    return out;
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) {
    out->copyElement(i, src, s);
    for (int level = int(rank) - 1; level >= 0; --level) {
      s += srcStrides[level];
      if (++idx[level] < outShape[level])
        break;
      s -= outShape[level] * srcStrides[level];
      idx[level] = 0;
    }
  }
  return out;
}
