//===- ReductionNest.h - vector loop nests of a reducing group --*- C++ -*-===//
//
// Internal to lib/Lower. A compute group whose stores hold reductions
// (`reduce_dims` on the group, `ktsched.vop "reduce"` in the body) is lowered
// like an element-wise group — same programs, buffers and synchronisation —
// except for the order in which vectors are visited and what the compute
// unit does with them. This class owns those loop nests; the caller supplies
// how an input vector is read (recv or vload), how the element-wise part of
// the body is emitted, and how a result vector is written (send or vstore),
// each at a position in the iteration space.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_REDUCTIONNEST_H
#define KTFLOW_LIB_LOWER_REDUCTIONNEST_H

#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Unit/Builder.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <optional>

namespace ktflow::lower {

/// Where the current vector starts along each iteration-space dimension, in
/// elements: a constant plus loop-index terms (loop depth, multiplier).
struct SpacePosition {
  llvm::SmallVector<int64_t, 4> constant;
  llvm::SmallVector<llvm::SmallVector<std::pair<uint32_t, int64_t>, 2>, 4> terms;
  explicit SpacePosition(size_t rank) : constant(rank, 0), terms(rank) {}
};

/// The value of a `const` vector op (float or integer), if `value` is one.
std::optional<double> constantOf(mlir::Value value);
/// The register type of `type`'s elements, if it has one.
std::optional<dc::ElemType> registerTypeOf(mlir::Type type);

/// Opens a counted loop of `count` trips whose index steps `multiplier`
/// elements of `dim` at loop depth `depth` (then one deeper); none for one
/// trip or no dimension. Returns whether it opened one.
bool openNestLoop(ktunit::ProgramBuilder &b, uint32_t &depth, int64_t count, int64_t dim,
                  int64_t multiplier, SpacePosition &pos);
/// Closes what openNestLoop opened.
void closeNestLoop(ktunit::ProgramBuilder &b, uint32_t &depth, bool opened, int64_t dim,
                   SpacePosition &pos);

/// One reduction of the body: the value it folds, its combiner, its init.
struct ReducedOutput {
  mlir::Operation *op = nullptr;
  mlir::Value operand;
  dc::Combiner combiner = dc::Combiner::Add;
  /// The element-wise instruction that folds two partial vectors.
  dc::Opcode combineOp = dc::Opcode::Add;
  /// The init value, or none when it is the combiner's identity (0 for a
  /// sum, -inf for max, +inf for min): folding it in would change nothing.
  std::optional<double> init;
  /// The type it folds in (its value's): a group whose buffers hold two
  /// types may reduce in either, and its collector and init take that type.
  dc::ElemType type = dc::ElemType::F16;
  /// Element-wise ops applied to each result vector before it is written
  /// (a cast to the stored type, a scaling by a constant), in order; each
  /// has the previous value (first: the reduction) and constants as
  /// operands.
  llvm::SmallVector<mlir::Operation *, 2> epilogue;
  ktunit::Reg accumulator = 0, collector = 0, initRegister = 0;
};

class ReductionNest {
public:
  /// Checks the body (`computeStage`'s region) yields only reductions over
  /// `reduceDim` and records them; diagnostics at the offending op. `type`
  /// is the register type of a reduction whose value has none of its own.
  static mlir::FailureOr<ReductionNest> analyze(mlir::Operation *computeStage,
                                                llvm::ArrayRef<int64_t> space,
                                                int64_t reduceDim, int64_t vectorWidth,
                                                dc::ElemType type);

  /// Whether `op` (a body op) is handled here rather than per vector: the
  /// reduce ops, the epilogue ops on their results and the constants that
  /// only feed those.
  static bool isReductionOnly(mlir::Operation *op);
  /// Whether `value` is computed from a reduction's result.
  static bool followsReduction(mlir::Value value);

  /// Rows visited per counted-loop iteration: `period` consecutive rows
  /// emitted one after another (constant positions), so a reader whose work
  /// differs per row within a period (realigning dense rows, RowRealign.cpp)
  /// sees each row's own position: a row reduction's rows, or the reduced
  /// rows of a column reduction (walkPeriodRows). 1: one row per
  /// iteration. A period divides the vector width.
  void setRowPeriod(int64_t period) { rowPeriod = std::max<int64_t>(1, period); }
  /// A column reduction over dense rows (RowRealign.cpp): its rows are read
  /// in memory order, row by row in periods of rows (walkPeriodRows), each
  /// row's vectors in turn into one accumulator per vector, rather than
  /// column vector by column vector.
  void setDenseColumns(bool dense) { denseColumns = dense; }
  /// Whether emitInputOrder visits a period row's last vector on its own
  /// (as emitCompute's fold reads a partial last vector), for inputs that
  /// take fewer accesses there (dense rows of a wider type).
  void setLastVectorApart(bool apart) { lastVectorApart = apart; }

  /// Marks the body arguments not read for every vector: splat scalars
  /// (set once per program) and held column operands (set once per row by
  /// HeldRows::row).
  void setSplatArguments(llvm::ArrayRef<bool> splat) { splatArgs.assign(splat.begin(), splat.end()); }

  /// Column operands (one value per row) held in a register a block of
  /// rows at a time: the caller fetches a block's values once and
  /// broadcasts one per row. The nests then visit the rows of the row
  /// dimension (a row reduction's) or of the reduced one (a column
  /// reduction's) in blocks of `vectorWidth` rows, the last one partial.
  struct HeldRows {
    /// At the start of a block of `rows` rows, at `pos` (its first row).
    llvm::function_ref<mlir::LogicalResult(const SpacePosition &, int64_t rows)> block;
    /// At the start of every row of a block (compute side only).
    llvm::function_ref<void()> row;
  };

  /// Takes virtual registers for accumulators, row collectors, scratch and
  /// inits, and emits the constants a program needs once.
  mlir::LogicalResult allocate(ktunit::ProgramBuilder &vec, mlir::Location loc);

  using ReadFn = llvm::function_ref<mlir::LogicalResult(const SpacePosition &)>;
  using BodyFn =
      llvm::function_ref<mlir::LogicalResult(const llvm::DenseMap<mlir::Value, ktunit::Reg> &)>;
  using WriteFn = llvm::function_ref<void(unsigned, ktunit::Reg, const SpacePosition &)>;
  using VisitFn = llvm::function_ref<void(const SpacePosition &)>;

  /// The compute unit's work on one tile of `extent`. `read` brings every
  /// input of the current vector into `reg` (the caller's register map,
  /// temporarily redirected to accumulators for the first vector of a fold),
  /// `body` emits the element-wise ops with the given fixed result
  /// registers, `write(i, reg, position)` emits result vector i.
  mlir::LogicalResult emitCompute(ktunit::ProgramBuilder &vec, llvm::ArrayRef<int64_t> extent,
                                  llvm::DenseMap<mlir::Value, ktunit::Reg> &reg,
                                  mlir::Block &body, ReadFn read, BodyFn emitBody,
                                  WriteFn write, const HeldRows *held = nullptr);
  /// Visits the input vectors in the order emitCompute consumes them (with
  /// the same `held` blocks: only their `block` is called; with a row
  /// period, each period's rows one by one and each row's first vector
  /// before a loop over the others, as emitCompute reads them).
  mlir::LogicalResult emitInputOrder(ktunit::ProgramBuilder &b, llvm::ArrayRef<int64_t> extent,
                                     VisitFn visit, const HeldRows *held = nullptr);
  /// Visits the result vectors (one per output each) in the order
  /// emitCompute produces them.
  void emitOutputOrder(ktunit::ProgramBuilder &b, llvm::ArrayRef<int64_t> extent, VisitFn visit);

  /// Elements of each result along the dimension its vectors run: a row
  /// reduction's results run along the row dimension (whole vectors, the
  /// last one padded), a column reduction's along the vector dimension.
  int64_t resultElements(llvm::ArrayRef<int64_t> extent) const;
  /// The iteration dimension results run along (-1: a single element).
  int64_t resultDim() const { return rowReduction ? rowDim : rank - 1; }
  bool isRowReduction() const { return rowReduction; }
  int64_t reducedDim() const { return reduceDim; }
  llvm::ArrayRef<ReducedOutput> outputs() const { return reduced; }

private:
  /// Applies `out`'s epilogue to the result vector in `from` (the
  /// accumulator or collector) and returns the register to write.
  ktunit::Reg applyEpilogue(ktunit::ProgramBuilder &vec, const ReducedOutput &out,
                            ktunit::Reg from);
  /// Opens a counted loop when `count` > 1 and records its index on `dim`
  /// with `multiplier`; returns whether a loop was opened.
  bool open(ktunit::ProgramBuilder &b, int64_t count, int64_t dim, int64_t multiplier,
            SpacePosition &pos);
  void close(ktunit::ProgramBuilder &b, bool opened, int64_t dim, SpacePosition &pos);
  /// The rows 0..rows-1 of dimension `dim` in blocks of `vectorWidth` (the
  /// last one partial), `held.block` before each block and `each(first)`
  /// for each row; the first row is its own step (`first` true), as a
  /// fold's first vector is.
  mlir::LogicalResult walkHeldRows(ktunit::ProgramBuilder &b, int64_t rows, int64_t dim,
                                   SpacePosition &pos, const HeldRows &held,
                                   llvm::function_ref<mlir::LogicalResult(bool first)> each);

  /// The rows 0..rows-1 of dimension `dim` as a fold reads them with a row
  /// period: `each(true)` for row 0, each further row of the first period
  /// on its own, a loop over whole periods (each row of a period on its
  /// own), then the remaining rows. With period 1 this is row 0 and one
  /// loop over the others, the plain fold's order.
  mlir::LogicalResult walkPeriodRows(ktunit::ProgramBuilder &b, int64_t rows, int64_t dim,
                                     SpacePosition &pos,
                                     llvm::function_ref<mlir::LogicalResult(bool first)> each);
  /// As walkPeriodRows, the rows in blocks of `vectorWidth` (the last one
  /// partial), `held.block` before each block: the first block's first
  /// period row by row, then in every block a loop over its whole periods
  /// and its remaining rows. The period divides the vector width, so every
  /// block starts a period (dense column folds beside column operands).
  mlir::LogicalResult walkHeldPeriodRows(ktunit::ProgramBuilder &b, int64_t rows, int64_t dim,
                                         SpacePosition &pos, const HeldRows &held,
                                         llvm::function_ref<mlir::LogicalResult(bool first)> each);

  bool readEveryVector(mlir::BlockArgument arg) const {
    return arg.getArgNumber() >= splatArgs.size() || !splatArgs[arg.getArgNumber()];
  }

  llvm::SmallVector<bool, 4> splatArgs;
  int64_t rank = 0, reduceDim = 0, vectorWidth = 0;
  /// Row reductions fold the last dimension; rowDim is the one before it.
  bool rowReduction = true;
  int64_t rowDim = -1;
  dc::ElemType type = dc::ElemType::F16;
  llvm::SmallVector<ReducedOutput, 2> reduced;
  ktunit::Reg scratch = 0;
  uint32_t depth = 0;
  int64_t rowPeriod = 1;
  bool lastVectorApart = false, denseColumns = false;
};

} // namespace ktflow::lower

#endif // KTFLOW_LIB_LOWER_REDUCTIONNEST_H
