//===- TransposeKernel.h - the benchmark suite's transpose kernels -*- C++ -*-===//
//
// `ktflow gen --kernel transpose`: Y = transpose(X) for an M x N row-major
// X (f16 or f32), in example 14's form: a 2-D grid of blocks, each loaded
// through an access tile ordered (d1, d0) and stored as the transposed
// block. Not a KernelSpec (the random generator's form has no transposing
// tiles), printed as text.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_TRANSPOSEKERNEL_H
#define KTFLOW_GEN_TRANSPOSEKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>

namespace ktflow::gen {

/// The grid of source blocks of a `tiles`-tile transpose: [rows of blocks,
/// columns of blocks], the matmul kernels' split (1 -> 1x1, 8 -> 2x4,
/// 32 -> 4x8).
std::array<int64_t, 2> transposeGrid(int64_t tiles);

/// Why M x N on `tiles` tiles cannot be generated (the grid must divide
/// M and N), or none.
std::optional<std::string> transposeProblem(int64_t m, int64_t n, int64_t tiles);

/// The kernel's text for element type `type` ("f16" or "f32"; call
/// transposeProblem first).
std::string transposeKernel(int64_t m, int64_t n, llvm::StringRef type, int64_t tiles);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_TRANSPOSEKERNEL_H
