//===- Elementwise.h - numeric kernels of arith, math and linalg -*- C++ -*-===//
//
// The arithmetic the interpreter performs, on scalars and on whole tensors,
// independent of MLIR operations: each arith/math op and each elementwise
// linalg named op maps to one of these kinds. Float results are rounded
// once to the result kind (ktir.md §7.1); integer results wrap.
// Implemented by lib/Interp/ScalarArith.cpp (scalars), TensorArith.cpp
// (elementwise tensors), TensorReduce.cpp, TensorMatmul.cpp and
// TensorGather.cpp, on the per-element kernels of ElementKernels.h (which the
// simulator computes with too).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_ELEMENTWISE_H
#define KTFLOW_INTERP_ELEMENTWISE_H

#include "ktflow/Interp/Value.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace ktflow::interp {

enum class FloatUnary {
  Neg, Abs, Ceil, Floor, Round, RoundEven, Trunc, Sqrt, Rsqrt, Exp, Exp2,
  Expm1, Log, Log2, Log10, Log1p, Tanh, Sin, Cos, Tan, Atan, Erf, Cbrt,
  Reciprocal, Square
};
enum class FloatBinary {
  Add, Sub, Mul, Div, Rem, MaximumF, MinimumF, MaxNumF, MinNumF, Pow,
  CopySign, Atan2
};
enum class IntBinary {
  Add, Sub, Mul, DivS, DivU, RemS, RemU, FloorDivS, CeilDivS, CeilDivU, And,
  Or, Xor, Shl, ShrS, ShrU, MaxS, MaxU, MinS, MinU
};
enum class CastKind {
  ExtF, TruncF, SIToFP, UIToFP, FPToSI, FPToUI, ExtSI, ExtUI, TruncI,
  IndexCast, IndexCastUI, Bitcast
};

/// True for combiners whose operands may be swapped (used by reduce fast
/// paths).
bool isCommutative(FloatBinary k);
bool isCommutative(IntBinary k);

Scalar applyUnary(FloatUnary k, const Scalar &a);
Scalar applyBinary(FloatBinary k, const Scalar &a, const Scalar &b);
/// Fails (returns false) on division by zero.
bool applyBinary(IntBinary k, const Scalar &a, const Scalar &b, Scalar &out);
Scalar applyFma(const Scalar &a, const Scalar &b, const Scalar &c);
bool compare(mlir::arith::CmpFPredicate p, const Scalar &a, const Scalar &b);
bool compare(mlir::arith::CmpIPredicate p, const Scalar &a, const Scalar &b);
Scalar applyCast(CastKind k, ElemKind to, const Scalar &a);
/// Converts a value to another element kind the way linalg named ops cast
/// their inputs to the output type (signed for integers).
Scalar convertScalar(const Scalar &a, ElemKind to);

/// Tensor versions: operands have equal shapes; the result has `a`'s shape
/// and element kind (or the given kind).
TensorPtr applyUnary(FloatUnary k, const Tensor &a);
TensorPtr applyBinary(FloatBinary k, const Tensor &a, const Tensor &b);
/// Returns null on division by zero and sets `badIndex`.
TensorPtr applyBinary(IntBinary k, const Tensor &a, const Tensor &b,
                      int64_t &badIndex);
TensorPtr applyFma(const Tensor &a, const Tensor &b, const Tensor &c);
TensorPtr compare(mlir::arith::CmpFPredicate p, const Tensor &a, const Tensor &b);
TensorPtr compare(mlir::arith::CmpIPredicate p, const Tensor &a, const Tensor &b);
TensorPtr applyCast(CastKind k, ElemKind to, const Tensor &a);
TensorPtr convertTensor(const Tensor &a, ElemKind to);
/// Elementwise select with an i1 tensor condition.
TensorPtr select(const Tensor &cond, const Tensor &a, const Tensor &b);

/// Folds `input` along `dims` into a copy of `init` (whose shape is the
/// input shape without `dims`): acc = k(in, acc), visiting input elements in
/// increasing row-major order and rounding every combine (ktir.md §7.2).
TensorPtr reduce(FloatBinary k, const Tensor &input, const Tensor &init,
                 llvm::ArrayRef<int64_t> dims);
TensorPtr reduce(IntBinary k, const Tensor &input, const Tensor &init,
                 llvm::ArrayRef<int64_t> dims);
/// result = c + a x b for (batched) matrices, all of c's kind: every
/// product and every sum rounded to that kind, k folded in increasing
/// order. a: [B x] M x K, b: [B x] K x N, c: [B x] M x N.
TensorPtr matmul(const Tensor &a, const Tensor &b, const Tensor &c);
/// The float matmul kernels `matmul` chooses from, fastest first: all give
/// the same bits; the processor decides which can run.
enum class MatmulKernel { Avx512, Avx2, Scalar };
/// Whether this processor can run `kernel`.
bool canRunMatmulKernel(MatmulKernel kernel);
/// `matmul` with `kernel` for f16/bf16/f32 (one this processor cannot run
/// runs the scalar loop), so tests check every kernel against the
/// definition, not only the fastest.
TensorPtr matmulWith(MatmulKernel kernel, const Tensor &a, const Tensor &b, const Tensor &c);
/// A tensor of shape `outShape` whose element at index i is src element
/// sum(i[d] * srcStrides[d]) (broadcast, transpose and permuted copies).
TensorPtr gatherStrided(const Tensor &src, llvm::ArrayRef<int64_t> outShape,
                        llvm::ArrayRef<int64_t> srcStrides);

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_ELEMENTWISE_H
