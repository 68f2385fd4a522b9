//===- MatrixLowering.h - the state of one contraction's lowering -*- C++ -*-===//
//
// Internal to lib/Lower: the decisions of one ktsched.contraction, read and
// checked once (MatrixCompute.cpp, collect) and followed by the emission of
// each round of grid tiles (MatrixRound.cpp, emitRound).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_MATRIXLOWERING_H
#define KTFLOW_LIB_LOWER_MATRIXLOWERING_H

#include "GroupLowering.h"
#include "TileOperand.h"

#include <map>
#include <string>

namespace ktflow::lower::detail {

/// A transfer of the contraction resolved against its tensor.
using Operand = TileOperand;

class MatrixLowering {
public:
  MatrixLowering(const arch::ArchModel &model, ks::KernelOp kernel, ks::ContractionOp op,
                      LoweredKernel &out, KernelSymbols &symbols)
      : model(model), kernel(kernel), op(op), out(out), symbols(symbols) {}

  mlir::LogicalResult collect();
  mlir::LogicalResult emitRound(ktunit::BundleOp bundle, llvm::ArrayRef<int64_t> tiles);
  int64_t gridTiles() const { return grid[0] * grid[1] * grid[2]; }
  int64_t cores = 1;

private:
  mlir::FailureOr<Operand> operand(mlir::DictionaryAttr transfer);
  uint32_t symbolOf(const Operand &t, bool isOutput);
  /// Byte offset of the operand's tile of grid tile `tile` from its symbol.
  int64_t tileOffset(const Operand &t, int64_t tile) const;
  /// With `block_buffers = 2`: the step's shape admits the overlapped relay.
  mlir::LogicalResult checkOverlap();
  mlir::Attribute decision(llvm::StringRef name) { return ktflow::lower::detail::decisionValue(op, name); }

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::ContractionOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  llvm::SmallVector<int64_t> grid;
  Operand a, b, c;
  dc::ElemType accType = dc::ElemType::F32;
  int64_t accBytes = 4;
  int64_t m = 0, n = 0, k = 0, bm = 0, bn = 0, bk = 0;
  /// The step (panel M x N, K depth), its operand rows' ring slots and how
  /// the accumulator travels between K steps (`carry`).
  int64_t tm = 0, tn = 0, tk = 0, buffers = 1;
  /// The operand blocks' ring slots: with 2, the vector unit relays the
  /// next K step's rows into blocks while the matrix unit works on this
  /// step's (`block_buffers`).
  int64_t blockBuffers = 1;
  /// The sub-core instances of a core that share each panel's block rows.
  int64_t split = 1;
  /// The accumulator blocks along N that each A block feeds while it stays
  /// in the matrix unit's registers (their accumulators resident too).
  int64_t reuse = 1;
  std::string carry;
  Bytes slotAlignment{1};
  std::string dmaUnit, ldUnit, stUnit, vecUnit, mxuUnit, memory;
  int64_t unitsPerCore = 1;
  Bytes inAccess, outAccess;
  std::map<std::string, int64_t> region;
  /// The accumulator goes to the epilogue over a FIFO (else through the
  /// store unit, scratchpad and the load unit); the matrix unit presets it
  /// with `vconst` (else it receives the init block).
  bool directAccumulator = false, presetAccumulator = false;
  /// The vector unit sends the init over a FIFO to the matrix unit.
  bool vectorInit = false;
  /// The epilogue body (null: a cast) and its row operands.
  mlir::Block *epilogue = nullptr;
  llvm::SmallVector<Operand> rowOperands;
  /// The epilogue on the block `acc` (accumulator type) of block column
  /// `column`, from the row operands' registers `rows[i][stick]`.
  mlir::FailureOr<ktunit::Reg> emitEpilogue(ktunit::ProgramBuilder &vec, ktunit::Reg acc, int64_t column,
                              llvm::ArrayRef<llvm::SmallVector<ktunit::Reg>> rows);
};

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_MATRIXLOWERING_H
