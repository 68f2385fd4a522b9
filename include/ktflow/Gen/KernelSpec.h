//===- KernelSpec.h - structured description of a generated kernel -*- C++ -*-===//
//
// Generated kernels are built in two steps: a generator (random or bench)
// fills a KernelSpec, and the printer (KernelPrinter.h) writes it as KTIR
// text. The spec is the level at which kernels are chosen, compared and
// later reduced (drop a node, shrink a shape, re-print), so it names only
// decisions — shape, grid, work division, element types, the expression —
// never SSA names or text.
//
// Safety is part of the vocabulary, not left to callers: SafeDiv divides by
// `abs(b) + 1`, SafeExp exponentiates `min(x, 2)`, the square roots and the
// log read `abs(x)` (+ 1 where 0 is a pole) and SafePow raises `abs(a) + 1`
// to `clamp(b, +-2)`, so every spec prints to a kernel whose outputs are
// finite for finite inputs of moderate size.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_KERNELSPEC_H
#define KTFLOW_GEN_KERNELSPEC_H

#include "ktflow/Support/Units.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::gen {

/// I32: integer data (`--ints`), computed with the wrapping arith ops.
enum class ElemType { F16, F32, I32 };
llvm::StringRef elemTypeName(ElemType type);
std::optional<ElemType> parseElemType(llvm::StringRef name);
ElementSize elemSize(ElemType type);

/// How the grid's tiles share the work. `lin` is the linear tile id
/// `gx + GX*gy`; T the number of tiles.
enum class Distribution {
  /// Tile `lin` owns rows [lin*tr, lin*tr + tr), tr = ceil(R/T), all columns
  /// (for rank 1: elements). The last tiles may be partly or fully masked.
  RowBlocks,
  /// Tile `lin` owns columns [lin*tc, lin*tc + tc), tc = ceil(C/T), all rows.
  ColBlocks,
  /// 2-D grid only: tile (gx, gy) owns the block at rows gx*tr, columns gy*tc,
  /// tr = ceil(R/GX), tc = ceil(C/GY).
  Blocks2D,
  /// `scf.for %r = lin to R step T` (no iter_args): one row per iteration.
  RowLoop,
  /// Tile `lin` loops over the rows of its chunk, one per iteration:
  /// `scf.for %r = lin*tr to min(lin*tr + tr, R) step 1` (a clamped bound:
  /// the last tiles run fewer iterations, or none).
  ClampedRowLoop,
};
llvm::StringRef distributionName(Distribution d);

/// What a buffer holds, relative to the kernel's (rows x cols) shape.
enum class BufferShape {
  Full,   ///< rows x cols (rank 2) or cols (rank 1)
  Row,    ///< one row vector [cols], broadcast along dimension 0
  Column, ///< one column vector [rows], broadcast along dimension 1
  Scalar, ///< a single element, broadcast to the whole tile
  /// rows x (2 * cols): each row is two halves of the kernel's columns
  /// (rope's rotate-half: the tile's columns are half a row); a Load or a
  /// Store names the half it reads or writes (`half`). Row blocks only.
  Halves,
};

struct Buffer {
  std::string name;
  ElemType type;
  BufferShape shape;
  bool isOutput;
};

enum class NodeKind {
  Load,     ///< the tile of a Full input buffer
  Broadcast,///< a Row/Column/Scalar input buffer widened to the tile shape
  Constant, ///< a splat constant of the tile shape
  Unary,
  Binary,
  Fma, ///< math.fma a * b + c: three operands, one rounding
  /// Rank 2, reducing dimension 1: the row's sum (`binary` Add) or max
  /// (Max) of its operand, broadcast back over the row (linalg.reduce then
  /// linalg.broadcast): a phase's per-row result read by a later phase.
  RowReduce,
};

enum class UnaryOp {
  Neg,
  Abs,
  Relu,    ///< max(x, 0)
  SafeExp, ///< exp(min(x, 2))
  Clamp,   ///< min(max(x, -value), value)
  SafeSqrt,  ///< sqrt(abs(x))
  SafeRsqrt, ///< rsqrt(abs(x) + 1)
  SafeLog,   ///< log(abs(x) + 1)
  Tanh,
  Erf,
  Exp,   ///< exp(x), for values bounded above (softmax's x - max)
  Rsqrt, ///< rsqrt(x), for positive values (a variance plus an epsilon)
};

enum class BinaryOp {
  Add, Sub, Mul, SafeDiv, Max, Min,
  SafePow, ///< pow(abs(a) + 1, clamp(b, +-2))
  Select,  ///< cmpf `predicate` a, b ? a : b
  Div,     ///< a / b, for divisors away from 0 (a row's sum, a length)
};

/// One value of the tile-shaped expression DAG. All node values have the
/// kernel's compute type; leaves are cast from their buffer type on load.
struct Node {
  NodeKind kind;
  UnaryOp unary = UnaryOp::Neg;
  BinaryOp binary = BinaryOp::Add;
  /// Operand node indices (earlier in KernelSpec::nodes).
  llvm::SmallVector<unsigned, 2> operands;
  /// Load/Broadcast: index into KernelSpec::buffers.
  unsigned buffer = 0;
  /// Constant: the splat value; Clamp: the bound. Printed with two decimals,
  /// so generators choose values exactly representable in f16.
  double value = 0;
  /// Print elementwise binaries as linalg named ops instead of arith ops.
  bool namedOp = false;
  /// Select: the arith.cmpf predicate (olt, ole, ogt, oge, oeq, une).
  std::string predicate = "olt";
  /// Load of a Halves buffer: which half of its rows (0 first, 1 second).
  unsigned half = 0;
};

enum class OutputKind { Store, ReduceSum, ReduceMax, ReduceMin };

struct Output {
  OutputKind kind;
  unsigned node;
  unsigned buffer;
  /// Reductions: print the explicit-region form instead of `{ arith.addf }`.
  bool explicitCombiner = false;
  /// Store into a Halves buffer: which half of its rows.
  unsigned half = 0;
};

struct KernelSpec {
  std::string name = "kernel";
  /// Free text printed in the header comment (how it was generated).
  std::string origin;
  unsigned rank = 2;
  int64_t rows = 1; ///< ignored (1) for rank 1
  int64_t cols = 1;
  llvm::SmallVector<int64_t, 2> grid{1};
  Distribution distribution = Distribution::RowBlocks;
  /// The type the expression computes in; leaves are cast to it after
  /// loading and stored values are cast back to their buffer's type.
  ElemType computeType = ElemType::F16;
  /// Reductions reduce over this dimension of the tile (rank 2 only).
  unsigned reduceDim = 1;
  /// RowLoop: load row and scalar operands once, before the loop.
  bool hoistInvariantLoads = true;
  /// The kernel takes its extents as launch-value arguments `%n_rows` and
  /// `%n_cols` (index), which bound its loops; every run binds them
  /// (launchArgs()).
  bool launchValues = false;
  /// > 0: an inner scf.for walks the tile in blocks of this many elements —
  /// along the reduced dimension, carrying the reductions as iter_args and
  /// storing them after the loop (an accumulation), or, without
  /// reductions, along the columns inside a row loop (nested loops).
  int64_t innerBlock = 0;
  /// An accumulating inner loop whose reductions have one element each
  /// carries them as scalar iter_args (Triton's running sums): each block's
  /// reduction is read by tensor.extract and combined with the scalar,
  /// which tensor.from_elements makes a tensor again for the store.
  bool scalarAccumulator = false;
  std::vector<Buffer> buffers;
  std::vector<Node> nodes;
  std::vector<Output> outputs;

  int64_t numTiles() const;
  /// The per-tile tile shape implied by the distribution (tr, tc).
  int64_t tileRows() const;
  int64_t tileCols() const;
  /// The elements of one tile's reduction result (rank 2 only).
  int64_t reducedLength() const;
  /// ClampedRowLoop: the rows of one tile's chunk, ceil(R/T).
  int64_t chunkRows() const;
  /// The dimension an inner loop walks (innerBlock > 0): the reduced one,
  /// else the columns.
  unsigned walkedDim() const;
  /// `NAME=VALUE` of every launch value the kernel takes (`--arg` of
  /// compile, interp and run).
  std::vector<std::string> launchArgs() const;
  /// Returns an explanation when the spec breaks an invariant the printer
  /// relies on (operand order, buffer roles, distribution vs. reductions).
  std::optional<std::string> validate() const;
};

} // namespace ktflow::gen

#endif // KTFLOW_GEN_KERNELSPEC_H
