//===- TransposeKernel.cpp - the benchmark suite's transpose kernels ------===//
//
// Example 14's form at any size: grid tile (a, b) loads the source block
// X[bm * a : +bm, bn * b : +bn] through an access tile ordered (d1, d0),
// so the loaded tensor is its bn x bm transpose, and stores it as
// Y[bn * b : +bn, bm * a : +bm] through an identity-ordered tile.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/TransposeKernel.h"
#include "ktflow/Gen/MatmulKernel.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;

std::array<int64_t, 2> gen::transposeGrid(int64_t tiles) { return matmulGrid(tiles); }

std::optional<std::string> gen::transposeProblem(int64_t m, int64_t n, int64_t tiles) {
  if (m < 1 || n < 1 || tiles < 1)
    return std::string("sizes and grid must be positive");
  auto [ga, gb] = transposeGrid(tiles);
  if (m % ga || n % gb)
    return llvm::formatv("a {0}x{1} grid of blocks does not divide {2}x{3}", ga, gb, m, n).str();
  return std::nullopt;
}

/// `affine_set` of the box [0, rows) x [0, cols).
static std::string box(int64_t rows, int64_t cols) {
  return llvm::formatv("affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
                       rows - 1, cols - 1)
      .str();
}

std::string gen::transposeKernel(int64_t m, int64_t n, llvm::StringRef type, int64_t tiles) {
  auto [ga, gb] = transposeGrid(tiles);
  int64_t bm = m / ga, bn = n / gb;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("// ktflow gen --kernel transpose --shape {0}x{1} --dtype {2} --grid {3}\n"
                      "// Y = transpose(X): {2} X {0}x{1}, Y {1}x{0}; grid {4}x{5} of {6}x{7} "
                      "source blocks,\n// each loaded in (d1, d0) order and stored transposed.\n",
                      m, n, type, tiles, ga, gb, bm, bn);
  os << "#swap = affine_map<(d0, d1) -> (d1, d0)>\n";
  os << "#keep = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  os << llvm::formatv("  func.func @transpose_{0}x{1}_{2}(%X: index, %Y: index) "
                      "attributes {{grid = [{3}, {4}]} {{\n",
                      m, n, type, ga, gb);
  os << llvm::formatv("    %cbm = arith.constant {0} : index\n", bm);
  os << llvm::formatv("    %cbn = arith.constant {0} : index\n", bn);
  os << "    %a, %b = ktdp.get_compute_tile_id : index, index\n";
  os << "    %r0 = arith.muli %a, %cbm : index\n";
  os << "    %c0 = arith.muli %b, %cbn : index\n";
  os << llvm::formatv("    %x_mem = ktdp.construct_memory_view %X, sizes: [{0}, {1}], strides: "
                      "[{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      m, n, box(m, n), type);
  os << llvm::formatv("    %y_mem = ktdp.construct_memory_view %Y, sizes: [{0}, {1}], strides: "
                      "[{1}, 1] {{\n        coordinate_set = {2}, memory_space = "
                      "#ktdp.memory_space<global>\n    } : memref<{0}x{1}x{3}>\n",
                      n, m, box(n, m), type);
  os << llvm::formatv("    %x_at = ktdp.construct_access_tile %x_mem[%r0, %c0] {{\n"
                      "        access_tile_set = {0}, access_tile_order = #swap\n"
                      "    } : memref<{1}x{2}x{3}> -> !ktdp.access_tile<{4}x{5}xindex>\n",
                      box(bm, bn), m, n, type, bn, bm);
  os << llvm::formatv("    %blk = ktdp.load %x_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}x{2}>\n",
                      bn, bm, type);
  os << llvm::formatv("    %y_at = ktdp.construct_access_tile %y_mem[%c0, %r0] {{\n"
                      "        access_tile_set = {0}, access_tile_order = #keep\n"
                      "    } : memref<{1}x{2}x{3}> -> !ktdp.access_tile<{4}x{5}xindex>\n",
                      box(bn, bm), n, m, type, bn, bm);
  os << llvm::formatv("    ktdp.store %blk, %y_at : tensor<{0}x{1}x{2}>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      bn, bm, type);
  os << "    return\n  }\n}\n";
  return s;
}
