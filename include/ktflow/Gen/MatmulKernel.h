//===- MatmulKernel.h - the benchmark suite's matmul kernels ----*- C++ -*-===//
//
// `ktflow gen --kernel matmul`: C = A @ B with f16 A (M x K) and B (K x N),
// row-major, the products summed in f32 and C stored in f16, in example
// 10's form: a 2-D grid of output blocks and a K loop whose iter_arg
// accumulates linalg.matmul of K blocks. Not a KernelSpec (the random
// generator's form has no contraction), printed as text.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_MATMULKERNEL_H
#define KTFLOW_GEN_MATMULKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>

namespace ktflow::gen {

/// The K extent one loop iteration of a generated matmul takes.
constexpr int64_t kMatmulKBlock = 64;

/// The grid of output blocks of a `tiles`-tile matmul: [rows of blocks,
/// columns of blocks], columns up to twice the rows (1 -> 1x1, 8 -> 2x4,
/// 32 -> 4x8).
std::array<int64_t, 2> matmulGrid(int64_t tiles);

/// Why M x N x K on `tiles` tiles cannot be generated (the grid must divide
/// M and N, kMatmulKBlock divide K), or none.
std::optional<std::string> matmulProblem(int64_t m, int64_t n, int64_t k, int64_t tiles);

/// The kernel's text (call matmulProblem first).
std::string matmulKernel(int64_t m, int64_t n, int64_t k, int64_t tiles);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_MATMULKERNEL_H
