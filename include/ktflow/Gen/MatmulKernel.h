//===- MatmulKernel.h - the benchmark suite's matmul kernels ----*- C++ -*-===//
//
// `ktflow gen --kernel matmul`: C = A @ B with f16 A (M x K) and B (K x N),
// row-major, the products summed in f32 and C stored in f16, in example
// 10's form: a 2-D grid of output blocks and a K loop whose iter_arg
// accumulates linalg.matmul of K blocks. `matmul-bias-gelu` and
// `matmul-silu-mul` add example 20's epilogue between the K loop and the
// store (element-wise on the f32 sums, with one loaded 1 x N row broadcast
// along M). Not a KernelSpec (the random generator's form has no
// contraction), printed as text; `randomMatmul` draws small ones for
// `ktflow fuzz --matmul`.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_MATMULKERNEL_H
#define KTFLOW_GEN_MATMULKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::gen {

/// The K extent one loop iteration of a generated matmul takes by default.
constexpr int64_t kMatmulKBlock = 64;

/// What runs on the f32 sums before the cast and store.
enum class MatmulEpilogue {
  /// The sums cast to f16 (example 10).
  None,
  /// gelu(h + bias) in the tanh form, bias a 1 x N f16 row (example 20).
  BiasGelu,
  /// silu(h) * g = h / (1 + exp(-h)) * g, g a 1 x N f16 row: the gated
  /// activation of a SwiGLU MLP with its multiplier per column (a whole
  /// M x N multiplier is outside the contraction epilogue's operands).
  SiluMul,
  /// A random chain of element-wise steps (MatmulSpec::steps), drawn by
  /// randomMatmul; not a `--kernel` name.
  Random,
};

/// One step of a random epilogue: `v = op(v, other)` on the previous value
/// v (the sums at first), or `v = op(v)`.
struct MatmulEpilogueStep {
  /// The op's name: arith.addf, arith.subf, arith.mulf, arith.divf,
  /// arith.maximumf, arith.minimumf, arith.negf, math.absf, math.exp,
  /// math.tanh, math.erf, math.sqrt (of |v|: two ops), or "round-f16" (a
  /// truncf to f16 and an extf back).
  std::string op;
  /// The other operand of a binary step: 'a' the sums, 'r' the 1 x N row,
  /// 'c' a splat constant, 'v' the value itself; 0 for a unary step.
  char other = 0;
  double constant = 0;
};

/// The kernel name of an epilogue: "matmul", "matmul-bias-gelu",
/// "matmul-silu-mul".
llvm::StringRef matmulKindName(MatmulEpilogue epilogue);
/// The epilogue of a kernel name, or none.
std::optional<MatmulEpilogue> parseMatmulKind(llvm::StringRef name);

/// One generated matmul: sizes, grid, K block and epilogue.
struct MatmulSpec {
  int64_t m = 0, n = 0, k = 0;
  /// Grid tiles (matmulGrid lays them out).
  int64_t tiles = 1;
  /// The K extent of one loop iteration (k / kBlock trips).
  int64_t kBlock = kMatmulKBlock;
  MatmulEpilogue epilogue = MatmulEpilogue::None;
  /// The result stored in f32 instead of cast to f16.
  bool storeF32 = false;
  /// The accumulator's initial value (a splat constant).
  double init = 0.0;
  /// The steps of a Random epilogue.
  std::vector<MatmulEpilogueStep> steps;
  /// Where the spec came from, printed in the kernel's header.
  std::string origin;
};

/// The grid of output blocks of a `tiles`-tile matmul: [rows of blocks,
/// columns of blocks], columns up to twice the rows (1 -> 1x1, 8 -> 2x4,
/// 32 -> 4x8).
std::array<int64_t, 2> matmulGrid(int64_t tiles);

/// Why the spec cannot be generated (the grid must divide M and N, the K
/// block divide K), or none.
std::optional<std::string> matmulProblem(const MatmulSpec &spec);
inline std::optional<std::string> matmulProblem(int64_t m, int64_t n, int64_t k, int64_t tiles) {
  return matmulProblem(MatmulSpec{m, n, k, tiles});
}

/// The kernel's text (call matmulProblem first).
std::string matmulKernel(const MatmulSpec &spec);
inline std::string matmulKernel(int64_t m, int64_t n, int64_t k, int64_t tiles) {
  return matmulKernel(MatmulSpec{m, n, k, tiles});
}

/// The `ktflow gen` command line that writes `spec`.
std::string matmulCommand(const MatmulSpec &spec);

struct RandomMatmulOptions {
  /// Upper bound on the grid tiles.
  int64_t maxTiles = 2;
};

/// A small matmul drawn from `seed` (same seed, same kernel everywhere):
/// M, N and the K block (64 or 128) from sizes whose rows the shipped
/// descriptions' accesses move whole, one to four K steps, any epilogue,
/// f16 or f32 result.
MatmulSpec randomMatmul(uint64_t seed, const RandomMatmulOptions &options);

/// Smaller specs of the same kind (fewer tiles, K steps, rows, columns,
/// epilogue steps; no epilogue), each still generable, for reducing a
/// failing kernel.
std::vector<MatmulSpec> shrinkMatmul(const MatmulSpec &spec);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_MATMULKERNEL_H
