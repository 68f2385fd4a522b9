//===- ScheduleUtils.h - shared helpers of the scheduler passes -*- C++ -*-===//
#ifndef KTFLOW_SCHEDULE_SCHEDULEUTILS_H
#define KTFLOW_SCHEDULE_SCHEDULEUTILS_H

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Support/Units.h"

namespace ktflow::ktsched {

/// Number of dimensions of the maps describing tile origins and loop
/// bounds: (g0, g1, g2, iv) — the grid coordinates and the loop variable.
inline constexpr unsigned kOriginDims = 4;

/// Expresses an index value as an affine expression over (g0, g1, g2, iv):
/// constants, ktdp.get_compute_tile_id results, `loopIv`, and +, -, * by a
/// constant, / (truncating, floor or ceil) and % by a constant, through
/// index/integer casts. Fails on anything else (what ktsched-specialize
/// could not fold: min, max, select of values that differ between tiles).
mlir::FailureOr<mlir::AffineExpr> traceAffineIndex(mlir::Value value, mlir::Value loopIv);
/// The same over (g0, g1, g2, iv0, iv1, ...): `loopIvs[k]` is dimension 3 + k.
/// A loop bound over (g0, g1, g2): one affine expression, or several whose
/// minimum (an upper bound clamped with arith.minsi/minui) or maximum (a
/// lower bound raised with maxsi/maxui) it is. The group's `loop` keeps
/// them as the results of its `lb`/`ub` maps.
mlir::FailureOr<llvm::SmallVector<mlir::AffineExpr>> traceLoopBound(mlir::Value value,
                                                                     bool upper);
/// The value of a loop-bound map at grid coordinates `coords`: the minimum
/// of its results for an upper bound, the maximum for a lower one.
int64_t evalLoopBound(mlir::AffineMap map, llvm::ArrayRef<int64_t> coords, bool upper);
mlir::FailureOr<mlir::AffineExpr> traceAffineIndexOver(mlir::Value value,
                                                   llvm::ArrayRef<mlir::Value> loopIvs);

/// Bytes of one element of `type` (ktir.md §2.2).
ElementSize elementSize(mlir::Type type);

/// The outermost pipeline of a group, if the group has one.
PipelineOp outerPipeline(GroupOp group);
/// One past the last element of `tensor`'s data in memory (from its
/// argument's base), counting the points its coordinate set masks: they
/// are data the kernel must not overwrite.
Elements tensorDataEnd(TensorOp tensor);
/// The partitions' tensors of a distributed view's tensor (none for a
/// plain one), in operand order (ResolvePartitions.cpp).
llvm::SmallVector<TensorOp> partitionTensors(TensorOp tensor);
/// Whether any op under `root` (or its attributes) names a tensor of the
/// kernel for which `which` holds.
bool namesTensor(mlir::Operation *root, llvm::function_ref<bool(TensorOp)> which);
/// Whether any op under `root` names a distributed view's tensor.
bool touchesDistributed(mlir::Operation *root);
/// Whether any op under `root` names a gathered tensor (`gather_index`:
/// rows a DMA gather reads through an index tensor, not consecutive in
/// memory), which the passes that lay rows out as bytes leave alone.
bool touchesGathered(mlir::Operation *root);
/// Whether `group` reads table rows through a gathered tensor and writes
/// rows of the same kernel argument through one (a scatter-add: the table
/// updated in place through its indices). Its grid tile is one tile on one
/// sub-core instance: a tile's load reads every row before its store
/// writes any (ktir.md 2.4), so with an index repeated within a grid tile
/// a later tile's gather must not read what an earlier one scattered.
bool updatesGatheredRows(GroupOp group);
/// Every buffer op of a group, outer pipelines first.
llvm::SmallVector<BufferOp> groupBuffers(GroupOp group);

/// The compute stage of a group (after the initial pipeline), or null.
StageOp computeStage(GroupOp group);
/// Buffers a dma_load stage fills, at every level, in program order.
llvm::SmallVector<BufferOp> dmaLoadBuffers(GroupOp group);
/// The name of the tensor a buffer holds a tile of ("" if none).
llvm::StringRef bufferTensorName(BufferOp buffer);

/// The tile shape (iteration space extents) of the outer pipeline, or the
/// group's full space when no tile is chosen yet.
llvm::SmallVector<int64_t> groupTile(GroupOp group);

/// A group of phases whose rows do not fit the scratchpad is streamed
/// (SelectTiles.cpp): the outer pipeline's `residency = streamed` and
/// `stream_columns` decisions say each phase reads its tile's row again
/// from global memory, `stream_columns` elements at a time.
inline constexpr llvm::StringLiteral kResidency = "residency";
inline constexpr llvm::StringLiteral kStreamed = "streamed";
inline constexpr llvm::StringLiteral kResident = "resident";
inline constexpr llvm::StringLiteral kStreamColumns = "stream_columns";
/// Whether a group may be streamed: a group of phases whose one reduced
/// dimension is the last (its rows).
bool streamableGroup(GroupOp group);
/// The columns per pass of a streamed group, or none (resident).
std::optional<int64_t> streamColumns(GroupOp group);
/// The part of the tile one buffer slot holds: the tile, or for a streamed
/// group its row cut to `stream_columns`.
llvm::SmallVector<int64_t> slotTile(GroupOp group);

/// Shape, in the iteration space, of the data buffer `buffer` holds per
/// tile: the operand's dims take the tile's extents, broadcast operands
/// keep their own (1 for a scalar).
llvm::SmallVector<int64_t> bufferShape(BufferOp buffer, llvm::ArrayRef<int64_t> tile);
/// Bytes one copy of `buffer` takes for tile `tile`, with each row rounded
/// up to `granule` (transfers move whole granules), and one granule more
/// for a column operand whose slice starts inside a granule on some grid
/// tile (it is read from the granule it starts in).
Bytes bufferBytes(BufferOp buffer, llvm::ArrayRef<int64_t> tile, Bytes granule);

/// The row pitch a buffer of `tile`'s rows needs when its rows are not a
/// whole number of the group's vector steps and there are several of them:
/// each row padded to whole vectors (in the buffer's element type) and to
/// `alignment`, so every row starts on a vector boundary and its partial
/// last vector stays inside the row. None when a dense layout serves (one
/// row, whole-vector rows, a buffer without the vector dimension last, or a
/// compute stage without a vector width yet).
std::optional<Bytes> paddedRowPitch(BufferOp buffer, llvm::ArrayRef<int64_t> tile,
                                    Bytes alignment);

/// A column operand (a buffer whose only dimension is the space's
/// second-to-last: one value per row) is moved per tile as one slice of
/// that dimension; for the slice to be whole granules of `granule` bytes
/// the tile's rows must be a multiple of the returned element count. 1 when
/// the group has no column operand.
int64_t columnOperandRowUnit(GroupOp group, Bytes granule);

/// Whether the per-row results of `group`'s reduction leave the group:
/// stored to global memory, so a tile's results must be whole granules
/// of its transfers. True for a plain reduction; a group of phases
/// (`phases`: softmax, a norm) consumes its reductions' results in its
/// later phases and stores whole rows, so only a store of reduced rank
/// (a logsumexp-like result) makes them leave. False without reductions.
bool reductionResultsLeave(GroupOp group);

/// Elements a run must be a multiple of to be whole `granule`s in every
/// buffer of the group, each in its own element type, and in the group's
/// type (64-byte granules of an f16 and an f32 buffer: 32 elements).
int64_t granuleElements(GroupOp group, Bytes granule);

/// Elements of one vector step of the lowering for a compute vector of
/// `lanes` elements of the group's type: as many elements of the narrowest
/// buffer type as fill that vector's bytes, so the narrowest buffer moves
/// one vector's bytes per step and a wider one a whole multiple of them
/// (f16 and f32 buffers of an f32 group on sample: 16 lanes x 4 bytes =
/// 64 bytes = 32 elements per step, 64 bytes of f16 and 128 of f32).
/// `lanes` when the group has no buffers or the bytes do not divide.
int64_t vectorStep(GroupOp group, int64_t lanes);

/// `def` (an arith add, sub, mul by a constant, div/ceildiv/rem by a
/// positive constant) applied to its traced operands `lhs` and `rhs`;
/// failure for anything else (a product of two non-constants).
mlir::FailureOr<mlir::AffineExpr> combineAffineOperands(mlir::Operation *def, mlir::AffineExpr lhs,
                                                        mlir::AffineExpr rhs);

/// The coefficient of dimension `dim` in `expr` when `expr` is linear in it
/// (the dimension appears in no floordiv, ceildiv or mod and is multiplied
/// by constants only); none otherwise.
std::optional<int64_t> linearCoefficient(mlir::AffineExpr expr, unsigned dim);

/// The load and store stages of a group still in the initial pipeline's
/// form (only load, compute and store stages, every mover holding its
/// `transfers`), or none when the group has another shape.
std::optional<llvm::SmallVector<StageOp>> initialPipelineMovers(GroupOp group);

/// The geometry of one sub-core instance's K step of a contraction on a
/// matrix unit, as the lowering walks it: its block rows (mbs), its share
/// of B's K blocks (kbs), the K blocks of the step (kb), the block columns
/// of the panel (nb), the accesses of an A row and a B row of the step
/// (aSticks, bSticks), the load unit's access and an operand element.
struct ContractionStepShape {
  int64_t steps = 1, buffers = 1, mbs = 1, kbs = 1, kb = 1, nb = 1, aSticks = 1, bSticks = 1;
  int64_t bk = 1, tn = 1, access = 1, elementBytes = 1;
};

/// Whether the relay of a contraction's next K step can run inside this
/// step's products (operand blocks in a ring of two slots,
/// `block_buffers = 2`): K in an even number (> 1) of steps, the operand
/// rows double-buffered, and B's relay units of
/// the step shared out evenly over the block rows (a whole number per row,
/// each row's a whole number of B rows' accesses or a divisor of them).
bool contractionOverlapLegal(const ContractionStepShape &shape);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_SCHEDULEUTILS_H
