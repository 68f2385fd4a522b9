//===- TensorReduce.cpp - reductions along dimensions ---------------------===//
//
// Folds a tensor along some dimensions into a copy of the init tensor,
// visiting input elements in increasing row-major order and rounding every
// combine (ktir.md §7.2): the order the compiled code must reproduce.
//
// This file must be compiled with -ffp-contract=off (the whole library is):
// a fused multiply-add would skip a rounding the language requires.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/ElementKernels.h"

using namespace ktflow;
using namespace ktflow::interp;
using namespace ktflow::interp::kernels;

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
