//===- GatherKernel.cpp - gather and scatter kernels ----------------------===//
//
// Example 16's form at any size: grid tile t reads its run of the index
// vector through the `ind(...)` subscript of an indirect access tile over
// the table, `%base + %i` with `%base = t * rows`, and stores the rows it
// gathered into its block of the output. The scatter is the same kernel
// turned around: tile t loads its block of the input and stores it
// through the indirect tile into the table rows its indices name. Either
// may apply an element-wise op to the rows between the load and the store
// (what the fuzzer draws; the bench's kernels move the rows unchanged).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/GatherKernel.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <numeric>
#include <random>

using namespace ktflow;
using llvm::StringRef;

std::optional<std::string> gen::gatherProblem(int64_t n, int64_t d, int64_t tiles) {
  if (n < 1 || d < 1 || tiles < 1)
    return std::string("sizes and grid must be positive");
  if (n % tiles)
    return llvm::formatv("{0} tiles do not divide {1} rows", tiles, n).str();
  return std::nullopt;
}

std::string gen::indirectRowsKernel(const IndirectRowsSpec &spec) {
  int64_t n = spec.rows, d = spec.cols, t = spec.tableRows, tiles = spec.tiles;
  int64_t rows = n / tiles;
  StringRef type = spec.type;
  bool scatter = spec.scatter;
  auto box = [](int64_t r, int64_t c) {
    return llvm::formatv(
               "affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
               r - 1, c - 1)
        .str();
  };
  std::string s;
  llvm::raw_string_ostream os(s);
  bool accumulate = scatter && spec.op == "accumulate";
  StringRef kind = accumulate ? "scatter-add" : scatter ? "scatter" : "gather";
  std::string what;
  if (accumulate)
    what = "table[ids[r], :] += x[r, :]";
  else if (spec.op.empty())
    what = scatter ? "table[ids[r], :] = x[r, :]" : "out[r, :] = table[ids[r], :]";
  else
    what = llvm::formatv(scatter ? "table[ids[r], :] = x[r, :] {0} x[r, :]"
                                 : "out[r, :] = table[ids[r], :] {0} table[ids[r], :]",
                         spec.op == "add" ? "+" : "*")
               .str();
  if (!spec.origin.empty())
    os << "// " << spec.origin << "\n";
  else
    os << llvm::formatv("// ktflow gen --kernel {0} --shape {1}x{2} --dtype {3} --grid {4}\n",
                        kind, n, d, type, tiles);
  os << llvm::formatv("// {0}: {1} table[{2}, {3}] and {4} {5}x{3}, i32 ids[{5}]; grid {6}, {7} "
                      "rows per tile.\n",
                      kind, type, t, d, scatter ? "x" : "out", n, tiles, rows);
  os << "// " << what << "\n";
  os << "#lex = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  // The dense block's argument: the gather's output, the scatter's input.
  StringRef block = scatter ? "x" : "out";
  std::string symbol = accumulate ? "scatter_add" : kind.str();
  std::string name = t == n ? llvm::formatv("{0}_{1}x{2}_{3}", symbol, n, d, type).str()
                            : llvm::formatv("{0}_{1}_of_{2}x{3}_{4}", symbol, n, t, d, type).str();
  if (scatter)
    os << llvm::formatv("  func.func @{0}(%x: index, %ids: index, %table: index) attributes "
                        "{{grid = [{1}]} {{\n",
                        name, tiles);
  else
    os << llvm::formatv("  func.func @{0}(%table: index, %ids: index, %out: index) attributes "
                        "{{grid = [{1}]} {{\n",
                        name, tiles);
  os << "    %c0 = arith.constant 0 : index\n";
  os << llvm::formatv("    %crows = arith.constant {0} : index\n", rows);
  os << "    %t = ktdp.get_compute_tile_id : index\n";
  os << "    %base = arith.muli %t, %crows : index\n";
  os << llvm::formatv("    %tab_mem = ktdp.construct_memory_view %table, sizes: [{0}, {1}], "
                      "strides: [{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      t, d, box(t, d), type);
  os << llvm::formatv("    %ids_mem = ktdp.construct_memory_view %ids, sizes: [{0}], strides: "
                      "[1] {{\n        coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + {1} "
                      ">= 0)>, memory_space = #ktdp.memory_space<global>\n    } : "
                      "memref<{0}xi32>\n",
                      n, n - 1);
  os << llvm::formatv("    %g_at = ktdp.construct_indirect_access_tile intermediate_variables(%i, "
                      "%j)\n        %tab_mem[ind(%ids_mem[%base + %i]), (%j)] {{\n"
                      "          variables_space_set = {0}, variables_space_order = #lex\n"
                      "        } : memref<{1}x{2}x{3}>, memref<{4}xi32> -> "
                      "!ktdp.access_tile<{5}x{2}xindex>\n",
                      box(rows, d), t, d, type, n, rows);
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
  StringRef stored = "%rows";
  bool isInt = type.starts_with("i");
  if (accumulate) {
    // The table's rows the indices name, read through the same tile,
    // plus the block's.
    os << llvm::formatv("    %old = ktdp.load %g_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                        "tensor<{0}x{1}x{2}>\n",
                        rows, d, type);
    os << llvm::formatv("    %moved = {0} %old, %rows : tensor<{1}x{2}x{3}>\n",
                        isInt ? "arith.addi" : "arith.addf", rows, d, type);
    stored = "%moved";
  } else if (!spec.op.empty()) {
    std::string op = (spec.op == "add" ? "arith.add" : "arith.mul") + std::string(isInt ? "i" : "f");
    os << llvm::formatv("    %moved = {0} %rows, %rows : tensor<{1}x{2}x{3}>\n", op, rows, d,
                        type);
    stored = "%moved";
  }
  os << llvm::formatv("    ktdp.store {4}, {3} : tensor<{0}x{1}x{2}>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      rows, d, type, to, stored);
  os << "    return\n  }\n}\n";
  return s;
}

std::string gen::gatherKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  return indirectRowsKernel({n, n, d, type.str(), tiles, /*scatter=*/false, "", ""});
}

std::string gen::scatterKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  return indirectRowsKernel({n, n, d, type.str(), tiles, /*scatter=*/true, "", ""});
}

std::string gen::scatterAddKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  return indirectRowsKernel({n, n, d, type.str(), tiles, /*scatter=*/true, "accumulate", ""});
}

gen::IndirectRowsSpec gen::randomIndirectRows(uint64_t seed, int64_t maxTiles) {
  std::mt19937_64 rng(seed * 0x2545f4914f6cdd1dull + 0x1b873593ull);
  auto pick = [&](int64_t lo, int64_t hi) { // inclusive
    return lo + int64_t(rng() % uint64_t(hi - lo + 1));
  };
  IndirectRowsSpec spec;
  spec.scatter = pick(0, 2) == 0;
  int64_t type = pick(0, 19);
  spec.type = type < 10 ? "f16" : type < 17 ? "f32" : "i32";
  spec.tiles = pick(1, std::max<int64_t>(1, maxTiles));
  spec.rows = spec.tiles * pick(1, 12);
  // Whole vectors and DMA units (multiples of 64 elements) half the time,
  // any length otherwise.
  spec.cols = pick(0, 1) ? 64 * pick(1, 8) : pick(1, 300);
  spec.tableRows = spec.scatter ? spec.rows + pick(0, 16) : pick(1, 2 * spec.rows + 16);
  int64_t op = pick(0, 5);
  // A scatter's third op adds its rows into the table's (a scatter-add).
  spec.op = op == 0 ? "add" : op == 1 ? "mul" : op == 2 && spec.scatter ? "accumulate" : "";
  spec.origin = "ktflow fuzz --gathers --seed " + std::to_string(seed) + ": " +
                describeIndirectRows(spec);
  return spec;
}

std::vector<gen::IndirectRowsSpec> gen::shrinkIndirectRows(const IndirectRowsSpec &spec) {
  std::vector<IndirectRowsSpec> out;
  auto add = [&](IndirectRowsSpec s) {
    s.origin = "reduced by ktflow fuzz: " + describeIndirectRows(s);
    out.push_back(std::move(s));
  };
  if (!spec.op.empty()) {
    IndirectRowsSpec s = spec;
    s.op.clear();
    add(s);
  }
  if (spec.tiles > 1) {
    IndirectRowsSpec s = spec;
    s.rows = spec.rows / spec.tiles;
    s.tiles = 1;
    s.tableRows = std::max(s.scatter ? s.rows : 1, std::min(spec.tableRows, 2 * s.rows + 16));
    add(s);
  }
  if (spec.rows / spec.tiles > 1) {
    IndirectRowsSpec s = spec;
    s.rows = spec.tiles * std::max<int64_t>(1, spec.rows / spec.tiles / 2);
    s.tableRows = std::max(s.scatter ? s.rows : 1, std::min(spec.tableRows, 2 * s.rows + 16));
    add(s);
  }
  if (spec.tableRows > (spec.scatter ? spec.rows : 1)) {
    IndirectRowsSpec s = spec;
    s.tableRows = std::max(spec.scatter ? spec.rows : 1, spec.tableRows / 2);
    add(s);
  }
  if (spec.cols > 1) {
    IndirectRowsSpec s = spec;
    s.cols = spec.cols / 2;
    add(s);
  }
  if (spec.type != "f16") {
    IndirectRowsSpec s = spec;
    s.type = "f16";
    add(s);
  }
  return out;
}

std::vector<int32_t> gen::indirectRowIds(const IndirectRowsSpec &spec, uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + uint64_t(spec.tableRows) * 31 +
                      uint64_t(spec.rows));
  std::vector<int32_t> ids(size_t(spec.rows));
  if (!spec.scatter) {
    for (int32_t &id : ids)
      id = int32_t(rng() % uint64_t(spec.tableRows));
    return ids;
  }
  std::vector<int32_t> all(size_t(spec.tableRows));
  std::iota(all.begin(), all.end(), 0);
  for (size_t i = all.size(); i > 1; --i)
    std::swap(all[i - 1], all[size_t(rng() % i)]);
  std::copy_n(all.begin(), ids.size(), ids.begin());
  return ids;
}

std::string gen::describeIndirectRows(const IndirectRowsSpec &spec) {
  return llvm::formatv("{0} {1} of {2} rows x {3} {4}, {5} tile{6}{7}{8}",
                       spec.scatter ? "scatter" : "gather", spec.rows, spec.tableRows, spec.cols,
                       spec.type, spec.tiles, spec.tiles == 1 ? "" : "s",
                       spec.op.empty() ? "" : ", ", spec.op)
      .str();
}
