//===- GatherKernel.cpp - the benchmark suite's gather kernels ------------===//
//
// Example 16's form at any size: grid tile t reads its run of the index
// vector through the `ind(...)` subscript of an indirect access tile over
// the table, `%base + %i` with `%base = t * rows`, and stores the rows it
// gathered into its block of the output.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/GatherKernel.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;

std::optional<std::string> gen::gatherProblem(int64_t n, int64_t d, int64_t tiles) {
  if (n < 1 || d < 1 || tiles < 1)
    return std::string("sizes and grid must be positive");
  if (n % tiles)
    return llvm::formatv("{0} tiles do not divide {1} rows", tiles, n).str();
  return std::nullopt;
}

std::string gen::gatherKernel(int64_t n, int64_t d, llvm::StringRef type, int64_t tiles) {
  int64_t rows = n / tiles;
  auto box = [](int64_t r, int64_t c) {
    return llvm::formatv(
               "affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
               r - 1, c - 1)
        .str();
  };
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("// ktflow gen --kernel gather --shape {0}x{1} --dtype {2} --grid {3}\n"
                      "// out[r, :] = table[ids[r], :]: {2} table and out {0}x{1}, i32 ids[{0}]; "
                      "grid {3}, {4} rows per tile.\n",
                      n, d, type, tiles, rows);
  os << "#lex = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  os << llvm::formatv("  func.func @gather_{0}x{1}_{2}(%table: index, %ids: index, %out: index) "
                      "attributes {{grid = [{3}]} {{\n",
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
  os << llvm::formatv("    %rows = ktdp.load %g_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}x{2}>\n",
                      rows, d, type);
  os << llvm::formatv("    %out_mem = ktdp.construct_memory_view %out, sizes: [{0}, {1}], "
                      "strides: [{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      n, d, box(n, d), type);
  os << llvm::formatv("    %o_at = ktdp.construct_access_tile %out_mem[%base, %c0] {{\n"
                      "        access_tile_set = {0}, access_tile_order = #lex\n"
                      "    } : memref<{1}x{2}x{3}> -> !ktdp.access_tile<{4}x{2}xindex>\n",
                      box(rows, d), n, d, type, rows);
  os << llvm::formatv("    ktdp.store %rows, %o_at : tensor<{0}x{1}x{2}>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      rows, d, type);
  os << "    return\n  }\n}\n";
  return s;
}
