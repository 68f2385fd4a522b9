//===- GatherKernel.cpp - the benchmark suite's gather kernels ------------===//
//
// Example 16's form at any size: grid tile t reads its run of the index
// vector through the `ind(...)` subscript of an indirect access tile over
// the table, `%base + %i` with `%base = t * rows`, and stores the rows it
// gathered into its block of the output. The scatter is the same kernel
// turned around: tile t loads its block of the input and stores it
// through the indirect tile into the table rows its indices name.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/GatherKernel.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;
using llvm::StringRef;

std::optional<std::string> gen::gatherProblem(int64_t n, int64_t d, int64_t tiles) {
  if (n < 1 || d < 1 || tiles < 1)
    return std::string("sizes and grid must be positive");
  if (n % tiles)
    return llvm::formatv("{0} tiles do not divide {1} rows", tiles, n).str();
  return std::nullopt;
}

/// The gather's (or, with `scatter`, the scatter's) text.
static std::string indirectRowKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles,
                                     bool scatter) {
  int64_t rows = n / tiles;
  auto box = [](int64_t r, int64_t c) {
    return llvm::formatv(
               "affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
               r - 1, c - 1)
        .str();
  };
  std::string s;
  llvm::raw_string_ostream os(s);
  StringRef kind = scatter ? "scatter" : "gather";
  os << llvm::formatv("// ktflow gen --kernel {5} --shape {0}x{1} --dtype {2} --grid {3}\n"
                      "// {6}: {2} table and {7} {0}x{1}, i32 ids[{0}]; grid {3}, {4} rows per "
                      "tile.\n",
                      n, d, type, tiles, rows, kind,
                      scatter ? "table[ids[r], :] = x[r, :]" : "out[r, :] = table[ids[r], :]",
                      scatter ? "x" : "out");
  os << "#lex = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  // The dense block's argument: the gather's output, the scatter's input.
  StringRef block = scatter ? "x" : "out";
  if (scatter)
    os << llvm::formatv("  func.func @scatter_{0}x{1}_{2}(%x: index, %ids: index, %table: "
                        "index) attributes {{grid = [{3}]} {{\n",
                        n, d, type, tiles);
  else
    os << llvm::formatv("  func.func @gather_{0}x{1}_{2}(%table: index, %ids: index, %out: "
                        "index) attributes {{grid = [{3}]} {{\n",
                        n, d, type, tiles);
  os << "    %c0 = arith.constant 0 : index\n";
  os << llvm::formatv("    %crows = arith.constant {0} : index\n", rows);
  os << "    %t = ktdp.get_compute_tile_id : index\n";
  os << "    %base = arith.muli %t, %crows : index\n";
  os << llvm::formatv("    %tab_mem = ktdp.construct_memory_view %table, sizes: [{0}, {1}], "
                      "strides: [{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      n, d, box(n, d), type);
  os << llvm::formatv("    %ids_mem = ktdp.construct_memory_view %ids, sizes: [{0}], strides: "
                      "[1] {{\n        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {1} "
                      ">= 0)>, memory_space = #ktdp.memory_space<global>\n    } : "
                      "memref<{0}xi32>\n",
                      n, n - 1);
  os << llvm::formatv("    %g_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, "
                      "%j)\n        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {{\n"
                      "          variables_space_set = {0}, variables_space_order = #lex\n"
                      "        } : memref<{1}x{2}x{3}>, memref<{1}xi32> -> "
                      "!ktdp.access_tile<{4}x{2}xindex>\n",
                      box(rows, d), n, d, type, rows);
  os << llvm::formatv("    %{4}_mem = ktdp.construct_memory_view %{4}, sizes: [{0}, {1}], "
                      "strides: [{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      n, d, box(n, d), type, block);
  os << llvm::formatv("    %o_at = ktdp.construct_access_tile %{5}_mem[%base, %c0] {{\n"
                      "        access_tile_set = {0}, access_tile_order = #lex\n"
                      "    } : memref<{1}x{2}x{3}> -> !ktdp.access_tile<{4}x{2}xindex>\n",
                      box(rows, d), n, d, type, rows, block);
  // Gather: the rows loaded through the indirect tile, stored into the
  // block; scatter: the block loaded, stored through the indirect tile.
  StringRef from = scatter ? "%o_at" : "%g_at", to = scatter ? "%g_at" : "%o_at";
  os << llvm::formatv("    %rows = ktdp.load {3} : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}x{2}>\n",
                      rows, d, type, from);
  os << llvm::formatv("    ktdp.store %rows, {3} : tensor<{0}x{1}x{2}>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      rows, d, type, to);
  os << "    return\n  }\n}\n";
  return s;
}

std::string gen::gatherKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  return indirectRowKernel(n, d, type, tiles, /*scatter=*/false);
}

std::string gen::scatterKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  return indirectRowKernel(n, d, type, tiles, /*scatter=*/true);
}
