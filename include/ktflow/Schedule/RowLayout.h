//===- RowLayout.h - dense or padded rows in a scratchpad slot --*- C++ -*-===//
//
// The `row_layout` decision of a buffer whose tile rows are not a whole
// number of vectors (ktsched-allocate records it; lib/Lower reads it).
// Padded rows (`row_pitch`) start every row on a vector boundary of the
// slot, which needs one DMA run per row at the tensor's row stride; where
// the description's DMA access rule for global memory forbids that stride,
// a dense slot holds the rows back to back, exactly as in global memory,
// moved as one run, and the compute unit realigns them (lib/Lower/RowRealign;
// on two levels the tile DMA copies the dense slot as it is).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_ROWLAYOUT_H
#define KTFLOW_SCHEDULE_ROWLAYOUT_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Support/Units.h"

#include <optional>

namespace ktflow::ktsched {

/// The name of the decision and its one non-default value.
inline constexpr llvm::StringLiteral kRowLayout = "row_layout";
inline constexpr llvm::StringLiteral kDenseRows = "dense";

/// Whether `buffer` (filled by a DMA load from global memory, rows of
/// `tile` that are not whole vectors) takes dense rows: its group is a row
/// reduction (or a column reduction whose fold over a row's vectors fits
/// the registers: denseColumnFits) of a two-dimensional space, the tile's rows follow each other
/// in global memory without gaps (one contiguous run; a reduction's load may
/// also span rows further apart, a column block's, gaps and all), and the tensor's
/// row stride is not aligned to the DMA's global access rule (padded rows
/// would need that stride). A buffer of the inner scratchpad level of two
/// (copied slot for slot from an outer one) is dense when that one is.
/// With `allowSpans` false a column block's rows are never a strided span
/// (the group's buffers do not fit with them: memoryUse, allocation).
bool needsDenseRows(BufferOp buffer, llvm::ArrayRef<int64_t> tile, const arch::ArchModel &model,
                    bool allowSpans = true);

/// Whether `buffer`'s dense rows would be a strided span (a column block
/// of rows further apart than the tile is wide).
bool isStridedSpan(BufferOp buffer, llvm::ArrayRef<int64_t> tile);

/// Bytes one dense copy of `buffer` takes: its rows back to back (or at
/// the tensor's row stride, for a strided span), room for
/// a start up to one DMA alignment unit into the first one (the run is
/// read from the unit it starts in), and one vector more (the compute unit
/// holds the next aligned vector while it realigns the current one), in
/// whole `granule`s.
Bytes denseRowsBytes(BufferOp buffer, llvm::ArrayRef<int64_t> tile, const arch::ArchModel &model,
                     Bytes granule);

/// Rows per whole granule of global memory's transfers in an element-wise
/// group whose stores pack their rows (dense stores: each share and tile
/// of them starts on a granule), 1 for any other group. Such a group also
/// keeps its rows whole (a share of its columns would be a strided copy).
int64_t packedRowUnit(GroupOp group, const arch::ArchModel &model);

/// Whether a buffer carries the dense decision.
bool hasDenseRows(mlir::Operation *buffer);

/// Vectors per row up to which a column reduction's rows may be dense (one
/// accumulator per vector of a row while its fold reads them in memory
/// order) where the compute unit's registers are not known; with a bound
/// unit, as many as its vector registers hold (denseColumnFits).
inline constexpr int64_t kDenseColumnVectors = 4;

/// Whether a column reduction's fold over dense rows of `vectors` vectors
/// fits the compute unit's vector registers: one accumulator per vector of
/// a row and reduction, beside (an upper bound of) the body's own: a
/// register per argument and op, the held pair of every dense input, and
/// the lowering's scratch and piece registers.
bool denseColumnFits(GroupOp group, int64_t vectors, const arch::ArchModel &model);

/// A column reduction whose whole rows would be dense: split and tiles
/// must keep its rows whole (cutting columns would leave a strided copy the
/// DMA forbids).
bool keepsWholeRows(GroupOp group, const arch::ArchModel &model);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_ROWLAYOUT_H
