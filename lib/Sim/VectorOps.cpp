//===- VectorOps.cpp - vector arithmetic with per-operation rounding ------===//
//
// Every result is rounded to its element type once. What one lane of an
// arithmetic instruction computes is the interpreter's own per-element
// kernel (ktflow/Interp/ElementKernels.h), chosen by mapping the opcode to
// the interpreter's op kind: add, sub, mul, div and sqrt in float (exact
// enough that rounding the float result to f16/bf16 equals rounding the
// exact result: float carries more than twice their precision plus two
// bits), exp, log, tanh, erf, rsqrt, pow and fma in double, then rounded
// once, constants from double. So an elementwise kernel compares bit for
// bit with the interpreter. Reductions fold left to right, rounding every
// combine. Integer lanes compute in 64-bit two's complement (unsigned, so
// overflow is defined) and wrap to the type's width after every op, as the
// interpreter's integer tensors do; a cast to an integer type truncates
// toward zero (fptosi) or wraps (trunci), from one sign-extends (extsi) or
// rounds once to nearest even (sitofp).
//
//===----------------------------------------------------------------------===//
#include "VectorOps.h"

#include "ktflow/Interp/ElementKernels.h"
#include "ktflow/Interp/Float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::dc;

static float roundTo(ElemType t, float v) {
  switch (t) {
  case ElemType::F16:
    return interp::roundToHalf(v);
  case ElemType::BF16:
    return interp::roundToBF16(v);
  case ElemType::F32:
  default:
    return v;
  }
}

static float roundDoubleTo(ElemType t, double v) {
  switch (t) {
  case ElemType::F16:
    return interp::halfBitsToFloat(interp::doubleToHalfBits(v));
  case ElemType::BF16:
    return interp::bf16BitsToFloat(interp::doubleToBF16Bits(v));
  case ElemType::F32:
  default:
    return float(v);
  }
}

bool sim::sameElementType(ElemType t, mlir::Type type) {
  switch (t) {
  case ElemType::F16:
    return type.isF16();
  case ElemType::BF16:
    return type.isBF16();
  case ElemType::F32:
    return type.isF32();
  case ElemType::I8:
    return type.isInteger(8);
  case ElemType::I32:
    return type.isInteger(32);
  case ElemType::I64:
    return type.isInteger(64);
  }
  return false;
}

int64_t sim::wrapToType(ElemType t, int64_t v) {
  switch (t) {
  case ElemType::I8:
    return int8_t(v);
  case ElemType::I32:
    return int32_t(v);
  default:
    return v;
  }
}

bool sim::hasIntegerForm(Opcode op) {
  switch (op) {
  case Opcode::VConst:
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::Max:
  case Opcode::Min:
  case Opcode::Neg:
  case Opcode::Mov:
  case Opcode::Cast:
  case Opcode::Cmp:
  case Opcode::Select:
  case Opcode::Bcast:
  case Opcode::Reduce:
  case Opcode::Slide:
  case Opcode::Ext:
  case Opcode::Concat:
  case Opcode::Slice:
    return true;
  default:
    return false;
  }
}

/// fptosi as the interpreter computes it: NaN is 0, the value truncated
/// toward zero, saturated to int64 and wrapped to the type.
static int64_t floatToInteger(ElemType t, double v) {
  if (std::isnan(v))
    return 0;
  double r = std::trunc(v);
  if (r >= 9.2233720368547758e18)
    return wrapToType(t, std::numeric_limits<int64_t>::max());
  if (r <= -9.2233720368547758e18)
    return std::numeric_limits<int64_t>::min();
  return wrapToType(t, int64_t(r));
}

void sim::loadVector(VectorValue &v, const uint8_t *bytes) {
  if (isIntegerType(v.type)) {
    v.ints.resize(v.count);
    for (int64_t i = 0; i < v.count; ++i) {
      if (v.type == ElemType::I8) {
        v.ints[i] = int8_t(bytes[i]);
      } else if (v.type == ElemType::I32) {
        int32_t x;
        std::memcpy(&x, bytes + 4 * i, 4);
        v.ints[i] = x;
      } else {
        std::memcpy(&v.ints[i], bytes + 8 * i, 8);
      }
    }
    return;
  }
  v.values.resize(v.count);
  for (int64_t i = 0; i < v.count; ++i) {
    switch (v.type) {
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t h;
      std::memcpy(&h, bytes + 2 * i, 2);
      v.values[i] = v.type == ElemType::F16 ? interp::halfBitsToFloat(h)
                                            : interp::bf16BitsToFloat(h);
      break;
    }
    default:
      std::memcpy(&v.values[i], bytes + 4 * i, 4);
      break;
    }
  }
}

void sim::storeVector(const VectorValue &v, uint8_t *bytes) {
  if (isIntegerType(v.type)) {
    for (int64_t i = 0; i < v.count; ++i) {
      int64_t x = i < int64_t(v.ints.size()) ? v.ints[i] : 0;
      if (v.type == ElemType::I8) {
        bytes[i] = uint8_t(x);
      } else if (v.type == ElemType::I32) {
        int32_t w = int32_t(x);
        std::memcpy(bytes + 4 * i, &w, 4);
      } else {
        std::memcpy(bytes + 8 * i, &x, 8);
      }
    }
    return;
  }
  for (int64_t i = 0; i < v.count; ++i) {
    float x = i < int64_t(v.values.size()) ? v.values[i] : 0.0f;
    switch (v.type) {
    case ElemType::F16:
    case ElemType::BF16: {
      uint16_t h = v.type == ElemType::F16 ? interp::floatToHalfBits(x)
                                           : interp::floatToBF16Bits(x);
      std::memcpy(bytes + 2 * i, &h, 2);
      break;
    }
    default:
      std::memcpy(bytes + 4 * i, &x, 4);
      break;
    }
  }
}

static VectorValue like(ElemType type, int64_t count, bool compute) {
  VectorValue out;
  out.type = type;
  out.count = count;
  if (compute && isIntegerType(type))
    out.ints.resize(count);
  else if (compute)
    out.values.resize(count);
  return out;
}

VectorValue sim::splat(ElemType type, int64_t count, double value, bool compute) {
  VectorValue out = like(type, count, compute);
  if (compute && isIntegerType(type))
    std::fill(out.ints.begin(), out.ints.end(), floatToInteger(type, value));
  else if (compute)
    std::fill(out.values.begin(), out.values.end(), roundDoubleTo(type, value));
  return out;
}

VectorValue sim::broadcastLane(const VectorValue &a, int64_t lane, int64_t count, bool compute) {
  VectorValue out = like(a.type, count, compute);
  if (compute && isIntegerType(a.type))
    std::fill(out.ints.begin(), out.ints.end(), a.ints[lane]);
  else if (compute)
    std::fill(out.values.begin(), out.values.end(), a.values[lane]);
  return out;
}

VectorValue sim::slideVector(const VectorValue &d, const VectorValue &a, bool compute) {
  VectorValue out = d;
  if (!compute)
    return out;
  if (isIntegerType(d.type)) {
    std::rotate(out.ints.begin(), out.ints.begin() + 1, out.ints.end());
    out.ints.back() = a.ints[0];
  } else {
    std::rotate(out.values.begin(), out.values.begin() + 1, out.values.end());
    out.values.back() = a.values[0];
  }
  return out;
}

VectorValue sim::castVector(const VectorValue &a, ElemType to, bool compute) {
  VectorValue out = like(to, a.count, compute);
  if (!compute)
    return out;
  bool fromInt = isIntegerType(a.type), toInt = isIntegerType(to);
  for (int64_t i = 0; i < a.count; ++i) {
    if (fromInt && toInt)
      out.ints[i] = wrapToType(to, a.ints[i]);
    else if (fromInt)
      out.values[i] = roundDoubleTo(to, double(a.ints[i]));
    else if (toInt)
      out.ints[i] = floatToInteger(to, a.values[i]);
    else
      out.values[i] = roundTo(to, a.values[i]);
  }
  return out;
}

static float combine(Combiner c, float acc, float x) {
  switch (c) {
  case Combiner::Add:
    return acc + x;
  // arith.maximumf / minimumf: NaN propagates and -0 < +0 (std::max and
  // std::min return the first of two equal zeros, whatever their signs).
  case Combiner::Max:
    if (std::isnan(acc) || std::isnan(x))
      return NAN;
    if (acc == x)
      return std::signbit(acc) ? x : acc;
    return std::max(acc, x);
  case Combiner::Min:
    if (std::isnan(acc) || std::isnan(x))
      return NAN;
    if (acc == x)
      return std::signbit(acc) ? acc : x;
    return std::min(acc, x);
  }
  return acc;
}

VectorValue sim::reduceVector(const VectorValue &a, Combiner c, bool compute) {
  VectorValue out = like(a.type, 1, compute);
  if (!compute)
    return out;
  if (isIntegerType(a.type)) {
    // Integer combines are exact up to the wrap: any fold order gives the
    // interpreter's result.
    int64_t acc = a.ints[0];
    for (int64_t i = 1; i < a.count; ++i) {
      int64_t x = a.ints[i];
      acc = c == Combiner::Add ? wrapToType(a.type, int64_t(uint64_t(acc) + uint64_t(x)))
            : c == Combiner::Max ? std::max(acc, x)
                                 : std::min(acc, x);
    }
    out.ints[0] = acc;
    return out;
  }
  // A halving tree: each stage folds the upper half of the lanes into the
  // lower half, lane i with lane i + half (an odd count keeps its middle
  // lane), one rounding per combine, until one lane is left.
  std::vector<float> lanes(a.values.begin(), a.values.begin() + a.count);
  for (int64_t n = a.count; n > 1;) {
    int64_t half = (n + 1) / 2;
    for (int64_t i = 0; i + half < n; ++i)
      lanes[i] = roundTo(a.type, combine(c, lanes[i], lanes[i + half]));
    n = half;
  }
  out.values[0] = lanes[0];
  return out;
}

VectorValue sim::selectVector(const VectorValue &m, const VectorValue &a,
                              const VectorValue &b, bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute)
    return out;
  for (int64_t i = 0; i < a.count; ++i) {
    bool taken = isIntegerType(m.type) ? m.ints[i] != 0 : m.values[i] != 0.0f;
    if (isIntegerType(a.type))
      out.ints[i] = taken ? a.ints[i] : b.ints[i];
    else
      out.values[i] = taken ? a.values[i] : b.values[i];
  }
  return out;
}

VectorValue sim::compareVector(CmpPredicate p, const VectorValue &a, const VectorValue &b,
                               bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute)
    return out;
  if (isIntegerType(a.type)) {
    for (int64_t i = 0; i < a.count; ++i) {
      int64_t x = a.ints[i], y = b.ints[i];
      bool r = p == CmpPredicate::Lt   ? x < y
               : p == CmpPredicate::Le ? x <= y
               : p == CmpPredicate::Gt ? x > y
               : p == CmpPredicate::Ge ? x >= y
               : p == CmpPredicate::Eq ? x == y
                                       : x != y;
      out.ints[i] = r ? 1 : 0;
    }
    return out;
  }
  for (int64_t i = 0; i < a.count; ++i) {
    float x = a.values[i], y = b.values[i];
    bool r = false;
    switch (p) {
    case CmpPredicate::Lt:
      r = x < y;
      break;
    case CmpPredicate::Le:
      r = x <= y;
      break;
    case CmpPredicate::Gt:
      r = x > y;
      break;
    case CmpPredicate::Ge:
      r = x >= y;
      break;
    case CmpPredicate::Eq:
      r = x == y;
      break;
    case CmpPredicate::Ne:
      r = x != y;
      break;
    }
    out.values[i] = r ? 1.0f : 0.0f;
  }
  return out;
}

static interp::ElemKind kindOf(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return interp::ElemKind::F16;
  case ElemType::BF16:
    return interp::ElemKind::BF16;
  case ElemType::F32:
  default:
    return interp::ElemKind::F32;
  }
}

/// One lane-wise unary op, rounded as the interpreter rounds kind K.
template <interp::FloatUnary K>
static void unaryLanes(ElemType t, const float *x, float *r, int64_t n) {
  using namespace interp::kernels;
  if constexpr (unaryViaDouble(K)) {
    interp::ElemKind k = kindOf(t);
    for (int64_t i = 0; i < n; ++i)
      r[i] = roundDoubleToStorage(k, unaryOp<K>(double(x[i])));
  } else {
    for (int64_t i = 0; i < n; ++i)
      r[i] = roundTo(t, unaryOp<K>(x[i]));
  }
}

/// One lane-wise binary op, rounded as the interpreter rounds kind K.
template <interp::FloatBinary K>
static void binaryLanes(ElemType t, const float *x, const float *y, float *r, int64_t n) {
  using namespace interp::kernels;
  if constexpr (binaryViaDouble(K)) {
    interp::ElemKind k = kindOf(t);
    for (int64_t i = 0; i < n; ++i)
      r[i] = roundDoubleToStorage(k, binaryOp<K>(double(x[i]), double(y[i])));
  } else {
    for (int64_t i = 0; i < n; ++i)
      r[i] = roundTo(t, binaryOp<K>(x[i], y[i]));
  }
}

VectorValue sim::binaryVector(Opcode op, const VectorValue &a, const VectorValue &b,
                              bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute)
    return out;
  if (isIntegerType(a.type)) {
    for (int64_t i = 0; i < a.count; ++i) {
      uint64_t x = uint64_t(a.ints[i]), y = uint64_t(b.ints[i]);
      int64_t r = 0;
      switch (op) {
      case Opcode::Add:
        r = int64_t(x + y);
        break;
      case Opcode::Sub:
        r = int64_t(x - y);
        break;
      case Opcode::Mul:
        r = int64_t(x * y);
        break;
      case Opcode::Max:
        r = std::max(a.ints[i], b.ints[i]);
        break;
      case Opcode::Min:
        r = std::min(a.ints[i], b.ints[i]);
        break;
      default:
        break;
      }
      out.ints[i] = wrapToType(a.type, r);
    }
    return out;
  }
  using interp::FloatBinary;
  const float *x = a.values.data(), *y = b.values.data();
  float *r = out.values.data();
  switch (op) {
  case Opcode::Add:
    binaryLanes<FloatBinary::Add>(a.type, x, y, r, a.count);
    break;
  case Opcode::Sub:
    binaryLanes<FloatBinary::Sub>(a.type, x, y, r, a.count);
    break;
  case Opcode::Mul:
    binaryLanes<FloatBinary::Mul>(a.type, x, y, r, a.count);
    break;
  case Opcode::Div:
    binaryLanes<FloatBinary::Div>(a.type, x, y, r, a.count);
    break;
  case Opcode::Pow:
    binaryLanes<FloatBinary::Pow>(a.type, x, y, r, a.count);
    break;
  case Opcode::Max:
    for (int64_t i = 0; i < a.count; ++i)
      r[i] = combine(Combiner::Max, x[i], y[i]);
    break;
  case Opcode::Min:
    for (int64_t i = 0; i < a.count; ++i)
      r[i] = combine(Combiner::Min, x[i], y[i]);
    break;
  default:
    break;
  }
  return out;
}

VectorValue sim::ternaryVector(Opcode op, const VectorValue &a, const VectorValue &b,
                               const VectorValue &c, bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute || op != Opcode::Fma)
    return out;
  interp::ElemKind k = kindOf(a.type);
  for (int64_t i = 0; i < a.count; ++i)
    out.values[i] = interp::kernels::roundDoubleToStorage(
        k, interp::kernels::fmaOp(a.values[i], b.values[i], c.values[i]));
  return out;
}

VectorValue sim::unaryVector(Opcode op, const VectorValue &a, bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute)
    return out;
  if (isIntegerType(a.type)) {
    for (int64_t i = 0; i < a.count; ++i)
      out.ints[i] = op == Opcode::Neg ? wrapToType(a.type, int64_t(0 - uint64_t(a.ints[i])))
                                      : a.ints[i];
    return out;
  }
  using interp::FloatUnary;
  const float *x = a.values.data();
  float *r = out.values.data();
  switch (op) {
  case Opcode::Neg:
    unaryLanes<FloatUnary::Neg>(a.type, x, r, a.count);
    break;
  case Opcode::Abs:
    unaryLanes<FloatUnary::Abs>(a.type, x, r, a.count);
    break;
  case Opcode::Exp:
    unaryLanes<FloatUnary::Exp>(a.type, x, r, a.count);
    break;
  case Opcode::Sqrt:
    unaryLanes<FloatUnary::Sqrt>(a.type, x, r, a.count);
    break;
  case Opcode::Rsqrt:
    unaryLanes<FloatUnary::Rsqrt>(a.type, x, r, a.count);
    break;
  case Opcode::Log:
    unaryLanes<FloatUnary::Log>(a.type, x, r, a.count);
    break;
  case Opcode::Tanh:
    unaryLanes<FloatUnary::Tanh>(a.type, x, r, a.count);
    break;
  case Opcode::Erf:
    unaryLanes<FloatUnary::Erf>(a.type, x, r, a.count);
    break;
  default: // mov
    std::copy(x, x + a.count, r);
    break;
  }
  return out;
}

VectorValue sim::extractVector(const VectorValue &a, const VectorValue &b, int64_t lane,
                               bool compute) {
  VectorValue out = like(a.type, a.count, compute);
  if (!compute)
    return out;
  // Values move unchanged: no rounding, so an f16 lane keeps its bits.
  if (isIntegerType(a.type)) {
    for (int64_t i = 0; i < a.count; ++i)
      out.ints[i] = lane + i < a.count ? a.ints[lane + i] : b.ints[lane + i - a.count];
    return out;
  }
  for (int64_t i = 0; i < a.count; ++i)
    out.values[i] = lane + i < a.count ? a.values[lane + i] : b.values[lane + i - a.count];
  return out;
}

VectorValue sim::concatVectors(const VectorValue &a, const VectorValue &b, bool compute) {
  VectorValue out = like(a.type, a.count + b.count, compute);
  if (compute && isIntegerType(a.type)) {
    std::copy(a.ints.begin(), a.ints.end(), out.ints.begin());
    std::copy(b.ints.begin(), b.ints.end(), out.ints.begin() + a.count);
  } else if (compute) {
    std::copy(a.values.begin(), a.values.end(), out.values.begin());
    std::copy(b.values.begin(), b.values.end(), out.values.begin() + a.count);
  }
  return out;
}

VectorValue sim::sliceVector(const VectorValue &a, int64_t lane, int64_t count, bool compute) {
  VectorValue out = like(a.type, count, compute);
  if (compute && isIntegerType(a.type))
    std::copy(a.ints.begin() + lane, a.ints.begin() + lane + count, out.ints.begin());
  else if (compute)
    std::copy(a.values.begin() + lane, a.values.begin() + lane + count, out.values.begin());
  return out;
}
