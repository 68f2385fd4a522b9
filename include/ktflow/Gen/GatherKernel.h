//===- GatherKernel.h - gather and scatter kernels ---------------*- C++ -*-===//
//
// `ktflow gen --kernel gather`: an embedding lookup, out[r, :] =
// table[ids[r], :] for N rows of D elements (f16 or f32) from an N x D
// table through an i32 index vector, in example 16's form: grid tile t
// gathers rows [t * N / G, (t + 1) * N / G) through an indirect access tile
// and stores them. `--kernel scatter` turns it around. Not a KernelSpec
// (the element-wise generator's form has no indirect tiles), printed as
// text. `ktflow fuzz --gathers` draws IndirectRowsSpecs: tables of other
// row counts than the rows moved, i32 data, and an element-wise op between
// the load and the store.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_GATHERKERNEL_H
#define KTFLOW_GEN_GATHERKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::gen {

/// A gather (out[r, :] = f(table[ids[r], :])) or a scatter
/// (table[ids[r], :] = f(x[r, :])) of `rows` rows of `cols` elements, grid
/// tile t moving rows [t * rows / tiles, (t + 1) * rows / tiles).
struct IndirectRowsSpec {
  int64_t tableRows = 0, rows = 0, cols = 0;
  /// "f16", "f32" or "i32".
  std::string type = "f16";
  int64_t tiles = 1;
  bool scatter = false;
  /// The element-wise op applied to the moved rows: "" (none), "add" or
  /// "mul" (the rows with themselves); for a scatter also "accumulate":
  /// the rows added to the table rows they go to (a scatter-add).
  std::string op;
  /// Where the kernel came from, for its header comment.
  std::string origin;
};

/// Why N x D on `tiles` tiles cannot be generated (the grid must divide
/// N), or none.
std::optional<std::string> gatherProblem(int64_t n, int64_t d, int64_t tiles);

/// The kernel's text (call gatherProblem on rows, cols and tiles first; a
/// scatter's table has at least `rows` rows).
std::string indirectRowsKernel(const IndirectRowsSpec &spec);

/// The bench's gather: N x D table, N rows, element type `type` ("f16" or
/// "f32").
std::string gatherKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles);

/// `ktflow gen --kernel scatter`: the gather turned around, table[ids[r],
/// :] = x[r, :] (grid tile t loads rows [t * N / G, (t + 1) * N / G) of x
/// and stores them through the indirect tile); gatherProblem's limits.
std::string scatterKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles);

/// `ktflow gen --kernel scatter-add`: table[ids[r], :] += x[r, :], the
/// table's rows gathered and scattered through one indirect tile (an
/// indexed add: MoE combine, embedding gradients); gatherProblem's limits.
std::string scatterAddKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles);

/// A random spec for `ktflow fuzz --gathers` (deterministic in `seed`): at
/// most `maxTiles` grid tiles, shapes that are and are not whole vectors
/// and DMA units.
IndirectRowsSpec randomIndirectRows(uint64_t seed, int64_t maxTiles);

/// Smaller variants of `spec`, for the fuzzer's reduction (fewest first).
std::vector<IndirectRowsSpec> shrinkIndirectRows(const IndirectRowsSpec &spec);

/// Indices a valid program may be given (deterministic in `seed`): a
/// gather's uniform in [0, tableRows), repeats allowed; a scatter's
/// distinct, so no two tiles write one table row (a race, ktir.md §2.4).
std::vector<int32_t> indirectRowIds(const IndirectRowsSpec &spec, uint64_t seed);

/// The spec in words ("scatter 12 of 20 rows x 33 f32, 4 tiles, add").
std::string describeIndirectRows(const IndirectRowsSpec &spec);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_GATHERKERNEL_H
