//===- GroupLowering.h - lowering one compute group to unit IR -*- C++ -*-===//
//
// Internal to lib/Lower. GroupLowering turns one compute group of the
// schedule IR (or one round or class of its grid tiles) into the programs
// and channels of one ktunit.bundle. Its parts, one file each: collecting
// the group (CollectGroup.cpp), checking its transfers (CheckTransfers.cpp),
// the DMA stage (DmaStage.cpp), the vector compute stage
// (VectorCompute.cpp), rolling tiles into loops (TileLoops.cpp), and the two
// pipeline shapes (EmitOneLevel.cpp, EmitTwoLevel.cpp). LowerSchedule.cpp
// drives it and runs the unit passes.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_GROUPLOWERING_H
#define KTFLOW_LIB_LOWER_GROUPLOWERING_H

#include "ktflow/Lower/LowerSchedule.h"

#include "PhaseCompute.h"
#include "ReductionNest.h"

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SupportedOps.h"
#include "ktflow/Unit/Builder.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <numeric>

namespace ks = ktflow::ktsched;

namespace ktflow::lower::detail {

using namespace mlir;


/// The value of decision `name` on `op`, or null when the op carries no
/// such decision: every reader diagnoses a missing one (DESIGN.md
/// principle 6: the lowering never substitutes a default for a decision).
inline Attribute decisionValue(Operation *op, StringRef name) {
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr(name)))
    return decision.getValue();
  return {};
}

inline SmallVector<int64_t> i64Array(Attribute attr) {
  if (auto array = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef());
  return {};
}

inline int64_t i64Of(Attribute attr, int64_t fallback = 0) {
  if (auto value = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return value.getInt();
  return fallback;
}

/// The vector register type of an MLIR element type, if it has one.
inline std::optional<dc::ElemType> registerType(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return dc::parseElemType(name);
}

/// Rows of a tile visited together when a column operand is blocked:
/// `blocks` blocks of `rows` rows each, from row `rowOffset` (whole blocks
/// of a vector's worth of rows, then one block of the remaining rows).
struct RowSegment {
  int64_t blocks = 0, rows = 0, rowOffset = 0;
};

/// One transfer of a load or store stage, resolved against its tensor.
struct Transfer {
  mutable ks::TensorOp tensor;
  int64_t arg = 0;
  ElementSize esize{Bytes(2)};
  /// The register type of its elements (none for a type without registers).
  std::optional<dc::ElemType> regType;
  AffineMap origin;
  SmallVector<int64_t> shape, dims;
  /// The scratchpad buffer it goes through.
  ks::BufferOp buffer;
  std::string memory;
  Bytes address, bytes, instanceStride;
  /// Bytes between the slot's rows where the schedule padded them to
  /// whole vectors (the buffer's `row_pitch`); 0: dense rows.
  Bytes rowPitch{0};
  int64_t depth = 1;
  /// The schedule's `row_layout` is dense: the slot holds the tile's rows
  /// back to back, as in global memory (RowRealign.cpp).
  bool denseRows = false;
  /// A column load whose slices do not all start on a DMA unit: each is
  /// read from the unit it starts in (GroupLowering::planColumnLeads).
  bool overFetch = false;
  /// A load whose tile region is the same for every tile (and loop
  /// iteration) of every sub-core instance: copied once per instance into
  /// slot 0 of its buffer, which every tile's compute then reads.
  bool hoisted = false;
};

/// Whether `t` is through a distributed view (its tensor has `partitions`):
/// each tile is copied piece by piece (DistributedCopy.cpp).
inline bool isDistributed(const Transfer &t) { return t.tensor.getPartitions().has_value(); }
/// Whether `t` is through a gathered tensor (its tensor has
/// `gather_index`): each tile's rows are gathered (GatheredLoad.cpp).
inline bool isGathered(const Transfer &t) { return t.tensor.getGatherIndex().has_value(); }

/// The part of a tile of a distributed view that one partition holds: its
/// start relative to the tile's first coordinate and its extent, per
/// tensor dimension.
struct PartitionPiece {
  int64_t partition = 0;
  SmallVector<int64_t> start, extent;
  bool operator==(const PartitionPiece &o) const {
    return partition == o.partition && start == o.start && extent == o.extent;
  }
};

/// How the compute unit realigns one tile of dense rows (RowRealign.cpp):
/// row r's vector k starts `lead + r * rowBytes + k * vectorBytes` bytes
/// into the aligned vectors the load unit pushes from `pushBase` on.
struct DenseRowTile {
  /// `rowBytes`: a row's wanted bytes; `rowStride`: bytes from one row's
  /// start to the next in the slot (more than `rowBytes` for a column
  /// block's strided span, whose gaps the reads skip).
  Bytes lead, pushBase, rowBytes, rowStride, vectorBytes;
  /// The dense loads' element size, and the accesses of `vectorBytes`
  /// each of them takes per vector step (more than one for a type wider
  /// than the step's).
  ElementSize elementSize;
  int64_t piecesPerStep = 1;
  /// Pieces of a row's last step that start inside the row (read; the
  /// others are padding lanes).
  int64_t lastStepPieces = 1;
  /// The tile's rows and columns (a column block's, where instances
  /// share the columns), and accesses per row (vector steps x pieces).
  int64_t rows = 0, columns = 0, vectorsPerRow = 0;
  /// Rows after which the shifts repeat (a whole number of vectors).
  int64_t period = 1;
  /// Aligned vectors pushed per dense load.
  int64_t pushes = 0;
  /// Aligned vectors the tile's first read takes (denseAdvance's rule for
  /// the row of a period before it): the ones not taken are received up
  /// front (2 - primed taken; none when it skips).
  int64_t firstAdvance = 1;
};

/// A tile of one sub-core instance's share: origin and extent per dim of
/// the group's iteration space.
struct Tile {
  SmallVector<int64_t> origin, extent;
  /// Iteration of the group's scf.for (0 without a loop).
  int64_t iteration = 0;
};

/// Per-instance values of one SPMD program: a value that is the same on
/// every instance running the program is a constant, the others take a
/// column of its table (columns of equal values are shared).
class InstanceTable {
public:
  /// Columns are numbered from `firstColumn` (after the program's own).
  explicit InstanceTable(size_t instances, uint32_t firstColumn = 0)
      : rows(instances), firstColumn(firstColumn) {}
  /// The column holding `values` (one per instance), or none when they are
  /// all equal (the caller uses values.front()).
  std::optional<uint32_t> columnFor(ArrayRef<int64_t> values) {
    if (values.empty() || llvm::all_equal(values))
      return std::nullopt;
    for (uint32_t c = 0; c < columns; ++c)
      if (llvm::all_of(llvm::seq<size_t>(0, rows.size()),
                       [&](size_t i) { return rows[i][c] == values[i]; }))
        return firstColumn + c;
    for (size_t i = 0; i < rows.size(); ++i)
      rows[i].push_back(values[i]);
    return firstColumn + columns++;
  }
  /// Adds `values` (bytes, one per instance) to an address.
  void addTo(dc::Address &address, ArrayRef<int64_t> values) {
    if (std::optional<uint32_t> column = columnFor(values))
      address.tableColumn = *column;
    else if (!values.empty())
      address.offset = address.offset + Bytes(values.front());
  }
  /// The column of launch-table entries `exprs` (one per instance; the
  /// runtime computes them at launch), holding `placeholders` until then.
  uint32_t launchColumn(ArrayRef<std::string> exprs, ArrayRef<int64_t> placeholders) {
    for (auto &[column, cells] : launchCells)
      if (llvm::equal(cells, exprs))
        return column;
    for (size_t i = 0; i < rows.size(); ++i)
      rows[i].push_back(placeholders[i]);
    uint32_t column = firstColumn + columns++;
    launchCells.push_back({column, std::vector<std::string>(exprs.begin(), exprs.end())});
    return column;
  }
  /// Appends these columns to `program`'s table (which has `firstColumn`).
  void install(ktunit::ProgramBuilder &program) const {
    if (columns == 0)
      return;
    assert(program.tableColumns() == firstColumn && "columns numbered after another table");
    program.appendTableColumns(rows, columns);
    for (const auto &[column, cells] : launchCells)
      for (auto [row, expr] : llvm::enumerate(cells))
        program.addLaunchCell(uint32_t(row), column, expr);
  }

private:
  std::vector<std::pair<uint32_t, std::vector<std::string>>> launchCells;
  std::vector<std::vector<int64_t>> rows;
  uint32_t firstColumn = 0, columns = 0;
};

/// Where a compute input comes from.
struct ComputeInput {
  int loadIndex = -1;          ///< Index into the load transfers, or
  std::optional<double> splat; ///< a scalar argument's value.
};

/// The kernel's bundle symbols, shared by the lowerings of every group:
/// their unit-IR names and element types beside `LoweredKernel::bundle`'s
/// device-code symbols (whose sizes grow as short loads are widened).
struct KernelSymbols {
  std::vector<std::string> names;
  std::vector<Type> types;
};

class GroupLowering {
public:
  /// Programs and channels go into `unitBundle`, one per lowering (a
  /// group, or one round or class of its grid tiles).
  GroupLowering(const arch::ArchModel &model, const LowerOptions &options,
                ks::KernelOp kernel, ks::GroupOp group, LoweredKernel &out,
                ktunit::BundleOp unitBundle, KernelSymbols &symbols)
      : model(model), options(options), kernel(kernel), group(group), out(out),
        unitBundle(unitBundle), symbols(symbols) {}

  LogicalResult collect();
  LogicalResult emit(unsigned groupIndex);

  /// Cores whose grid tile has the same valid extent of the iteration space
  /// and the same loop trip count, with that extent. The edge tiles of a split that does not divide
  /// evenly are partly masked (KTIR masks the points outside a view); they
  /// get their own programs, which move and compute only the valid points.
  /// Fully masked grid tiles appear in no class: they have nothing to do.
  struct CoreClass {
    SmallVector<int64_t> cores, space;
    /// The split's shares of `space` (the schedule's `classes` decision).
    SmallVector<int64_t> shares;
    /// Grid tile `firstTile + k` runs on core k: a grid with more tiles
    /// than cores runs in rounds of one tile per core.
    int64_t firstTile = 0;
  };
  /// The classes of grid tiles the schedule recorded (`classes`).
  FailureOr<SmallVector<CoreClass>> coreClasses();
  /// Lowers only `cls.cores`, over `cls.space` (call before collect()).
  void restrictTo(const CoreClass &cls) { restriction = cls; }
  /// The core that runs grid tile `tile`.
  int64_t coreOf(int64_t tile) const { return tile - (restriction ? restriction->firstTile : 0); }
  /// collect() leaves the reduction store checks to checkStores(): a
  /// lowering that only classifies the cores sees the unmasked extent,
  /// whose runs the classes' own lowerings do not move.
  bool deferStoreChecks = false;
  LogicalResult checkStores() { return reduction ? checkReductionStores() : success(); }

  // Unit names, as the schedule binds them.
  std::string dmaUnit, ldUnit, computeUnit, stUnit;
  int64_t cores = 0, subcores = 0;
  SmallVector<int64_t> coreIds;           ///< cores that run a grid tile
  std::vector<std::vector<int64_t>> ldInstances, stInstances; // [core][j]

private:
  std::optional<CoreClass> restriction;
  /// The compute stage's inputs: results of `loadStage` (through a FIFO or
  /// a buffer) or scalar kernel arguments.
  LogicalResult collectComputeInputs(Operation *loadStage);
  LogicalResult collectTwoLevelStages(Operation *dmaLoad, Operation *dmaStore,
                                     Operation *inner);
  LogicalResult collectTwoLevelUnits();
  LogicalResult emitTwoLevel();
  /// A streamed group of phases (StreamedPhases.cpp): on one scratchpad
  /// level, or on two.
  LogicalResult emitStreamed();
  LogicalResult emitStreamedTwoLevel();
  /// Diagnoses what a streamed group's lowering does not build; sets
  /// streamParts and streamPasses.
  LogicalResult checkStreamed();
  /// Part c (of `stream_columns`) of a streamed row tile.
  Tile streamPart(const Tile &tile, int64_t c) const;
  /// Parts [first, streamParts) of a row, as counted loops over periods of
  /// the slots' rotation where there are at least two.
  LogicalResult visitStreamParts(ArrayRef<ktunit::ProgramBuilder *> programs, int64_t first,
                                 llvm::function_ref<LogicalResult(int64_t)> emitPart);
  /// A DMA's copies of one streamed row: per phase that reads it, `load`
  /// of each part (with the arguments the phase reads); in the final phase
  /// `store` of part c - lag after the load of part c.
  LogicalResult emitStreamSteps(ArrayRef<ktunit::ProgramBuilder *> programs, int64_t lag,
                                llvm::function_ref<void(int64_t, ArrayRef<bool>)> load,
                                llvm::function_ref<void(int64_t)> store);
  /// A whole-slot copy between two scratchpad levels, cut to the tile
  /// DMA's largest access.
  /// One DMA table row per core: each transfer's grid offset (loads, then
  /// stores), then the core's load-unit and store-unit instances.
  LogicalResult addDmaTableRows(ktunit::ProgramBuilder &dma);
  void copyBetweenLevels(ktunit::ProgramBuilder &b, dc::Address dst, dc::Address src,
                         Bytes bytes);
  /// Emits the compute body for one vector step (inputs already in their
  /// registers); `sink(i, reg)` takes result i.
  /// `fixed` names result registers chosen by the caller (a reduction's
  /// accumulator); reductions themselves are ReductionNest's. `only`
  /// restricts it to those ops (one phase's: PhaseNest).
  LogicalResult emitBody(ktunit::ProgramBuilder &vec, llvm::DenseMap<Value, ktunit::Reg> &reg,
                         llvm::function_ref<void(unsigned, ktunit::Reg)> sink,
                         const llvm::DenseMap<Value, ktunit::Reg> *fixed = nullptr,
                         const llvm::DenseSet<Operation *> *only = nullptr);
  /// The address of the current vector of transfer t in `slot` inside the
  /// loop nest over a tile's space (loop d over space dim d, the last over
  /// its vectors); `broadcast` says the transfer lacks the vector dimension.
  dc::Address vectorInSlot(const Transfer &t, dc::Address slot, bool &broadcast) const;
  /// The address of the vector at `pos` in transfer t's slot `slot`;
  /// `broadcast` says the transfer lacks the vector dimension.
  dc::Address positionAddress(const Transfer &t, dc::Address slot, const SpacePosition &pos,
                              bool &broadcast) const;
  /// Checks a reducing group's result buffers and DMA runs (collect()).
  LogicalResult checkReductionStores();
  /// A stored run that is not a legal DMA access but ends where the
  /// kernel argument's data ends, on every core that copies it: the run
  /// rounded up to the DMA's size multiple, its extra bytes (padding lanes
  /// of the last vector) landing in the symbol's alignment padding, which
  /// nothing reads. Applies to a reduction's results and to the single row
  /// of a tile whose last vector is partial. None when that does not apply.
  std::optional<Bytes> widenedResultRun(const Transfer &t, const Tile &tile, Bytes run);
  /// Vectors per tile row: the compute side moves whole vectors, so a row
  /// that is not whole vectors ends with a partial one.
  int64_t vectorsPerRow(const Tile &tile) const {
    return (tile.extent.back() + vectorWidth - 1) / vectorWidth;
  }
  bool hasPartialVector(const Tile &tile) const {
    return tile.extent.back() % vectorWidth != 0;
  }
  /// A tile whose rows are not whole vectors: its last vector is computed
  /// whole, so every slot must hold it and every DMA run must stay legal.
  /// Diagnoses what cannot be lowered ("masked vectors are not lowered").
  LogicalResult checkPartialVector(const Tile &tile);
  /// Byte just past the last element of any view of kernel argument `arg`.
  Bytes argumentDataEnd(int64_t arg, ElementSize esize);
  /// The bundle symbol of a transfer's kernel argument (created on first use).
  uint32_t symbolOf(const Transfer &t, bool isOutput);
  /// One DMA copy of a tile between global memory (the transfer's symbol at
  /// `gridBytes` plus the table column, if any) and a buffer slot `local`.
  /// An over-fetched load on several cores takes its per-core start from a
  /// column of `perCore`, the DMA program's further columns.
  void copyTile(ktunit::ProgramBuilder &dma, const Transfer &t, uint32_t symbol,
                std::optional<uint32_t> column, Bytes gridBytes, const Tile &tile,
                dc::Address local, bool isLoad, InstanceTable *perCore = nullptr);
  /// The pieces of grid tile `linear`'s tile `tile` (its whole tile when
  /// null) of distributed transfer `t`, in partition order.
  SmallVector<PartitionPiece> partitionPieces(const Transfer &t, int64_t linear,
                                              const Tile *tile) const;
  /// copyTile for a distributed transfer: one copy per piece the tile
  /// touches, each from its partition's symbol at the piece's local offset
  /// (per core from `perCore`, or on `servedCore` alone).
  void copyPieces(ktunit::ProgramBuilder &dma, const Transfer &t, const Tile &tile,
                  dc::Address local, bool isLoad, InstanceTable *perCore);
  /// Where each piece of tile `a` of distributed transfer `t` starts, in
  /// bytes of its partition, per core served (`servedCore`, else coreIds).
  SmallVector<SmallVector<int64_t>> pieceStarts(const Transfer &t, const Tile &a) const;
  /// The structure of `a`'s pieces and their byte steps to tile `b`, when
  /// `b` is cut alike on every core and each piece steps alike on all of
  /// them (tiles that a loop over periods may roll); none otherwise.
  std::optional<SmallVector<int64_t>> pieceSteps(const Transfer &t, const Tile &a,
                                                 const Tile &b) const;
  /// Tile `tile` of grid tile `linear`'s first coordinate per dimension of
  /// t's tensor, from its lower corner (elements).
  SmallVector<int64_t> tileCoordinates(const Transfer &t, int64_t linear,
                                       const Tile &tile) const;
  /// copyTile through a gathered tensor: one DMA gather (a load) or
  /// scatter (a store) of the tile's rows through its run of the index
  /// tensor (GatheredLoad.cpp), per core from `perCore`, or on
  /// `servedCore` alone.
  void gatherRows(ktunit::ProgramBuilder &dma, const Transfer &t, const Tile &tile,
                  dc::Address local, bool isLoad, InstanceTable *perCore);
  /// Whether any transfer of the group is through a distributed view.
  bool hasDistributed() const {
    return llvm::any_of(llvm::concat<const Transfer>(loads, stores),
                        [](const Transfer &t) { return isDistributed(t); });
  }
  /// The grid tile the two-level outer DMA is copying for (it serves each
  /// core on its own), or -1: copyPieces then serves `coreIds`.
  int64_t servedCore = -1;
  /// How a program visits items 0..n-1 (tiles, or the DMA's steps): those
  /// in [first, first + repeat * period) as `repeat` iterations of a loop
  /// over `period` items, the others one by one. A period is a whole number
  /// of every buffer's slot rotation, so each of its items keeps its slots.
  struct TileRoll {
    int64_t first = 0, period = 1, repeat = 0;
  };
  LogicalResult visitTiles(ArrayRef<ktunit::ProgramBuilder *> programs, int64_t n,
                           TileRoll roll, llvm::function_ref<LogicalResult(int64_t)> emitItem);
  /// Tiles [a, b) of sub-core j that differ only in where they start: the
  /// same extent and loop iteration structure, every transfer's offset a
  /// constant step from the previous tile's. The last tile stays out (a
  /// stored run ending at the tensor's end may be widened). Empty when a
  /// load is over-fetched (its lead differs per tile).
  std::pair<int64_t, int64_t> alikeTiles(int64_t j) const;
  /// Tiles per period: the least common multiple of the rotating depths.
  int64_t tilePeriod() const;
  TileRoll tileRoll(int64_t j) const;
  /// The DMA's steps (loads of step s, stores of step s - lag) to roll.
  TileRoll stepRoll(int64_t lag) const;
  /// While a period is emitted inside its loop: its length, and for the
  /// DMA's next copy the tile one period later (its copies step by the
  /// difference).
  int64_t rollingPeriod = 0;
  const Tile *periodLater = nullptr;
  /// Inside a counted loop over a streamed row's parts (StreamedPhases.cpp):
  /// the part one iteration later, and the loop's depth; copyTile steps
  /// its global address by their distance.
  const Tile *partLater = nullptr;
  uint32_t partLoopDepth = 0;
  /// Parts per iteration of that loop (0: not inside one).
  int64_t partPeriod = 0;
  /// Inside a loop around a streamed group's alike rows.
  bool rolledTiles = false;
  /// The smallest run of at least `need` bytes the DMA may move between
  /// global memory and t's buffer, if any. Loads are rounded up to it when
  /// it fits the slot: the extra bytes land in the slot's padding and are
  /// never used (reading neighbouring data is harmless).
  std::optional<Bytes> coveringLoadRun(const Transfer &t, Bytes need) const;

  // Column operands: loads whose only dimension is the row dimension (the
  // space's second-to-last, R), one value per row. Their rows are visited
  // in segments of blocks (loop depth R over blocks, R + 1 over the rows of
  // a block, R + 2 over the vectors of a row): whole blocks of
  // `vectorWidth` rows, then one block of the remaining rows.
  bool isColumnLoad(const Transfer &t) const;
  /// Sets Transfer::hoisted from the schedule's `hoist` decisions (one
  /// copy per sub-core instance), checking each hoisted load's region is
  /// the same for every tile (one-level lowering).
  LogicalResult markHoistedLoads();
  /// The schedule's `lead` decision: tiles the DMA's loads run ahead of
  /// its stores, checked against the rotating input depth.
  FailureOr<int64_t> leadOfLoads(int64_t inputDepth);
  SmallVector<RowSegment, 2> rowSegments(const Tile &tile) const;
  /// The address of transfer t's current vector (its column vector, for a
  /// column load) in `slot` within a row segment.
  dc::Address segmentAddress(const Transfer &t, dc::Address slot, const RowSegment &seg) const;
  /// A column slice that does not start on a DMA unit (a grid tile or a
  /// loop iteration of a few rows) is over-fetched: its DMA reads from the
  /// unit the slice starts in, and the slice sits `leadOf` bytes into its
  /// slot. Sets Transfer::overFetch.
  LogicalResult planColumnLeads();
  // Dense rows (RowRealign.cpp): loads whose slot holds the rows back to
  // back; the load unit pushes its aligned vectors in order and the
  // compute unit realigns each row's vectors with `ext`.
  bool hasDenseLoads() const {
    return llvm::any_of(loads, [](const Transfer &t) { return t.denseRows; });
  }
  // Dense stores (DenseStores.cpp): an element-wise group's result rows
  // packed one after another into whole vectors of the store slot.
  bool hasDenseStores() const {
    return llvm::any_of(stores, [](const Transfer &t) { return t.denseRows; });
  }
  /// Diagnoses a group with dense stores the packing does not lower.
  LogicalResult checkDenseStores(const Tile &tile);
  /// Whole vectors the packed rows of `tile` fill (the last one partly).
  int64_t denseStoreVectors(const Tile &tile) const;
  /// Visits a tile's vector steps in the packing's order: periods of
  /// `period` rows (a loop over periods, each row emitted on its own), each
  /// row's first vector, a loop over its middle ones and its last one on
  /// its own; `visit(pos, phase, lanes)` gets the row's place in its period
  /// and the valid lanes of the step. With `held` (column operands), the
  /// rows go in blocks of a vector's worth, `held->block` at the start of
  /// each (a loop over the whole blocks, then the last one) and
  /// `held->row` before every row; the period divides the vector width,
  /// so every block starts a period.
  LogicalResult
  walkDenseSteps(ktunit::ProgramBuilder &b, const Tile &tile, int64_t period,
                 llvm::function_ref<void(const SpacePosition &, int64_t, int64_t)> visit,
                 const ReductionNest::HeldRows *held = nullptr);
  /// The rows after which the packing's shifts repeat (those of dense
  /// loads too: one element size).
  int64_t denseStorePeriod(const Tile &tile) const;
  /// Compute unit: result `r` of a step with `lanes` valid lanes, `phase`
  /// rows into its period, packed after what `pending` holds (its top
  /// lanes); every vector that fills is sent through `out`.
  void packDenseStep(ktunit::ProgramBuilder &vec, const Tile &tile, ktunit::Reg r,
                     ktunit::Reg pending, ktunit::Reg out, int64_t phase, int64_t lanes,
                     llvm::function_ref<void(ktunit::Reg)> sendOut = nullptr);
  /// Two levels: where in `slot` the packed vector a step at `pos`
  /// completes lies (the compute unit vstores it), and the tile's last,
  /// partly filled one.
  dc::Address packedVectorAddress(dc::Address slot, const Tile &tile,
                                  const SpacePosition &pos) const;
  dc::Address lastPackedVectorAddress(dc::Address slot, const Tile &tile) const;
  /// Compute unit, after a tile: the last, partly filled vector of each
  /// store.
  void flushDenseStores(ktunit::ProgramBuilder &vec, const Tile &tile,
                        ArrayRef<ktunit::Reg> pending, ktunit::Reg out,
                        llvm::function_ref<void(unsigned, ktunit::Reg)> sendOut = nullptr);
  /// Load unit: the tile's inputs in the packing's step order (dense loads'
  /// aligned vectors as the compute unit takes them, the others by
  /// `pushOther`).
  LogicalResult
  pushDenseSteps(ktunit::ProgramBuilder &ld, const DenseRowTile *dense, const Tile &tile,
                      int64_t j, int64_t k,
                      llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
                      const ReductionNest::HeldRows *held = nullptr);
  /// Store unit: the packed vectors of every store, in turn, into
  /// consecutive vectors of its slot.
  void popDenseStores(ktunit::ProgramBuilder &st, const Tile &tile, int64_t j, int64_t k);
  /// The aligned vectors a dense load's read at `pos` takes (the load
  /// unit's side of readDenseRows).
  void pushDenseStep(ktunit::ProgramBuilder &ld, const DenseRowTile &dense, int64_t j, int64_t k,
                     const SpacePosition &pos,
                     llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
                     bool heldColumns);
  /// The aligned vectors pushed before a tile's first read.
  void primeDenseLoads(ktunit::ProgramBuilder &ld, const DenseRowTile &dense, int64_t j,
                       int64_t k);
  /// Bytes from the aligned start a dense load of `tile` is read from to
  /// its first wanted byte (the same on every core: denseRowTile checks).
  Bytes denseLead(const Transfer &t, const Tile &tile);
  /// The realignment of `tile`, with diagnostics for what is not lowered.
  FailureOr<DenseRowTile> denseRowTile(const Tile &tile);
  /// Load unit: every dense load's aligned vectors in the order the
  /// compute unit takes them, the other loads' vectors (`pushOther`) at
  /// each position between them, column operands at each block of `held`
  /// rows (when there are any). Fails with the reduction nest's
  /// diagnostic where it cannot order the reads.
  mlir::LogicalResult
  pushDenseRows(ktunit::ProgramBuilder &ld, const DenseRowTile &dense, int64_t j, int64_t k,
                llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
                const ReductionNest::HeldRows *held);
  /// Accesses the step at `pos` reads of each dense load (all its pieces
  /// but those of a row's last step wholly past the row's end).
  int64_t denseReads(const DenseRowTile &dense, const SpacePosition &pos) const;
  /// Aligned vectors the read of the vector at `pos` moves on by: 1
  /// inside a row; at a row's start 0, 1, or more past a column block's
  /// gap (then the pair it starts in is received afresh).
  int64_t denseAdvance(const DenseRowTile &dense, const SpacePosition &pos) const;
  /// The same for the first read of the row `row` of a period.
  static int64_t rowStartAdvance(const DenseRowTile &dense, int64_t row);
  /// Compute unit, before the tile's first read: the held vectors of each
  /// dense input (`held[load]`: the current and the next aligned vector).
  void primeDenseRows(ktunit::ProgramBuilder &vec, const DenseRowTile &dense,
                      ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held);
  /// Compute unit: every input of the vector at `pos` into `reg`, dense
  /// ones realigned from their held vectors.
  void readDenseRows(ktunit::ProgramBuilder &vec, const DenseRowTile &dense,
                     const SpacePosition &pos, llvm::DenseMap<Value, ktunit::Reg> &reg,
                     ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held,
                     llvm::function_ref<void(unsigned, BlockArgument)> receiveOther);
  /// Compute unit on two levels, which reads its memory directly: every
  /// input of the vector at `pos` into `reg`, each piece of a dense one
  /// from the two aligned vectors of its inner slot (`slotOf`) it spans,
  /// vloaded into `held` (`checkVector` sees each address), the others by
  /// `loadOther`.
  void loadDenseRows(ktunit::ProgramBuilder &vec, const DenseRowTile &dense,
                     const SpacePosition &pos, llvm::DenseMap<Value, ktunit::Reg> &reg,
                     ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held,
                     llvm::function_ref<dc::Address(const Transfer &)> slotOf,
                     llvm::function_ref<void(const Transfer &, const dc::Address &)> checkVector,
                     llvm::function_ref<void(unsigned, BlockArgument)> loadOther);

  /// The DMA unit over-fetched reads start on (global memory's rule).
  Bytes overFetchUnit{1};
  /// Where tile `tile`'s wanted bytes of t start, for grid tile `gridTile`,
  /// relative to where they are read from.
  Bytes leadOf(const Transfer &t, int64_t gridTile, const Tile &tile) {
    if (!t.overFetch)
      return Bytes(0);
    FailureOr<int64_t> offset = gridOffset(t, gridTile); // checked by planColumnLeads
    Bytes start = Bytes(succeeded(offset) ? *offset : 0) +
                  toBytes(Elements(tileElementOffset(t, tile)), t.esize);
    return start % overFetchUnit;
  }
  /// Where a column load's values start in its slot: whole vectors, then a
  /// lane of the vector (the lead in vectors and lanes).
  struct ColumnPhase {
    Bytes vectorOffset;
    int64_t lane = 0;
  };
  /// The vectors a segment's blocks read of column operand t from `phase`
  /// (and the next vector when `spansNext`) must lie inside its slot.
  LogicalResult checkColumnReadFits(const Transfer &t, const ColumnPhase &phase, bool spansNext,
                                    const RowSegment &seg) const {
    Bytes vectorBytes = toBytes(Elements(vectorWidth), t.esize);
    Bytes end = phase.vectorOffset + vectorBytes * (spansNext ? 2 : 1) +
                toBytes(Elements(seg.rowOffset + (seg.blocks - 1) * vectorWidth), t.esize);
    if (end > t.bytes)
      return t.tensor.emitError("the column values of a tile, read from ")
             << phase.vectorOffset.count() << " bytes and " << phase.lane
             << " lanes into their buffer slot, run past its " << t.bytes.count()
             << " bytes: not lowered";
    return success();
  }
  ColumnPhase columnPhase(const Transfer &t, int64_t gridTile, const Tile &tile) {
    Bytes lead = leadOf(t, gridTile, tile), vector = toBytes(Elements(vectorWidth), t.esize);
    return {vector * (lead / vector), toElements(lead % vector, t.esize).count()};
  }
  /// Whether a block of `rows` column values from lane `lane` on spans two
  /// vectors.
  bool spansTwoVectors(int64_t lane, int64_t rows) const { return lane + rows > vectorWidth; }
  /// The first transfer the DMA's global-memory access rules cannot carry
  /// (a run size, a stride or a start off its rules), reported once the
  /// program is built.
  std::optional<std::pair<Operation *, std::string>> dmaProblem;
  /// The description's access rule that dmaProblem breaks, for a note.
  std::string dmaProblemRule;
  std::string accessRuleText(arch::NodeId unit, arch::NodeId memory,
                             const arch::AccessRule &rule) const;
  LogicalResult resolveTransfer(Operation *stage, ArrayAttr transfers, unsigned index,
                                Value bufferValue, Transfer &t);
  /// Byte offset of a transfer's grid-tile origin on grid tile `linear`.
  FailureOr<int64_t> gridOffset(const Transfer &t, int64_t linear);
  /// Whether grid tile `linear` has work: it is in one of the schedule's
  /// tile classes (a fully masked tile is in none and does nothing).
  bool hasWork(int64_t linear) const;
  /// Element offset of a tile inside the transfer's grid tile.
  int64_t tileElementOffset(const Transfer &t, const Tile &tile) const;
  SmallVector<int64_t> bufferPitch(const Transfer &t) const;
  /// Accesses of `vectorBytes` one vector step of transfer t moves: 1 for
  /// the narrowest buffer type, more for a wider one.
  int64_t piecesOf(const Transfer &t) const {
    return t.esize.bytes.count() / esize.bytes.count();
  }
  /// Per row of a segment: each column operand's held vector broadcasts its
  /// lane 0 into the body's input register and slides to the next row's.
  void broadcastHeldColumns(ktunit::ProgramBuilder &vec, llvm::DenseMap<Value, ktunit::Reg> &reg,
                            Block &body, ArrayRef<size_t> columnLoads,
                            ArrayRef<ktunit::Reg> heldColumn) const {
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      const ComputeInput &in = computeInputs[i];
      if (in.splat || !llvm::is_contained(columnLoads, size_t(in.loadIndex)))
        continue;
      vec.bcast(reg[arg], heldColumn[in.loadIndex], 0, Elements(vectorWidth));
      vec.slide(heldColumn[in.loadIndex], heldColumn[in.loadIndex]);
    }
  }
  /// The DMA unit's access rule to global memory, if the description has one.
  const arch::AccessRule *globalDmaRule() const {
    auto dmaNode = model.lookupNode(dmaUnit);
    auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
    if (!dmaNode || globalMemories.empty())
      return nullptr;
    return model.node(*dmaNode).accessTo(globalMemories.front());
  }
  /// Indices of the column operands among the loads (see isColumnLoad). A
  /// column operand of a wider type than the group's narrowest moves, is
  /// held and is shifted as whole vectors of its own type (several pieces
  /// per vector, joined with `concat`), like any wider load.
  SmallVector<size_t> columnLoadIndices() const {
    SmallVector<size_t> columnLoads;
    for (auto [i, t] : llvm::enumerate(loads))
      if (isColumnLoad(t))
        columnLoads.push_back(i);
    return columnLoads;
  }
  /// Whether the transfer lacks the vector dimension (its element is
  /// broadcast across the lanes: one access per step, whatever its type).
  bool lacksVectorDim(const Transfer &t) const {
    return !llvm::is_contained(t.dims, (int64_t)space.size() - 1);
  }
  /// Two registers receiving (or sending) the pieces of a vector of a wide
  /// type; allocated only when some transfer has several pieces.
  std::optional<std::pair<ktunit::Reg, ktunit::Reg>> pieceRegisters;
  /// Takes the piece registers when a transfer needs them.
  void allocatePieceRegisters(ktunit::ProgramBuilder &vec);
  /// A program of this lowering's bundle.
  std::unique_ptr<ktunit::ProgramBuilder> makeProgram(StringRef name, StringRef unit,
                                                      std::vector<int64_t> instances,
                                                      uint32_t tableColumns = 0) {
    return std::make_unique<ktunit::ProgramBuilder>(unitBundle, name, unit, std::move(instances),
                                                    tableColumns, symbols.names,
                                                    computeStage->getLoc());
  }
  /// A channel of `depth` slots from program `producer` to `consumer`;
  /// `consumerRef` is how the producer names the consumer's instance,
  /// `producerRef` how the consumer names the producer's.
  ktunit::ChannelOp makeChannel(StringRef name, int64_t depth, StringRef producer,
                                StringRef consumer, const dc::NodeRef &consumerRef,
                                const dc::NodeRef &producerRef) {
    OpBuilder b(unitBundle.getContext());
    b.setInsertionPointToStart(&unitBundle.getBody().front());
    MLIRContext *ctx = unitBundle.getContext();
    return ktunit::ChannelOp::create(
        b, computeStage->getLoc(), name, depth, producer, consumer,
        ktunit::ProgramBuilder::nodeRef(ctx, consumerRef),
        ktunit::ProgramBuilder::nodeRef(ctx, producerRef));
  }
  /// The `phase_values = scratchpad` transfers of sub-core instance j's
  /// programs (PhaseScratch.cpp): the slot's channel from the store unit to
  /// the load unit and the hooks PhaseNest emits them through.
  FailureOr<PhaseNest::Spill> phaseScratch(int64_t j, ktunit::ProgramBuilder &ld,
                                           ktunit::ProgramBuilder &vec,
                                           ktunit::ProgramBuilder &st, InstanceTable &ldTable,
                                           InstanceTable &stTable);
  /// A vector of transfer t into register r from `pieces` messages (or, on
  /// two levels, memory accesses: `fetch(reg, type, count, piece)`), joined
  /// with `concat`.
  void gatherPieces(ktunit::ProgramBuilder &vec, ktunit::Reg r, const Transfer &t, int64_t pieces,
                    llvm::function_ref<void(ktunit::Reg, dc::ElemType, Elements, int64_t)> fetch);
  /// Register r of transfer t out in its first `pieces` pieces (all of
  /// them by default; `put(reg, piece)`), cut with `slice`.
  void scatterPieces(ktunit::ProgramBuilder &vec, ktunit::Reg r, const Transfer &t,
                     llvm::function_ref<void(ktunit::Reg, int64_t)> put,
                     std::optional<int64_t> pieces = std::nullopt);
  /// Pieces of the result vector of reduction transfer t at `pos` that hold
  /// results: a row reduction's last, partial result vector of a tile of
  /// `extent` stores only the pieces its valid lanes reach, so a result of
  /// a wide type (an f32 sum of f16 rows) needs no more buffer than its
  /// results' accesses.
  int64_t resultPieces(const Transfer &t, const SpacePosition &pos,
                       ArrayRef<int64_t> extent) const;
  /// Elements of the result vectors of reduction transfer t that a tile of
  /// `extent` stores (whole vectors, the last one in whole pieces).
  int64_t storedResultElements(const Transfer &t, ArrayRef<int64_t> extent) const;
  dc::Address slotAddress(const Transfer &t, int64_t j, int64_t tileIndex) const;

  const arch::ArchModel &model;
  const LowerOptions &options;
  ks::KernelOp kernel;
  ks::GroupOp group;
  LoweredKernel &out;
  ktunit::BundleOp unitBundle;
  KernelSymbols &symbols;

  Operation *outer = nullptr, *computeStage = nullptr;
  SmallVector<int64_t> space, tileShape, shares, loopOrder;
  int64_t splitDim = 0, vectorWidth = 0;
  /// A reducing group: its one reduced dimension and loop nests.
  int64_t reduceDim = -1;
  std::optional<ReductionNest> reduction;
  /// A group of phases (`phases`): lowered as an element-wise group whose
  /// rows are visited once per phase.
  std::optional<PhaseNest> phased;
  /// A streamed group of phases (`residency = streamed`): the columns of a
  /// row one slot holds; every phase reads the row again in such parts.
  std::optional<int64_t> streamColumns;
  /// Streamed row tiles 0..n-1 of every sub-core (n >= 2) that differ only
  /// in where they start, each transfer a constant step further: rolled
  /// into a loop around one tile's code. 0 when there is no such run.
  int64_t streamedTileRun() const;
  /// Parts of a streamed row, and the arguments each phase reads.
  int64_t streamParts = 0;
  SmallVector<ArrayRef<bool>, 3> streamPasses;
  /// The group's scf.for: first induction value per grid tile, step, trips.
  SmallVector<int64_t> loopLower, loopTripsOf;
  int64_t loopStep = 1, loopTrips = 1;
  /// A loop whose upper bound is an unbound launch value's function
  /// (`ub_symbolic`): per grid tile its trip count as an affine expression
  /// of the unbound values (symbol k is launchNames[k]), and the fewest
  /// trips over every admitted value. `tiles` then holds the tiles at the
  /// upperbounds, and tile k of a sub-core runs iff k < tilesPerIteration *
  /// trips: a launch-table entry guards it (openTileGuard).
  SmallVector<AffineExpr> symbolicTrips;
  SmallVector<int64_t> fewestTrips;
  std::vector<std::string> launchNames;
  /// Per sub-core instance.
  SmallVector<int64_t> tilesPerIteration;
  LogicalResult collectSymbolicTrips(DictionaryAttr loop, ArrayRef<int64_t> grid);
public:
  bool symbolic() const { return !symbolicTrips.empty(); }
  /// Opens a loop of 0 or 1 trips around tile k of sub-core j on `program`
  /// (its table rows are the grid tiles `rowCores`), its count a launch-table entry of `table`, when some
  /// admitted launch value does not run tile k; returns whether it did.
  bool openTileGuard(ktunit::ProgramBuilder &program, InstanceTable &table, int64_t j,
                     int64_t k, ArrayRef<int64_t> rowCores);
  /// Closes what openTileGuard opened.
  static void closeTileGuard(ktunit::ProgramBuilder &program, bool opened) {
    if (opened)
      program.closeGuard();
  }
  /// The unbound launch values, for the bundle (`launch_values`).
  void recordUnboundLaunchValues();
private:
  SmallVector<Transfer> loads, stores;
  SmallVector<ComputeInput> computeInputs;
  /// Two scratchpad levels: `dmaUnit` moves global <-> outer buffers
  /// (`loads`, `stores`), `tileDmaUnit` outer <-> inner buffers
  /// (`innerLoads`, `innerStores`), which the compute unit reads and writes.
  bool twoLevel = false;
  std::string tileDmaUnit;
  SmallVector<Transfer> innerLoads, innerStores;
  arch::GroupId coreGroup = 0, subGroup = 0;
  std::optional<arch::NodeId> computeNode;
  std::vector<std::vector<Tile>> tiles; // per sub-core instance
  dc::ElemType elemType = dc::ElemType::F16;
  mlir::Type mlirElemType;
  ElementSize esize{Bytes(2)};
};

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_GROUPLOWERING_H
