//===- TransposeCompute.h - a transpose relayed by a vector unit -*- C++ -*-===//
//
// Internal to lib/Lower: lowering one ktsched.transpose (its decisions made
// by ktsched-schedule-transpose) into unit programs, one bundle per round
// of grid tiles and lane class. TransposeCompute.cpp says how.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_TRANSPOSECOMPUTE_H
#define KTFLOW_LIB_LOWER_TRANSPOSECOMPUTE_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// Lowers `op` into bundles `newBundle` creates, declaring its kernel
/// symbols in `out` and `symbols`.
mlir::LogicalResult lowerTranspose(const arch::ArchModel &model, ks::KernelOp kernel,
                                   ks::TransposeOp op, LoweredKernel &out,
                                   KernelSymbols &symbols,
                                   llvm::function_ref<ktunit::BundleOp()> newBundle);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_TRANSPOSECOMPUTE_H
