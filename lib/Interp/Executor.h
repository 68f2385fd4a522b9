//===- Executor.h - one tile's execution of a kernel ------------*- C++ -*-===//
//
// Private to lib/Interp. A TileExecutor runs the kernel body for one grid
// point: it walks the ops in program order, keeps an SSA environment of
// run-time values and dispatches each op to the evaluator of its dialect
// (one file per dialect family). Run-time errors are thrown as InterpError
// and turned into diagnostics, with the current op's location and the tile,
// by the launcher; they never escape lib/Interp.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_INTERP_EXECUTOR_H
#define KTFLOW_LIB_INTERP_EXECUTOR_H

#include "ktflow/Interp/Elementwise.h"
#include "ktflow/Interp/Memory.h"
#include "ktflow/Interp/Views.h"
#include "TileScheduler.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <variant>

namespace ktflow::interp {

/// A run-time value: nothing, a scalar, a tensor, a view or an access tile.
using RtValue = std::variant<std::monostate, Scalar, TensorPtr, ViewPtr, TilePtr>;

/// State shared by all tiles of one launch.
struct LaunchState {
  GlobalMemory global;
  Scratchpads pads;
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// arith.constant values, built once per op (they are immutable).
  llvm::DenseMap<mlir::Operation *, RtValue> constants;

  /// Inter-tile ops: the cooperative scheduler (null when the kernel has no
  /// inter-tile ops), and per produce-op instance the tiles that executed it
  /// and the partials of those in a producer group.
  TileScheduler *scheduler = nullptr;
  TileScheduler::PerInstance<std::set<int64_t>> produced;
  TileScheduler::PerInstance<std::map<int64_t, llvm::SmallVector<RtValue, 2>>> partials;

  LaunchState(int64_t numTiles, Bytes padCapacity, std::string padSource)
      : pads(numTiles, padCapacity, std::move(padSource)) {}
};

class TileExecutor {
public:
  TileExecutor(LaunchState &launch, int64_t linearId,
               std::array<int64_t, 3> coords);

  /// Runs `body` (the kernel's entry block) with `args` bound to its
  /// arguments.
  void run(mlir::Block &body, llvm::ArrayRef<RtValue> args);

  /// The op being executed (for diagnostics).
  mlir::Operation *currentOp() const { return current; }
  int64_t linearId() const { return tileId; }
  std::array<int64_t, 3> coords() const { return tileCoords; }

  /// Runs a block with `args` bound and returns the terminator's operands.
  llvm::SmallVector<RtValue, 4> runBlock(mlir::Block &block,
                                         llvm::ArrayRef<RtValue> args);

  // Environment.
  const RtValue &get(mlir::Value v);
  void set(mlir::Value v, RtValue value) { env[v] = std::move(value); }
  Scalar scalar(mlir::Value v);
  int64_t index(mlir::Value v) { return scalar(v).i; }
  TensorPtr tensor(mlir::Value v);
  [[noreturn]] void fail(const llvm::Twine &message);

  LaunchState &launch;
  /// Iteration indices of the linalg op whose body is running (linalg.index).
  llvm::SmallVector<int64_t, 4> linalgLoopIndex;

private:
  void runLinalgGeneric(mlir::Operation *op);
  void exec(mlir::Operation *op);
  bool execArith(mlir::Operation *op);
  bool execMath(mlir::Operation *op);
  bool execSCF(mlir::Operation *op);
  bool execLinalg(mlir::Operation *op);
  bool execTensor(mlir::Operation *op);
  bool execKTDP(mlir::Operation *op);
  bool execInterTile(mlir::Operation *op);

  /// How often this tile has executed each inter_tile_produce op.
  llvm::DenseMap<mlir::Operation *, int64_t> produceCount;

  int64_t tileId;
  std::array<int64_t, 3> tileCoords;
  mlir::Operation *current = nullptr;
  llvm::DenseMap<mlir::Value, RtValue> env;
};

/// Element kind of a scalar or shaped type; throws for unsupported types.
ElemKind elemKindOf(mlir::Type type);
/// A tensor type's shape with dynamic sizes taken from `dynamicSizes`.
llvm::SmallVector<int64_t, 4> resolveShape(mlir::Type type,
                                           llvm::ArrayRef<int64_t> dynamicSizes);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERP_EXECUTOR_H
