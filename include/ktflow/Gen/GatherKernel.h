//===- GatherKernel.h - the benchmark suite's gather kernels ----*- C++ -*-===//
//
// `ktflow gen --kernel gather`: an embedding lookup, out[r, :] =
// table[ids[r], :] for N rows of D elements (f16 or f32) from an N x D
// table through an i32 index vector, in example 16's form: grid tile t
// gathers rows [t * N / G, (t + 1) * N / G) through an indirect access tile
// and stores them. Not a KernelSpec (the random generator's form has no
// indirect tiles), printed as text.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_GATHERKERNEL_H
#define KTFLOW_GEN_GATHERKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace ktflow::gen {

/// Why N x D on `tiles` tiles cannot be generated (the grid must divide
/// N), or none.
std::optional<std::string> gatherProblem(int64_t n, int64_t d, int64_t tiles);

/// The kernel's text for element type `type` ("f16" or "f32"; call
/// gatherProblem first).
std::string gatherKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles);

/// `ktflow gen --kernel scatter`: the gather turned around, table[ids[r],
/// :] = x[r, :] (grid tile t loads rows [t * N / G, (t + 1) * N / G) of x
/// and stores them through the indirect tile); gatherProblem's limits.
std::string scatterKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_GATHERKERNEL_H
