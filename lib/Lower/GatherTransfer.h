//===- GatherTransfer.h - a gather moved by the DMA's indexed copy -*- C++ -*-===//
//
// Internal to lib/Lower: lowering one ktsched.gather (its decisions made by
// ktsched-schedule-gather) into DMA programs, one bundle per round of grid
// tiles and class of index spans. GatherTransfer.cpp says how.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_GATHERTRANSFER_H
#define KTFLOW_LIB_LOWER_GATHERTRANSFER_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// Lowers `op` into bundles `newBundle` creates, declaring its kernel
/// symbols in `out` and `symbols`.
mlir::LogicalResult lowerGather(const arch::ArchModel &model, ks::KernelOp kernel,
                                ks::GatherOp op, LoweredKernel &out, KernelSymbols &symbols,
                                llvm::function_ref<ktunit::BundleOp()> newBundle);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_GATHERTRANSFER_H
