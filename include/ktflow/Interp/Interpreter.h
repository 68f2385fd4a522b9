//===- Interpreter.h - the KTIR reference interpreter -----------*- C++ -*-===//
//
// Launches a KTIR kernel: binds its arguments (buffers in global memory,
// scalars, runtime arguments), runs the body once per grid tile (tiles one
// after another in linear-id order, ktir.md §1.3, §2.4) and keeps global
// memory for the caller to read back. Errors are reported as MLIR
// diagnostics at the op location, naming the tile; nothing a user writes
// aborts the process.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_INTERPRETER_H
#define KTFLOW_INTERP_INTERPRETER_H

#include "ktflow/Interp/Memory.h"
#include "ktflow/Interp/Value.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SourceMgr.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class AsmParserState;
} // namespace mlir

namespace ktflow::interp {

struct LaunchState;

struct InterpOptions {
  /// Kernel to launch; empty selects the module's only function.
  std::string funcName;
  /// `NAME=FILE.npy` or `NAME=VALUE` bindings.
  std::vector<std::string> args;
  /// Seed for the random contents of unbound buffers.
  uint64_t seed = 0;
  /// Capacity of each tile's scratchpad. Without an architecture
  /// description, 2 MiB (Spyre's LX, so kernels written for it run); with
  /// one, the usable bytes of the memory backing `ct_local`
  /// (ArchModel::ctLocalMemory), so the interpreter rejects what that device
  /// cannot hold.
  Bytes scratchpadCapacity = Bytes(2 << 20);
  /// Where `scratchpadCapacity` comes from, for the message of an access
  /// beyond it.
  std::string scratchpadSource = "the default without an architecture";
  /// Report reads and writes of the same global bytes by different tiles.
  bool checkRaces = false;
  /// Grid used when the kernel has no `grid` attribute.
  std::optional<std::vector<int64_t>> grid;
  /// Bind the arguments (fill the buffers) but run no tile: what `ktflow
  /// run` needs to hand the simulator the exact inputs the interpreter sees.
  bool bindOnly = false;
};

/// How a kernel argument was bound.
struct ArgumentBinding {
  std::string name;
  enum class Kind { Buffer, Scalar, RuntimeArg } kind = Kind::Scalar;
  /// For buffers: the buffer in global memory.
  Buffer *buffer = nullptr;
  /// For buffers: where the contents came from ("file.npy" or "random").
  std::string source;
  /// For scalars: the value as text.
  std::string value;
};

/// Names of block arguments as written in the source (without '%'),
/// recovered from the parser's state.
using SourceNames = llvm::DenseMap<mlir::Value, std::string>;
SourceNames collectSourceNames(const mlir::AsmParserState &state);

class Interpreter {
public:
  Interpreter(mlir::ModuleOp module, InterpOptions options,
              SourceNames names = SourceNames());
  ~Interpreter();

  /// Binds arguments and runs every tile. Emits diagnostics on failure.
  mlir::LogicalResult run();

  /// Writes every buffer as DIR/NAME.npy.
  mlir::LogicalResult writeBuffers(llvm::StringRef dir);
  /// Prints a buffer's values, one line per innermost row. Fails when no
  /// buffer has that name.
  mlir::LogicalResult printBuffer(llvm::StringRef name, llvm::raw_ostream &os) const;
  /// A short report: grid, buffers (address, shape, source, written).
  void printSummary(llvm::raw_ostream &os) const;

  GlobalMemory &memory();
  const std::vector<ArgumentBinding> &bindings() const { return argBindings; }

private:
  mlir::LogicalResult bindArguments(mlir::func::FuncOp kernel);

  mlir::ModuleOp module;
  InterpOptions options;
  SourceNames names;
  std::unique_ptr<LaunchState> state;
  std::vector<ArgumentBinding> argBindings;
  /// Buffers at constant addresses (named addrN, N the element address).
  std::vector<ArgumentBinding> fixedBindings;
  /// Launch values of the kernel arguments (buffers pass their address).
  std::vector<Scalar> argValues;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::string kernelName;
};

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_INTERPRETER_H
