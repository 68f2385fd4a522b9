//===- TensorArith.cpp - elementwise ops on whole tensors -----------------===//
//
// Unary, binary, fma, compare, cast and select over tensors of equal shape.
// The hot float ops (one per kernel kind) run a loop specialised on the op
// and the storage, with the rounding hoisted out of the per-element work;
// integer ops, compares and casts go element by element through the scalar
// routines (ScalarArith.cpp): they are not hot in KTIR kernels.
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
    KTFLOW_FOR_EACH_FLOAT_UNARY(KTFLOW_CASE)
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

