//===- ElementKernels.h - per-element float kernels -------------*- C++ -*-===//
//
// What one element of each float op computes, with the op kind a template
// parameter so that every (op, element type) pair compiles to its own tight
// loop. Shared by the interpreter's scalar routines (ScalarArith.cpp), its
// elementwise tensor loops (TensorArith.cpp) and reductions
// (TensorReduce.cpp), and by the simulator's vector arithmetic
// (lib/Sim/VectorOps.cpp): one definition, so the two round alike and an
// elementwise kernel compares bit for bit (ktir.md §7.3). Ops
// exact in float followed by one rounding compute in float for
// f16/bf16/f32 storage; the others (unaryViaDouble, binaryViaDouble) in
// double, rounded once to the result type.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_ELEMENTKERNELS_H
#define KTFLOW_INTERP_ELEMENTKERNELS_H

#include "ktflow/Interp/Elementwise.h"

#include <cmath>
#include <limits>

namespace ktflow::interp::kernels {

/// Whether kind K is computed in double (then rounded) for float storage.
constexpr bool unaryViaDouble(FloatUnary k) {
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
constexpr bool binaryViaDouble(FloatBinary k) {
  return k == FloatBinary::Pow || k == FloatBinary::Atan2 || k == FloatBinary::Rem;
}

template <FloatUnary K, class T>
inline T unaryOp(T a) {
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
inline T maximumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <class T>
inline T minimumF(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

template <FloatBinary K, class T>
inline T binaryOp(T a, T b) {
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

/// math.fma: the product and the sum with one rounding (to double, which
/// the caller then rounds to the result type).
inline double fmaOp(double a, double b, double c) { return std::fma(a, b, c); }

/// Rounds a double result into float storage of kind `k`.
inline float roundDoubleToStorage(ElemKind k, double d) {
  if (k == ElemKind::F16)
    return halfBitsToFloat(doubleToHalfBits(d));
  if (k == ElemKind::BF16)
    return bf16BitsToFloat(doubleToBF16Bits(d));
  return float(d);
}

} // namespace ktflow::interp::kernels

/// Every FloatUnary, as X(Name): the switches that dispatch on the op
/// (scalar and tensor) expand it, so a new op is added in one place.
#define KTFLOW_FOR_EACH_FLOAT_UNARY(X)                                         \
  X(Neg) X(Abs) X(Ceil) X(Floor) X(Round) X(RoundEven) X(Trunc) X(Sqrt)        \
  X(Rsqrt) X(Exp) X(Exp2) X(Expm1) X(Log) X(Log2) X(Log10) X(Log1p) X(Tanh)    \
  X(Sin) X(Cos) X(Tan) X(Atan) X(Erf) X(Cbrt) X(Reciprocal) X(Square)


#endif // KTFLOW_INTERP_ELEMENTKERNELS_H
