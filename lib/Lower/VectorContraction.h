//===- VectorContraction.h - a contraction on a vector unit -----*- C++ -*-===//
//
// Internal to lib/Lower: lowering one ktsched.contraction whose schedule
// chose `compute = vector` into unit programs, one bundle per round of
// grid tiles. VectorContraction.cpp says how.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_VECTORCONTRACTION_H
#define KTFLOW_LIB_LOWER_VECTORCONTRACTION_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// Lowers `op` into bundles `newBundle` creates (one per round of grid
/// tiles), declaring its kernel symbols in `out` and `symbols`.
mlir::LogicalResult lowerVectorContraction(const arch::ArchModel &model, ks::KernelOp kernel,
                                           ks::ContractionOp op, LoweredKernel &out,
                                           KernelSymbols &symbols,
                                           llvm::function_ref<ktunit::BundleOp()> newBundle);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_VECTORCONTRACTION_H
