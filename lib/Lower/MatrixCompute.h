//===- MatrixCompute.h - a contraction onto a matrix unit ------*- C++ -*-===//
//
// Internal to lib/Lower: lowering one ktsched.contraction (its decisions
// made by ktsched-schedule-contraction) into unit programs, one bundle per
// round of grid tiles. MatrixCompute.cpp says how.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_MATRIXCOMPUTE_H
#define KTFLOW_LIB_LOWER_MATRIXCOMPUTE_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// Lowers `op` into bundles `newBundle` creates (one per round of grid
/// tiles), declaring its kernel symbols in `out` and `symbols`.
mlir::LogicalResult lowerContraction(const arch::ArchModel &model, ks::KernelOp kernel,
                                     ks::ContractionOp op, LoweredKernel &out,
                                     KernelSymbols &symbols,
                                     llvm::function_ref<ktunit::BundleOp()> newBundle);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_MATRIXCOMPUTE_H
