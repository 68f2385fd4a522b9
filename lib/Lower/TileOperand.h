//===- TileOperand.h - a transfer of a whole-tile group -------*- C++ -*-===//
//
// Internal to lib/Lower: the pieces a lowering of a whole-tile compute op
// (ktsched.transpose; the shape ktsched.contraction's lowering has too)
// needs about one transfer `{tensor, origin, shape}`: resolving it, the
// kernel symbol of its argument, and the byte offset of a grid tile's block.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_TILEOPERAND_H
#define KTFLOW_LIB_LOWER_TILEOPERAND_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// A transfer of a whole-tile op resolved against its tensor.
struct TileOperand {
  mutable ks::TensorOp tensor;
  AffineMap origin;
  SmallVector<int64_t> shape;
  int64_t esize = 2;
  dc::ElemType regType = dc::ElemType::F16;
};

/// Resolves `transfer` of `op` in `kernel`, or emits at `op`.
FailureOr<TileOperand> resolveTileOperand(ks::KernelOp kernel, Operation *op,
                                          DictionaryAttr transfer);

/// The bundle symbol of `t`'s kernel argument, declared on first use
/// (sized to the argument's last element, aligned to global memory).
uint32_t tileOperandSymbol(const arch::ArchModel &model, ks::KernelOp kernel,
                           const TileOperand &t, bool isOutput, LoweredKernel &out,
                           KernelSymbols &symbols);

/// Byte offset of `t`'s block in grid tile `tile` (of `grid`, 3 entries)
/// from its symbol's start.
int64_t tileOperandOffset(const TileOperand &t, ArrayRef<int64_t> grid, int64_t tile);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_TILEOPERAND_H
