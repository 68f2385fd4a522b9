//===- MatmulKernel.cpp - the benchmark suite's matmul kernels ------------===//
//
// Example 10's form at any size: grid tile (gm, gn) computes the output
// block C[bm * gm : +bm, bn * gn : +bn] over a K loop of kMatmulKBlock-wide
// blocks whose iter_arg accumulates the f32 products; the result is cast
// to f16 and stored.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/MatmulKernel.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;

std::array<int64_t, 2> gen::matmulGrid(int64_t tiles) {
  int64_t cols = 1;
  while (cols * cols * 2 <= tiles && tiles % (cols * 2) == 0)
    cols *= 2;
  return {tiles / cols, cols};
}

std::optional<std::string> gen::matmulProblem(int64_t m, int64_t n, int64_t k, int64_t tiles) {
  if (m < 1 || n < 1 || k < 1 || tiles < 1)
    return std::string("sizes and grid must be positive");
  auto [gm, gn] = matmulGrid(tiles);
  if (m % gm || n % gn)
    return llvm::formatv("a {0}x{1} grid of output blocks does not divide {2}x{3}", gm, gn, m, n)
        .str();
  if (k % kMatmulKBlock)
    return llvm::formatv("K = {0} is not a multiple of the K block {1}", k, kMatmulKBlock).str();
  return std::nullopt;
}

/// `affine_set` of the box [0, rows) x [0, cols).
static std::string box(int64_t rows, int64_t cols) {
  return llvm::formatv("affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
                       rows - 1, cols - 1)
      .str();
}

std::string gen::matmulKernel(int64_t m, int64_t n, int64_t k, int64_t tiles) {
  auto [gm, gn] = matmulGrid(tiles);
  int64_t bm = m / gm, bn = n / gn, bk = kMatmulKBlock;
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("// ktflow gen --kernel matmul --shape {0}x{1}x{2} --grid {3}\n"
                      "// C = A @ B: f16 A {0}x{2}, B {2}x{1}, products summed in f32, C f16;\n"
                      "// grid {4}x{5} of {6}x{7} output blocks, K loop of {8}-wide blocks.\n",
                      m, n, k, tiles, gm, gn, bm, bn, bk);
  os << "#lex = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  os << llvm::formatv("  func.func @matmul_{0}x{1}x{2}(%A: index, %B: index, %C: index) "
                      "attributes {{grid = [{3}, {4}]} {{\n",
                      m, n, k, gm, gn);
  os << "    %c0 = arith.constant 0 : index\n";
  os << llvm::formatv("    %cbm = arith.constant {0} : index\n", bm);
  os << llvm::formatv("    %cbn = arith.constant {0} : index\n", bn);
  os << llvm::formatv("    %cbk = arith.constant {0} : index\n", bk);
  os << llvm::formatv("    %ck = arith.constant {0} : index\n", k);
  os << "    %gm, %gn = ktdp.get_compute_tile_id : index, index\n";
  os << "    %i0 = arith.muli %gm, %cbm : index\n";
  os << "    %j0 = arith.muli %gn, %cbn : index\n";
  auto view = [&](const char *name, const char *arg, int64_t rows, int64_t cols) {
    os << llvm::formatv("    %{0} = ktdp.construct_memory_view %{1}, sizes: [{2}, {3}], strides: "
                        "[{3}, 1] {{\n"
                        "        coordinate_set = {4}, memory_space = "
                        "#ktdp.memory_space<global>\n"
                        "    } : memref<{2}x{3}xf16>\n",
                        name, arg, rows, cols, box(rows, cols));
  };
  view("a_mem", "A", m, k);
  view("b_mem", "B", k, n);
  view("c_mem", "C", m, n);
  os << llvm::formatv("    %acc0 = arith.constant dense<0.0> : tensor<{0}x{1}xf32>\n", bm, bn);
  os << llvm::formatv("    %acc = scf.for %k0 = %c0 to %ck step %cbk\n"
                      "        iter_args(%part = %acc0) -> (tensor<{0}x{1}xf32>) {{\n",
                      bm, bn);
  auto tile = [&](const char *name, const char *mem, const char *at, int64_t rows, int64_t cols,
                  int64_t vr, int64_t vc, llvm::StringRef indent) {
    os << llvm::formatv("{8}%{0} = ktdp.construct_access_tile %{1}[{2}] {{\n"
                        "{8}    access_tile_set = {3}, access_tile_order = #lex\n"
                        "{8}} : memref<{4}x{5}xf16> -> !ktdp.access_tile<{6}x{7}xindex>\n",
                        name, mem, at, box(rows, cols), vr, vc, rows, cols, indent);
  };
  tile("a_at", "a_mem", "%i0, %k0", bm, bk, m, k, "      ");
  tile("b_at", "b_mem", "%k0, %j0", bk, bn, k, n, "      ");
  os << llvm::formatv("      %a_t = ktdp.load %a_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}xf16>\n",
                      bm, bk);
  os << llvm::formatv("      %b_t = ktdp.load %b_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}xf16>\n",
                      bk, bn);
  os << llvm::formatv("      %upd = linalg.matmul ins(%a_t, %b_t : tensor<{0}x{2}xf16>, "
                      "tensor<{2}x{1}xf16>)\n"
                      "                           outs(%part : tensor<{0}x{1}xf32>) -> "
                      "tensor<{0}x{1}xf32>\n"
                      "      scf.yield %upd : tensor<{0}x{1}xf32>\n"
                      "    }\n",
                      bm, bn, bk);
  os << llvm::formatv("    %h = arith.truncf %acc : tensor<{0}x{1}xf32> to tensor<{0}x{1}xf16>\n",
                      bm, bn);
  tile("c_at", "c_mem", "%i0, %j0", bm, bn, m, n, "    ");
  os << llvm::formatv("    ktdp.store %h, %c_at : tensor<{0}x{1}xf16>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      bm, bn);
  os << "    return\n  }\n}\n";
  return s;
}
