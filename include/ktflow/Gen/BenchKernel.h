//===- BenchKernel.h - the benchmark suite's kernels ------------*- C++ -*-===//
//
// The kernels of the benchmark suite (issue 7), each a KernelSpec chosen by
// kind, shape, element type and grid. Rows are split in equal blocks over a
// 1-D grid; a grid that does not divide the rows gets masked last tiles, as
// any other generated kernel.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_BENCHKERNEL_H
#define KTFLOW_GEN_BENCHKERNEL_H

#include "ktflow/Gen/KernelSpec.h"

namespace ktflow::gen {

/// Fill (a scalar broadcast to the whole tensor and stored: a write-only
/// stream, for calibrating the simulator) is not part of the suite.
/// ColSum: column sums accumulated over blocks of rows (iter_args) on
/// column blocks; RowLoop: `y = x + w` over a cyclic row loop with an inner
/// loop over column blocks, its extents launch values. Softmax, LayerNorm
/// and RmsNorm are fused kernels of phases over each row block, f16 data
/// with f32 statistics. Rope rotates each row's halves by per-position sin
/// and cos (the rotate-half form, `x * cos + rotate_half(x) * sin` with cos
/// and sin given once per half-row position); SwiGLU is `silu(a) * b`;
/// both compute in f32 over f16 data.
enum class BenchKind {
  Add, Mul, Fma, Relu, BcastRow, BcastCol, BcastScalar, RowSum, RowMax, ColSum, RowLoop,
  Softmax, LayerNorm, RmsNorm, Rope, SwiGlu, Fill
};

/// Rows of the colsum kind's tensor (its reduced dimension), whatever the
/// size: the suite grows its columns instead, since a reduced dimension
/// stays whole in a tile.
constexpr int64_t kColSumRows = 256;
/// Blocks the inner loops of colsum (rows) and rowloop (columns) move.
constexpr int64_t kColSumBlock = 16;
constexpr int64_t kRowLoopBlock = 256;

/// Every kind of the suite, in the order the suite lists them.
llvm::ArrayRef<BenchKind> allBenchKinds();
llvm::StringRef benchKindName(BenchKind kind);
std::optional<BenchKind> parseBenchKind(llvm::StringRef name);

/// The kernel `kind` on a rows x cols tensor of `type` over grid [tiles].
KernelSpec benchKernel(BenchKind kind, int64_t rows, int64_t cols, ElemType type,
                       int64_t tiles);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_BENCHKERNEL_H
