//===- KernelAnalysis.h - what the launcher needs to know -------*- C++ -*-===//
//
// Private to lib/Interp. Before running, the launcher finds the global
// memory views of the kernel: their base operands decide which index
// arguments are buffers, and their element types, sizes and strides decide
// each buffer's element type and extent (ktir.md §2.3).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_INTERP_KERNELANALYSIS_H
#define KTFLOW_LIB_INTERP_KERNELANALYSIS_H

#include "ktflow/Interp/Value.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <variant>

namespace ktflow::interp {

/// A static entry (integer) or an SSA entry of a sizes/strides list.
using IndexEntry = std::variant<int64_t, mlir::Value>;

/// One ktdp.construct_memory_view in global memory.
struct GlobalViewSite {
  mlir::Operation *op = nullptr;
  mlir::Value offset;
  ElemKind kind = ElemKind::F16;
  llvm::SmallVector<IndexEntry, 4> sizes, strides;
};

std::vector<GlobalViewSite> findGlobalViews(mlir::func::FuncOp kernel);

/// Runtime-argument type facts, or nothing if `type` is not one.
struct RuntimeArgInfo {
  mlir::Type underlying;
  std::optional<int64_t> granularity, upperbound;
};
std::optional<RuntimeArgInfo> runtimeArgInfo(mlir::Type type);

/// Statically evaluates a ktdp op producing an index from launch values
/// (runtime_arg_extract); nothing if `op` is not such an op.
std::optional<int64_t>
evaluateLaunchTimeKTDP(mlir::Operation *op,
                       llvm::function_ref<std::optional<int64_t>(mlir::Value)> eval);

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERP_KERNELANALYSIS_H
