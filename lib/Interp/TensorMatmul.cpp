//===- TensorMatmul.cpp - (batched) matrix multiply-accumulate ------------===//
//
// c + a x b with every product and every sum rounded to c's kind and k
// folded in increasing order; the loop runs i-k-j for locality, which keeps
// that order per output element.
//
// This file must be compiled with -ffp-contract=off (the whole library is):
// a fused multiply-add would skip a rounding the language requires.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Elementwise.h"

using namespace ktflow;
using namespace ktflow::interp;

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
