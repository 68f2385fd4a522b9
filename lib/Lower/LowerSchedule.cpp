//===- LowerSchedule.cpp - schedule IR to device code ---------------------===//
//
// Strategy. A compute group of the form the scheduler produces for a
// two-level memory path (global --dma--> scratchpad --load unit--> FIFO -->
// compute --> FIFO --store unit--> scratchpad --dma--> global) becomes four
// programs per sub-core instance j: the DMA's (one per core, serving every
// sub-core), the load unit's, the compute unit's and the store unit's. All
// of them are SPMD over the cores: a core's grid tile only changes the
// global byte offsets (one table column per transfer) and the peer
// instances the DMA signals (table columns), so one program serves every
// core.
//
// Tiles of one sub-core instance are unrolled (each with its own origin and
// extent, so a ragged edge tile moves exactly its valid bytes); the vectors
// of a tile are counted loops whose addresses step with `+iD*S` terms.
// N-buffering is slot `tile % depth` of each buffer. Synchronisation:
//   DMA  --signal ld sem 0-->  "input slots of tile k are full"
//   ld   --signal dma sem 2j--> "input slots of tile k are free"
//   st   --signal dma sem 2j+1--> "output slots of tile k are full"
//   DMA  --signal st sem 0-->  "output slots of tile k are free"
// The DMA runs loads `depth - 1` tiles ahead of stores, which keeps every
// unit busy and cannot deadlock (checked by sim::checkDeadlockFree before
// the bundle is returned). At the end of a group every unit drains the
// signals still owed, so the next group starts from zeroed semaphores.
//
// With two scratchpad levels (global --outer dma--> shared memory --per-core
// dma--> memory the compute unit reads and writes directly), the outer DMA
// serves every core from one program, the per-core DMA copies whole slots
// between the levels, and the compute unit vloads/vstores its vectors; each
// buffer hand-off is a full/free semaphore pair (see emitTwoLevel).
//
// A group with a reduced dimension keeps all of this; only the order in
// which the load, compute and store units visit vectors and what the
// compute unit does with them change (ReductionNest.cpp: lane-wise folds,
// reduce + slide per row). Each tile's results must be one legal DMA run
// (checkReductionStores; the scheduler merges grid tiles so they are,
// where the tiles are contiguous); a last run ending at the tensor's end
// is widened into the symbol's padding.
//
// Reads may over-fetch, writes never (a neighbour's bytes must not be
// over-written): a single-run load that is not a legal DMA access reads the
// smallest legal run around it, and a column operand's slice that starts
// inside a DMA unit (a grid tile of a few rows) is read from the unit it
// starts in; the compute unit then moves the values down to lane 0 with
// `ext`, its lane per core from the program's table (planColumnLeads).
//
// Buffers of a group may hold different element types (an f16 input of an
// f32 sum). Each moves its own elements; a vector step is as many elements
// as fill one compute vector's bytes with the narrowest type, so a wider
// type's step is several accesses of those bytes, which the compute unit
// joins with `concat` after receiving (or loading) them and cuts with
// `slice` before sending (or storing).
//
// Compute bodies map ktsched.vop kinds to vector instructions through the
// scheduler's supported-op table (the op class the table assigns is the
// instruction's op class), so the input check and the lowering agree.
// Everything outside this form is diagnosed at the schedule op.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Lower/LowerSchedule.h"

#include "ReductionNest.h"
#include "ktflow/Lower/MergeGroupPrograms.h"

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SupportedOps.h"
#include "ktflow/Sim/StaticChecks.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
namespace ks = ktflow::ktsched;

namespace {

/// The value of decision `name` on `op`, or null when the op carries no
/// such decision: every reader diagnoses a missing one (DESIGN.md
/// principle 6: the lowering never substitutes a default for a decision).
Attribute decisionValue(Operation *op, StringRef name) {
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr(name)))
    return decision.getValue();
  return {};
}

SmallVector<int64_t> i64Array(Attribute attr) {
  if (auto array = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef());
  return {};
}

int64_t i64Of(Attribute attr, int64_t fallback = 0) {
  if (auto value = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return value.getInt();
  return fallback;
}

/// The vector register type of an MLIR element type, if it has one.
std::optional<dc::ElemType> registerType(Type type) {
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
  int64_t depth = 1;
  /// A column load whose slices do not all start on a DMA unit: each is
  /// read from the unit it starts in (GroupLowering::planColumnLeads).
  bool overFetch = false;
  /// A load whose tile region is the same for every tile (and loop
  /// iteration) of every sub-core instance: copied once per instance into
  /// slot 0 of its buffer, which every tile's compute then reads.
  bool hoisted = false;
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
  /// Appends these columns to `program`'s table (which has `firstColumn`).
  void install(dc::Program &program) const {
    if (columns == 0)
      return;
    assert(program.tableColumns == firstColumn && "columns numbered after another table");
    if (program.table.empty())
      program.table.assign(rows.size(), {});
    for (size_t i = 0; i < rows.size() && i < program.table.size(); ++i)
      program.table[i].insert(program.table[i].end(), rows[i].begin(), rows[i].end());
    program.tableColumns += columns;
  }

private:
  std::vector<std::vector<int64_t>> rows;
  uint32_t firstColumn = 0, columns = 0;
};

/// Where a compute input comes from.
struct ComputeInput {
  int loadIndex = -1;          ///< Index into the load transfers, or
  std::optional<double> splat; ///< a scalar argument's value.
};

class GroupLowering {
public:
  GroupLowering(const arch::ArchModel &model, const LowerOptions &options,
                ks::KernelOp kernel, ks::GroupOp group, LoweredKernel &out)
      : model(model), options(options), kernel(kernel), group(group), out(out) {}

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
  /// Emits the compute body for one vector step (inputs already in their
  /// registers); `sink(i, reg)` takes result i.
  /// `fixed` names result registers chosen by the caller (a reduction's
  /// accumulator); reductions themselves are ReductionNest's.
  LogicalResult emitBody(dc::ProgramBuilder &vec, llvm::DenseMap<Value, uint8_t> &reg,
                         unsigned &nextReg,
                         llvm::function_ref<void(unsigned, uint8_t)> sink,
                         const llvm::DenseMap<Value, uint8_t> *fixed = nullptr);
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
  void copyTile(dc::ProgramBuilder &dma, const Transfer &t, uint32_t symbol,
                std::optional<uint32_t> column, Bytes gridBytes, const Tile &tile,
                dc::Address local, bool isLoad, InstanceTable *perCore = nullptr);
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
    Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
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
  LogicalResult resolveTransfer(Operation *stage, ArrayAttr transfers, unsigned index,
                                Value bufferValue, Transfer &t);
  /// Byte offset of a transfer's grid-tile origin on grid tile `linear`.
  FailureOr<int64_t> gridOffset(const Transfer &t, int64_t linear);
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
  void broadcastHeldColumns(dc::ProgramBuilder &vec, llvm::DenseMap<Value, uint8_t> &reg,
                            Block &body, ArrayRef<size_t> columnLoads,
                            ArrayRef<uint8_t> heldColumn) const {
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
  /// Indices of the column operands among the loads (see isColumnLoad),
  /// checked against checkColumnTypes().
  FailureOr<SmallVector<size_t>> columnLoadIndices() const {
    SmallVector<size_t> columnLoads;
    for (auto [i, t] : llvm::enumerate(loads))
      if (isColumnLoad(t))
        columnLoads.push_back(i);
    if (!columnLoads.empty() && failed(checkColumnTypes()))
      return failure();
    return columnLoads;
  }
  /// Column operands are pushed, shifted (`ext`) and slid in the group's
  /// one register type: a group of several buffer element types (a step of
  /// a wider type is several accesses) is diagnosed.
  LogicalResult checkColumnTypes() const {
    for (const Transfer &t : llvm::concat<const Transfer>(loads, stores))
      if (t.regType != elemType)
        return t.tensor.emitError("a column operand in a group of '")
               << dc::elemTypeName(elemType) << "' and " << t.tensor.getElementType()
               << " buffers: column operands beside element type conversions are not lowered";
    return success();
  }
  /// Whether the transfer lacks the vector dimension (its element is
  /// broadcast across the lanes: one access per step, whatever its type).
  bool lacksVectorDim(const Transfer &t) const {
    return !llvm::is_contained(t.dims, (int64_t)space.size() - 1);
  }
  /// Two registers receiving (or sending) the pieces of a vector of a wide
  /// type; allocated only when some transfer has several pieces.
  std::optional<std::pair<uint8_t, uint8_t>> pieceRegisters;
  /// Reserves the piece registers at `nextReg` when a transfer needs them.
  LogicalResult allocatePieceRegisters(unsigned &nextReg);
  /// A vector of transfer t into register r from `pieces` messages (or, on
  /// two levels, memory accesses: `fetch(reg, type, count, piece)`), joined
  /// with `concat`.
  void gatherPieces(dc::ProgramBuilder &vec, uint8_t r, const Transfer &t, int64_t pieces,
                    llvm::function_ref<void(uint8_t, dc::ElemType, Elements, int64_t)> fetch);
  /// Register r of transfer t out in its first `pieces` pieces (all of
  /// them by default; `put(reg, piece)`), cut with `slice`.
  void scatterPieces(dc::ProgramBuilder &vec, uint8_t r, const Transfer &t,
                     llvm::function_ref<void(uint8_t, int64_t)> put,
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

  Operation *outer = nullptr, *computeStage = nullptr;
  SmallVector<int64_t> space, tileShape, shares, loopOrder;
  int64_t splitDim = 0, vectorWidth = 0;
  /// A reducing group: its one reduced dimension and loop nests.
  int64_t reduceDim = -1;
  std::optional<ReductionNest> reduction;
  /// The group's scf.for: first induction value per grid tile, step, trips.
  SmallVector<int64_t> loopLower, loopTripsOf;
  int64_t loopStep = 1, loopTrips = 1;
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
  /// The compute unit's vector registers, as its description gives them.
  unsigned registerCount() const { return unsigned(model.vectorRegisterCount(*computeNode)); }
  std::vector<std::vector<Tile>> tiles; // per sub-core instance
  dc::ElemType elemType = dc::ElemType::F16;
  mlir::Type mlirElemType;
  ElementSize esize{Bytes(2)};
};

LogicalResult GroupLowering::resolveTransfer(Operation *stage, ArrayAttr transfers,
                                             unsigned index, Value bufferValue, Transfer &t) {
  if (!transfers || index >= transfers.size())
    return stage->emitError("stage has no transfer ") << index;
  auto dict = llvm::dyn_cast<DictionaryAttr>(transfers[index]);
  auto tensorRef = dict ? dict.getAs<FlatSymbolRefAttr>("tensor") : nullptr;
  if (!tensorRef)
    return stage->emitError("transfer ") << index << " names no tensor";
  t.tensor = kernel.lookupSymbol<ks::TensorOp>(tensorRef.getValue());
  if (!t.tensor)
    return stage->emitError("unknown tensor ") << tensorRef;
  t.arg = t.tensor.getArg();
  auto size = dc::elementSizeOf(
      [&] {
        std::string s;
        llvm::raw_string_ostream os(s);
        t.tensor.getElementType().print(os);
        return s;
      }());
  if (!size)
    return stage->emitError("element type ") << t.tensor.getElementType()
                                             << " has no device-code size";
  t.esize = *size;
  t.regType = registerType(t.tensor.getElementType());
  auto origin = dict.getAs<AffineMapAttr>("origin");
  if (!origin)
    return stage->emitError("transfer ") << index << " has no origin";
  t.origin = origin.getValue();
  t.shape = i64Array(dict.get("shape"));
  t.dims = i64Array(dict.get("dims"));
  if (t.tensor.getStrides().empty() || t.tensor.getStrides().back() != 1)
    return stage->emitError("transfer of @")
           << t.tensor.getSymName() << " is not contiguous in its last dimension: "
           << "strided element transfers are not lowered";
  t.buffer = bufferValue.getDefiningOp<ks::BufferOp>();
  if (!t.buffer)
    return stage->emitError("transfer ") << index << " does not go through a buffer";
  Operation *b = t.buffer;
  auto memory = b->getAttrOfType<StringAttr>("memory");
  t.memory = memory ? memory.getValue().str() : "";
  t.address = Bytes(i64Of(decisionValue(b, "address"), -1));
  t.bytes = Bytes(i64Of(b->getAttr("bytes")));
  t.depth = i64Of(decisionValue(b, "depth"), 0);
  t.instanceStride = Bytes(i64Of(b->getAttr("instance_stride")));
  if (t.address.count() < 0 || t.memory.empty() || t.depth < 1)
    return b->emitError("buffer is not allocated (no memory, address or depth)");
  return success();
}

LogicalResult GroupLowering::collect() {
  // The outer pipeline and its stages.
  auto pipelines = group.getBody().getOps<ks::PipelineOp>();
  if (std::distance(pipelines.begin(), pipelines.end()) != 1)
    return group.emitError("group must hold exactly one pipeline");
  outer = *pipelines.begin();
  SmallVector<int64_t> reduceDims = i64Array(group->getAttr("reduce_dims"));
  if (reduceDims.size() > 1)
    return group.emitError("a reduction over ") << reduceDims.size()
                                               << " dimensions is not lowered";
  if (!reduceDims.empty())
    reduceDim = reduceDims.front();
  space = i64Array(group->getAttr("space"));
  tileShape = i64Array(decisionValue(outer, "tile"));
  loopOrder = i64Array(decisionValue(outer, "loop_order"));
  auto split = llvm::dyn_cast_or_null<DictionaryAttr>(decisionValue(outer, "split"));
  if (space.empty() || tileShape.size() != space.size() || !split)
    return outer->emitError("pipeline lacks tile or split decisions");
  splitDim = i64Of(split.get("dim"));
  shares = i64Array(split.get("shares"));
  if (restriction && restriction->space.size() == space.size() && splitDim >= 0 &&
      splitDim < (int64_t)space.size()) {
    // A partly masked grid tile: the split's instances share what is valid
    // of the split dimension (rebalanced below, once the vector is known).
    space = restriction->space;
  }
  if (loopOrder.size() != space.size())
    return outer->emitError("pipeline lacks a `loop_order` decision over its ")
           << space.size() << " dimensions";

  Operation *dmaLoad = nullptr, *nested = nullptr, *dmaStore = nullptr;
  for (Operation &op : outer->getRegion(0).front()) {
    auto stage = llvm::dyn_cast<ks::StageOp>(op);
    if (!stage)
      continue;
    StringRef role = stage.getRole();
    if (role == "dma_load")
      dmaLoad = stage;
    else if (role == "nested")
      nested = stage;
    else if (role == "dma_store")
      dmaStore = stage;
    else
      return stage.emitError("stage '") << role << "' at the tile level is not lowered";
  }
  if (!dmaLoad || !nested || !dmaStore)
    return outer->emitError("pipeline is not of the form dma_load, nested, dma_store");
  auto unitOf = [&](Operation *stage) -> std::string {
    if (auto name = llvm::dyn_cast_or_null<StringAttr>(decisionValue(stage, "unit")))
      return name.getValue().str();
    return "";
  };
  dmaUnit = unitOf(dmaLoad);
  if (unitOf(dmaStore) != dmaUnit)
    return dmaStore->emitError("loads and stores on different DMA units are not lowered");

  // The inner (vector) pipeline.
  Operation *inner = nullptr;
  for (Operation &op : nested->getRegion(0).front())
    if (llvm::isa<ks::PipelineOp>(op))
      inner = &op;
  if (!inner)
    return nested->emitError("nested stage holds no pipeline");
  Operation *ldStage = nullptr, *stStage = nullptr;
  // A second scratchpad level (a per-core DMA between the outer buffers
  // and buffers the compute unit reads and writes directly).
  for (Operation &op : inner->getRegion(0).front())
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op); stage && stage.getRole() == "dma_load")
      twoLevel = true;
  if (twoLevel) {
    if (failed(collectTwoLevelStages(dmaLoad, dmaStore, inner)))
      return failure();
  } else {
  for (Operation &op : inner->getRegion(0).front()) {
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op)) {
      StringRef role = stage.getRole();
      if (role == "load")
        ldStage = stage;
      else if (role == "compute")
        computeStage = stage;
      else if (role == "store")
        stStage = stage;
      else
        return stage.emitError("stage '")
               << role << "' inside a tile is not lowered (only load, compute, store: "
               << "one scratchpad level)";
    }
  }
  if (!ldStage || !computeStage || !stStage)
    return inner->emitError("inner pipeline is not of the form load, compute, store");
  ldUnit = unitOf(ldStage);
  computeUnit = unitOf(computeStage);
  stUnit = unitOf(stStage);
  vectorWidth = i64Of(decisionValue(computeStage, "vector"));
  if (vectorWidth <= 0)
    return computeStage->emitError("compute stage has no vector width");

  // Loads: the dma_load's transfers, read back by the load stage in order.
  auto loadTransfers = dmaLoad->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(ldStage->getOperands())) {
    Transfer t;
    if (failed(resolveTransfer(ldStage, loadTransfers, i, value, t)))
      return failure();
    loads.push_back(t);
  }
  // Stores: the store stage's results are the nested stage's results, each
  // buffered and then stored by dma_store in operand order.
  auto storeTransfers = dmaStore->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(dmaStore->getOperands())) {
    Transfer t;
    if (failed(resolveTransfer(dmaStore, storeTransfers, i, value, t)))
      return failure();
    stores.push_back(t);
  }

  // Compute inputs: FIFOs from the load stage, or scalar arguments.
  if (failed(collectComputeInputs(ldStage)))
    return failure();
  }

  // Element types. The group computes in its element type; each buffer
  // holds its own, and the body converts with `cast` vops. Messages and
  // memory accesses move buffer elements: a step is as many elements as
  // fill the bytes of one compute vector with the narrowest buffer type
  // (ks::vectorStep, which the scheduler's splits and tiles use too), so
  // the narrowest buffers move one access of `vectorBytes` per step and a
  // wider one several (`pieces`), joined in a register by `concat` and cut
  // for the store unit by `slice`. f16 and f32 buffers of an f32 group on
  // sample: 16 lanes x 4 bytes = 64 bytes = 32 elements per step; an f32
  // buffer moves two 64-byte accesses per step, and the f32 registers of 32
  // elements take two issues per op.
  mlirElemType = group.getElementType();
  auto groupType = registerType(mlirElemType);
  if (!groupType)
    return group.emitError("element type ") << mlirElemType << " has no vector registers";
  Bytes computeBytes = toBytes(Elements(vectorWidth), dc::elemTypeSize(*groupType));
  elemType = *groupType;
  const Transfer *narrowest = nullptr;
  for (const Transfer &t : llvm::concat<const Transfer>(loads, stores)) {
    if (!t.regType)
      return t.tensor.emitError("element type ")
             << t.tensor.getElementType() << " has no vector registers";
    if (!narrowest || t.esize.bytes < narrowest->esize.bytes)
      narrowest = &t;
  }
  if (narrowest)
    elemType = *narrowest->regType;
  esize = dc::elemTypeSize(elemType);
  vectorWidth = ks::vectorStep(group, vectorWidth);
  if (toBytes(Elements(vectorWidth), esize) != computeBytes)
    return group.emitError("a vector of ")
           << computeBytes.count() << " bytes is not a whole number of "
           << dc::elemTypeName(elemType) << " elements: element type conversions are not lowered";
  for (const Transfer &t : llvm::concat<const Transfer>(loads, stores))
    if (t.esize.bytes.count() % esize.bytes.count() != 0)
      return t.tensor.emitError("a ")
             << t.tensor.getElementType() << " buffer next to a " << dc::elemTypeName(elemType)
             << " buffer: a step of the narrower is not whole accesses of the wider, "
                "element type conversions between buffer types are not lowered";
  for (Operation &op : computeStage->getRegion(0).front())
    for (Type type : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
      if (!registerType(mlir::getElementTypeOrSelf(type)))
        return op.emitError("a ") << mlir::getElementTypeOrSelf(type)
                                  << " value has no vector registers";
  // Each input register is received in its buffer's type and each result
  // sent in its buffer's: the body's values must agree with them.
  Block &computeBody = computeStage->getRegion(0).front();
  for (auto [i, arg] : llvm::enumerate(computeBody.getArguments()))
    if (i < computeInputs.size() && computeInputs[i].loadIndex >= 0) {
      const Transfer &t = (twoLevel ? innerLoads : loads)[computeInputs[i].loadIndex];
      if (registerType(arg.getType()) != t.regType)
        return computeStage->emitError("a ")
               << arg.getType() << " input loaded from a " << t.tensor.getElementType()
               << " buffer: not lowered";
    }
  if (reduceDim >= 0) {
    auto nest = ReductionNest::analyze(computeStage, space, reduceDim, vectorWidth, elemType);
    if (failed(nest))
      return failure();
    reduction = std::move(*nest);
    SmallVector<bool> splat;
    for (const ComputeInput &in : computeInputs)
      splat.push_back(in.splat.has_value());
    reduction->setSplatArguments(splat);
  }

  // Units and instances. Cores are the instances of the DMA's group; the
  // sub-core instances those of the load unit's group inside one core.
  if (twoLevel) {
    if (failed(collectTwoLevelUnits()))
      return failure();
  } else {
  auto dmaNode = model.lookupNode(dmaUnit), ldNode = model.lookupNode(ldUnit),
       stNode = model.lookupNode(stUnit);
  computeNode = model.lookupNode(computeUnit);
  if (!dmaNode || !ldNode || !stNode || !computeNode)
    return group.emitError("schedule names a unit the description lacks");
  coreGroup = model.node(*dmaNode).group;
  subGroup = model.node(*ldNode).group;
  cores = model.instanceCount(coreGroup);
  subcores = model.instanceCount(subGroup) / cores;
  if ((int64_t)shares.size() > subcores)
    return outer->emitError("split over ") << shares.size() << " instances but a core has "
                                           << subcores;
  }
  auto grid = kernel.getGrid();
  int64_t gridTiles = grid[0] * grid[1] * grid[2];
  if (restriction && llvm::any_of(restriction->cores, [&](int64_t c) {
        return coreOf(c) < 0 || coreOf(c) >= cores;
      }))
    return kernel.emitError("a round of grid tiles does not fit the ") << cores << " cores";
  // The group's loop: every grid tile must run the same number of
  // iterations, so one program (unrolled over them) serves every core.
  if (auto loop = group->getAttrOfType<DictionaryAttr>("loop")) {
    auto lbMap = loop.getAs<AffineMapAttr>("lb"), ubMap = loop.getAs<AffineMapAttr>("ub");
    loopStep = i64Of(loop.get("step"), 0);
    if (!lbMap || !ubMap || loopStep <= 0)
      return group.emitError("group loop lacks lb, ub or a positive step");
    for (int64_t c = 0; c < gridTiles; ++c) {
      SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1],
                                     c / (grid[0] * grid[1])};
      coords.resize(lbMap.getValue().getNumDims(), 0);
      int64_t lb = lbMap.getValue().compose(coords)[0];
      coords.resize(ubMap.getValue().getNumDims(), 0);
      int64_t ub = ubMap.getValue().compose(coords)[0];
      int64_t trips = ub > lb ? (ub - lb + loopStep - 1) / loopStep : 0;
      loopTripsOf.push_back(trips);
      loopLower.push_back(lb);
    }
    // One program is unrolled over the iterations: the tiles lowered
    // together run the same number (coreClasses() separates the others).
    loopTrips = restriction && !restriction->cores.empty()
                    ? loopTripsOf[restriction->cores.front()]
                    : loopTripsOf.front();
    if (restriction)
      for (int64_t c : restriction->cores)
        if (loopTripsOf[c] != loopTrips)
          return group.emitError("grid tiles run different numbers of loop iterations (")
                 << loopTrips << " and " << loopTripsOf[c] << "): not lowered";
  } else {
    loopLower.assign(gridTiles, 0);
    loopTripsOf.assign(gridTiles, 1);
  }
  ldInstances.assign(gridTiles, {});
  stInstances.assign(gridTiles, {});
  for (int64_t c = 0; c < gridTiles; ++c) {
    if (!restriction || llvm::is_contained(restriction->cores, c))
      coreIds.push_back(c);
    for (int64_t i = 0; i < model.instanceCount(subGroup); ++i)
      if (model.ancestorInstance(subGroup, i, coreGroup) == coreOf(c)) {
        ldInstances[c].push_back(i);
        stInstances[c].push_back(i);
      }
  }

  if (restriction && restriction->space.size() == space.size() && splitDim >= 0 &&
      splitDim < (int64_t)space.size()) {
    // The schedule's shares of the class's valid extent (ktsched-classify-tiles).
    if (restriction->shares.size() != shares.size())
      return outer->emitError("a class of grid tiles has ")
             << restriction->shares.size() << " shares, the split " << shares.size();
    shares = restriction->shares;
  }

  // Tiles of each sub-core instance, in loop order (outermost first).
  int64_t start = 0;
  for (int64_t share : shares) {
    SmallVector<int64_t> lo(space.size(), 0), hi(space.begin(), space.end());
    lo[splitDim] = start;
    hi[splitDim] = start + share;
    start += share;
    std::vector<Tile> list;
    for (int64_t iteration = 0; iteration < loopTrips; ++iteration) {
    SmallVector<int64_t> counts;
    for (size_t d = 0; d < space.size(); ++d)
      counts.push_back((hi[d] - lo[d] + tileShape[d] - 1) / tileShape[d]);
    SmallVector<int64_t> index(space.size(), 0);
    int64_t total = 1;
    for (int64_t c : counts)
      total *= c;
    for (int64_t n = 0; n < total; ++n) {
      // Decompose n over loopOrder (last = fastest).
      int64_t rest = n;
      for (int k = (int)loopOrder.size() - 1; k >= 0; --k) {
        int64_t d = loopOrder[k];
        index[d] = rest % counts[d];
        rest /= counts[d];
      }
      Tile tile;
      tile.iteration = iteration;
      for (size_t d = 0; d < space.size(); ++d) {
        int64_t o = lo[d] + index[d] * tileShape[d];
        tile.origin.push_back(o);
        tile.extent.push_back(std::min(tileShape[d], hi[d] - o));
      }
      list.push_back(tile);
    }
    }
    tiles.push_back(std::move(list));
  }

  if (reduction) {
    if (!deferStoreChecks && failed(checkReductionStores()))
      return failure();
    for (auto [i, t] : llvm::enumerate(stores)) {
      const ReducedOutput &r = reduction->outputs()[std::min(i, reduction->outputs().size() - 1)];
      out.reducedOutputs.push_back({t.arg, dc::combinerName(r.combiner).str(),
                                    space[reduceDim]});
    }
  }

  if (failed(planColumnLeads()))
    return failure();

  // The roofline's work: bytes along the routes, compute per element.
  int64_t elementsPerGridTile = loopTrips;
  for (int64_t s : space)
    elementsPerGridTile *= s;
  auto memNode = model.lookupNode(loads.empty() ? stores.front().memory : loads.front().memory);
  auto globalNodes = model.memoriesBacking(arch::KtirSpace::Global);
  if (memNode && !globalNodes.empty()) {
    auto charge = [&](arch::NodeId from, arch::NodeId to, Bytes bytes) {
      if (auto route = model.route({from, 0}, {to, 0}))
        model.addRouteTraffic(out.workload, *route, bytes);
    };
    // Only this lowering's cores, and of a partly masked grid tile only its
    // valid points.
    int64_t activeTiles = coreIds.size();
    auto validElements = [&](const Transfer &t) {
      int64_t n = 1;
      for (size_t i = 0; i < t.shape.size(); ++i)
        n *= i < t.dims.size() && t.dims[i] >= 0 ? space[t.dims[i]] : t.shape[i];
      return n;
    };
    for (const Transfer &t : loads) {
      Bytes bytes = toBytes(Elements(validElements(t) * activeTiles * loopTrips), t.esize);
      charge(globalNodes.front(), *memNode, bytes);
      // Each buffer's elements in its own type (an f32 input of an f16
      // output moves twice the bytes per element).
      charge(*memNode, *computeNode,
             toBytes(Elements(elementsPerGridTile * activeTiles), t.esize));
    }
    for (const Transfer &t : stores) {
      // A reduction sends only its results back.
      int64_t sent = reduction ? validElements(t) * activeTiles * loopTrips
                               : elementsPerGridTile * activeTiles;
      charge(*computeNode, *memNode, toBytes(Elements(sent), t.esize));
      charge(*memNode, globalNodes.front(),
             toBytes(Elements(validElements(t) * activeTiles * loopTrips), t.esize));
    }
    // The grid fixes how many cores work: the kernel's physical limit is that
    // of those cores (a one-tile kernel is bound by one core's path, not by
    // the whole chip's). It is the grid the kernel was written with: merging
    // grid tiles (the `merge` decision) is the scheduler giving up cores, a
    // cost the ratio to the bound must show rather than hide.
    int64_t kernelTiles = gridTiles;
    if (auto merge = llvm::dyn_cast_or_null<DictionaryAttr>(
            decisionValue(kernel.getOperation(), "merge")))
      kernelTiles *= std::max<int64_t>(1, i64Of(merge.get("factor"), 1));
    llvm::SmallVector<arch::GroupId, 4> chain =
        model.groupChain(model.node(*computeNode).group);
    if (chain.size() > 1)
      out.workload.setActiveInstances(
          chain[1], std::min<int64_t>(kernelTiles, model.group(chain[1]).count));
    Block &body = computeStage->getRegion(0).front();
    for (Operation &op : body)
      if (auto vop = llvm::dyn_cast<ks::VectorOp>(op)) {
        StringRef kind = vop.getKind();
        if (reduction && ReductionNest::isReductionOnly(vop)) {
          // A fold is one combine per element, plus (folding the last
          // dimension) one cross-lane reduce per result.
          if (kind != "reduce")
            continue;
          auto combiner = vop->getAttrOfType<StringAttr>("combiner");
          out.workload.addCompute(*computeNode, combiner ? combiner.getValue() : "add",
                                  mlirElemType, elementsPerGridTile * gridTiles);
          if (reduction->isRowReduction())
            out.workload.addCompute(*computeNode, "reduce", mlirElemType,
                                    elementsPerGridTile * gridTiles / space[reduceDim] *
                                        vectorWidth);
          continue;
        }
        StringRef opClass = kind == "const" ? "copy" : kind;
        out.workload.addCompute(*computeNode, opClass, mlirElemType,
                                elementsPerGridTile * activeTiles);
      }
  }
  return success();
}

dc::Address GroupLowering::positionAddress(const Transfer &t, dc::Address slot,
                                           const SpacePosition &pos, bool &broadcast) const {
  SmallVector<int64_t> pitch = bufferPitch(t);
  broadcast = true;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t d = t.dims[i];
    if (d < 0)
      continue;
    if (d == (int64_t)space.size() - 1)
      broadcast = false;
    slot.offset = slot.offset + Bytes(pitch[i] * pos.constant[d]);
    for (auto [depth, multiplier] : pos.terms[d])
      slot.terms.push_back({depth, Bytes(pitch[i] * multiplier), 0});
  }
  return slot;
}

LogicalResult GroupLowering::markHoistedLoads() {
  for (Transfer &t : loads) {
    auto hoist = llvm::dyn_cast_or_null<BoolAttr>(decisionValue(t.buffer.getOperation(), "hoist"));
    if (!hoist)
      return t.buffer.emitError("buffer lacks the `hoist` decision (ktsched-order-transfers)");
    t.hoisted = hoist.getValue();
    if (!t.hoisted)
      continue;
    // A hoisted copy serves every tile of the instance, so its region must
    // be the same for all of them; a plan can claim otherwise.
    auto varies = [&] {
      if (isColumnLoad(t))
        return true;
      for (const std::vector<Tile> &list : tiles)
        for (const Tile &tile : list) {
          if (tileElementOffset(t, tile) != tileElementOffset(t, list.front()))
            return true;
          for (int64_t d : t.dims)
            if (d >= 0 && tile.extent[d] != list.front().extent[d])
              return true;
        }
      return false;
    };
    if (varies())
      return t.buffer.emitError("the load of @")
             << t.tensor.getSymName()
             << " is hoisted (copied once per sub-core instance) but its tile region "
                "changes between tiles";
  }
  return success();
}

FailureOr<int64_t> GroupLowering::leadOfLoads(int64_t inputDepth) {
  auto lead = llvm::dyn_cast_or_null<IntegerAttr>(decisionValue(outer, "lead"));
  if (!lead)
    return outer->emitError("pipeline lacks the `lead` decision (ktsched-order-transfers)");
  if (lead.getInt() < 0 || lead.getInt() > inputDepth - 1)
    return outer->emitError("lead ") << lead.getInt() << " is outside [0, " << inputDepth - 1
                                     << "] for input buffers of depth " << inputDepth;
  return lead.getInt();
}

bool GroupLowering::isColumnLoad(const Transfer &t) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  return !reduction && rowDim >= 0 && !t.dims.empty() &&
         llvm::all_of(t.dims, [&](int64_t d) { return d == rowDim; });
}

SmallVector<RowSegment, 2> GroupLowering::rowSegments(const Tile &tile) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  SmallVector<RowSegment, 2> segments;
  int64_t rows = tile.extent[rowDim], blocks = rows / vectorWidth;
  if (blocks > 0)
    segments.push_back({blocks, vectorWidth, 0});
  if (rows % vectorWidth != 0)
    segments.push_back({1, rows % vectorWidth, blocks * vectorWidth});
  return segments;
}

dc::Address GroupLowering::segmentAddress(const Transfer &t, dc::Address address,
                                          const RowSegment &seg) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  SmallVector<int64_t> pitch = bufferPitch(t);
  bool column = llvm::all_of(t.dims, [&](int64_t e) { return e == rowDim; });
  for (size_t i = 0; i < t.dims.size(); ++i) {
    int64_t d = t.dims[i];
    if (d < 0)
      continue;
    if (d < rowDim) {
      address.terms.push_back({uint32_t(d), Bytes(pitch[i]), 0});
    } else if (d == rowDim) {
      address.offset = address.offset + Bytes(pitch[i] * seg.rowOffset);
      address.terms.push_back({uint32_t(rowDim), Bytes(pitch[i] * vectorWidth), 0});
      if (!column)
        address.terms.push_back({uint32_t(rowDim + 1), Bytes(pitch[i]), 0});
    } else {
      address.terms.push_back({uint32_t(rowDim + 2), Bytes(pitch[i] * vectorWidth), 0});
    }
  }
  return address;
}

LogicalResult GroupLowering::planColumnLeads() {
  const arch::AccessRule *rule = globalDmaRule();
  if (!rule || rule->alignment.count() <= 1)
    return success();
  overFetchUnit = rule->alignment;
  for (Transfer &t : loads) {
    // A slice must start on a whole element of the unit to be addressed by
    // lanes; otherwise its DMA start is diagnosed.
    if (!isColumnLoad(t) || !overFetchUnit.isAlignedTo(t.esize.bytes))
      continue;
    for (int64_t c : coreIds) {
      FailureOr<int64_t> offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      for (const std::vector<Tile> &list : tiles)
        for (const Tile &tile : list)
          t.overFetch |= !(Bytes(*offset) + toBytes(Elements(tileElementOffset(t, tile)), t.esize))
                              .isAlignedTo(overFetchUnit);
    }
  }
  return success();
}

std::optional<Bytes> GroupLowering::coveringLoadRun(const Transfer &t, Bytes need) const {
  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  auto local = model.lookupNode(t.memory);
  if (!dmaNode || globalMemories.empty() || !local)
    return std::nullopt;
  Bytes size = need, multiple(1);
  std::optional<Bytes> limit;
  for (arch::NodeId memory : {globalMemories.front(), *local}) {
    const arch::AccessRule *rule = model.node(*dmaNode).accessTo(memory);
    if (!rule)
      return std::nullopt;
    size = std::max(size, rule->minSize);
    multiple = Bytes(std::lcm(multiple.count(), std::max<int64_t>(1, rule->sizeMultiple.count())));
    limit = limit ? std::min(*limit, rule->maxSize) : rule->maxSize;
  }
  size = size.alignTo(multiple);
  if (limit && size > *limit)
    return std::nullopt;
  return size;
}

/// A reduction's results leave the compute unit as whole vectors (a row
/// reduction's last vector of a tile padded, and of a wide result type only
/// its pieces that hold results), so each result buffer must hold them;
/// and each tile's results are one DMA run into global memory, which must
/// be a legal access there. Cores never share a DMA access (no
/// read-modify-write of a neighbour's results), so a run below the DMA's
/// minimum is not lowered; the scheduler merges grid tiles to avoid that
/// where it can (MergeGridTiles), so what reaches here had no such merge.
LogicalResult GroupLowering::checkReductionStores() {
  int64_t resultDim = reduction->resultDim();
  auto resultOp = [&](size_t i) -> Operation * {
    auto outs = reduction->outputs();
    return i < outs.size() ? outs[i].op : group.getOperation();
  };
  auto checkBuffer = [&](const Transfer &t, size_t i) -> LogicalResult {
    if (resultDim >= 0 && (t.dims.empty() || t.dims.back() != resultDim))
      return resultOp(i)->emitError("a reduction result stored across its vector dimension: "
                                    "not lowered");
    int64_t rows = 1;
    for (size_t k = 0; k + 1 < t.dims.size(); ++k)
      rows *= t.dims[k] >= 0 ? tileShape[t.dims[k]] : t.shape[k];
    int64_t valid = resultDim >= 0 ? tileShape[resultDim] : 1;
    int64_t padded = reduction->resultElements(tileShape);
    if (rows > 1 && padded != valid)
      return resultOp(i)->emitError("reduction results in rows of ")
             << valid << " elements, not whole " << vectorWidth
             << "-element vectors: padded result rows are not lowered";
    Bytes need = toBytes(Elements(storedResultElements(t, tileShape) * rows), t.esize);
    if (t.bytes < need)
      return resultOp(i)->emitError("result buffer of ")
             << t.bytes.count() << " bytes cannot take the " << need.count()
             << " bytes of whole result vectors: not lowered";
    return success();
  };
  // The buffer the compute side writes (with two levels, the outer one
  // receives only the valid bytes).
  for (auto [i, t] : llvm::enumerate(stores))
    if (failed(checkBuffer(twoLevel ? innerStores[i] : t, i)))
      return failure();

  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  if (!dmaNode || globalMemories.empty())
    return success();
  const arch::AccessRule *rule = model.node(*dmaNode).accessTo(globalMemories.front());
  if (!rule)
    return success();
  std::string memoryName = model.node(globalMemories.front()).name;
  // Why the scheduler did not coarsen the grid instead (MergeGridTiles).
  auto explain = [&](InFlightDiagnostic diag) -> LogicalResult {
    auto decision = kernel->getAttrOfType<ks::DecisionAttr>("merge");
    auto merge = decision ? llvm::dyn_cast<DictionaryAttr>(decision.getValue()) : nullptr;
    if (merge && i64Of(merge.get("factor"), 1) == 1) {
      if (decision.getSource() == ks::kPlan)
        diag.attachNote() << "the plan merges no grid tiles";
      else
        diag.attachNote() << "grid tiles were not merged: no factor dividing the grid gives "
                             "merged tiles that are contiguous in every transfer and whose "
                             "results are legal DMA runs";
    }
    return diag;
  };
  for (auto [i, t] : llvm::enumerate(stores))
    for (const std::vector<Tile> &list : tiles)
      for (const Tile &tile : list) {
        int64_t elements = resultDim >= 0 ? tile.extent[resultDim] : 1;
        Bytes run = toBytes(Elements(elements), t.esize);
        if (widenedResultRun(t, tile, run))
          continue;
        if (run < rule->minSize)
          return explain(resultOp(i)->emitError("per-tile reduction result of ")
                         << run.count() << " bytes is below the DMA minimum of "
                         << rule->minSize.count() << " bytes of @" << memoryName
                         << ": not lowered");
        if (rule->sizeMultiple.count() > 0 && run.count() % rule->sizeMultiple.count() != 0)
          return explain(resultOp(i)->emitError("per-tile reduction result of ")
                         << run.count() << " bytes is not a multiple of the DMA's "
                         << rule->sizeMultiple.count() << "-byte access size of @"
                         << memoryName << ": not lowered");
      }
  return success();
}

std::optional<Bytes> GroupLowering::widenedResultRun(const Transfer &t, const Tile &tile,
                                                    Bytes run) {
  // A reduction's one-dimensional results, or a partial last vector (the
  // callers ensure its tile is a single row, so the run is one copy).
  bool partialRow = !reduction && hasPartialVector(tile) && !t.dims.empty() &&
                    t.dims.back() == (int64_t)space.size() - 1;
  if (!(reduction && t.dims.size() <= 1) && !partialRow)
    return std::nullopt;
  const arch::AccessRule *rule = globalDmaRule();
  if (!rule || rule->allowsSize(run))
    return std::nullopt;
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  Bytes widened = std::max(run, rule->minSize).alignTo(rule->sizeMultiple);
  if (!rule->allowsSize(widened))
    return std::nullopt;
  // The slot holds whole result vectors; the widened run must stay inside.
  const Transfer &slot = twoLevel ? innerStores[&t - stores.begin()] : t;
  if (widened > std::min(t.bytes, slot.bytes))
    return std::nullopt;
  // Nothing else of this kernel argument may live in the padding.
  for (const Transfer &load : loads)
    if (load.arg == t.arg)
      return std::nullopt;
  // Another view of the same argument may extend further: the padding
  // starts after all of them.
  Bytes end = argumentDataEnd(t.arg, t.esize);
  Bytes allocated = end.alignTo(model.node(globalMemories.front()).memory.alignment);
  Bytes tileStart = toBytes(Elements(tileElementOffset(t, tile)), t.esize);
  for (int64_t c : coreIds) {
    FailureOr<int64_t> offset = gridOffset(t, c);
    if (failed(offset))
      return std::nullopt;
    Bytes start = Bytes(*offset) + tileStart;
    if (start + run != end || start + widened > allocated)
      return std::nullopt;
  }
  return widened;
}

Bytes GroupLowering::argumentDataEnd(int64_t arg, ElementSize size) {
  int64_t last = 0;
  for (ks::TensorOp tensor : kernel.getBody().getOps<ks::TensorOp>()) {
    if (tensor.getArg() != arg)
      continue;
    int64_t extent = tensor.getOffset() + 1;
    auto shape = tensor.getShape();
    auto strides = tensor.getStrides();
    for (size_t i = 0; i < shape.size() && i < strides.size(); ++i)
      extent += (shape[i] - 1) * strides[i];
    last = std::max(last, extent);
  }
  return toBytes(Elements(last), size);
}

LogicalResult GroupLowering::checkPartialVector(const Tile &tile) {
  int64_t n = tile.extent.back();
  auto masked = [&](const Twine &why) {
    std::string text = ("a tile row of " + Twine(n) + " elements is not a whole number of " +
                        Twine(vectorWidth) + "-element vectors")
                           .str();
    if (!why.isTriviallyEmpty())
      text += " " + why.str();
    return outer->emitError(text) << ": masked vectors are not lowered";
  };
  // A reduction's row fold replaces the padding lanes of a row's last
  // vector by its combiner's identity (ReductionNest: `ext` of an identity
  // vector), and a column fold's padding lanes are results nobody stores: a
  // reduction is checked like an element-wise row below.
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < space.size(); ++d)
    rows *= tile.extent[d];
  // Each row's last vector would run into the next row of a dense slot.
  if (rows > 1)
    return masked("and the tile's rows are not one contiguous run");
  const int64_t vectorDim = (int64_t)space.size() - 1, rowDim = vectorDim - 1;
  for (const Transfer &t : loads)
    if (rowDim >= 0 && !t.dims.empty() &&
        llvm::all_of(t.dims, [&](int64_t d) { return d == rowDim; }))
      return masked("beside a column operand");
  auto spansVector = [&](const Transfer &t) {
    return !t.dims.empty() && t.dims.back() == vectorDim;
  };
  // The compute side moves whole vectors through the slot it reads or
  // writes (the inner one on two levels).
  Bytes whole = toBytes(Elements(vectorsPerRow(tile) * vectorWidth), esize);
  auto slotHolds = [&](const Transfer &t, Bytes bytes) -> LogicalResult {
    if (t.bytes >= bytes)
      return success();
    return masked("and a slot of " + Twine(t.bytes.count()) + " bytes for @" +
                  t.tensor.getSymName() + " cannot hold its last vector whole");
  };
  for (auto [i, t] : llvm::enumerate(loads)) {
    if (!spansVector(t))
      continue;
    if (failed(slotHolds(twoLevel ? innerLoads[i] : t, whole)))
      return failure();
    Bytes run = toBytes(Elements(n), t.esize);
    if (std::optional<Bytes> covering = coveringLoadRun(t, run); covering && *covering <= t.bytes)
      run = *covering;
    if (!twoLevel && failed(slotHolds(t, std::max(run, whole))))
      return failure();
  }
  const arch::AccessRule *rule = globalDmaRule();
  for (auto [i, t] : llvm::enumerate(stores)) {
    if (!spansVector(t))
      continue;
    if (failed(slotHolds(twoLevel ? innerStores[i] : t, whole)))
      return failure();
    // Only the valid bytes, or whole granules whose excess lies past the
    // end of the argument's data, may be written: anything else would
    // clobber the data that follows in memory.
    Bytes run = toBytes(Elements(n), t.esize);
    if (rule && !rule->allowsSize(run) && !widenedResultRun(t, tile, run))
      return masked("and its " + Twine(run.count()) + "-byte DMA run of @" +
                    t.tensor.getSymName() +
                    " is neither a legal access nor at the end of the data");
  }
  return success();
}

LogicalResult GroupLowering::collectComputeInputs(Operation *loadStage) {
  for (Value input : computeStage->getOperands()) {
    ComputeInput in;
    // Through the FIFO (one level) or the buffer (two levels) to the stage.
    if (auto fifo = input.getDefiningOp<ks::FifoOp>())
      input = fifo.getSource();
    else if (auto buffer = input.getDefiningOp<ks::BufferOp>())
      input = buffer.getSource();
    if (auto scalar = input.getDefiningOp<ks::ScalarArgOp>()) {
      auto it = options.scalarArgs.find(scalar.getArg());
      if (it == options.scalarArgs.end())
        return scalar.emitError("scalar argument ")
               << scalar.getArg() << " needs a value at compile time (pass --arg NAME=VALUE)";
      in.splat = it->second;
    } else if (auto result = llvm::dyn_cast<OpResult>(input);
               result && result.getOwner() == loadStage) {
      in.loadIndex = result.getResultNumber();
    } else {
      return computeStage->emitError("compute input is neither a load nor a scalar");
    }
    computeInputs.push_back(in);
  }
  return success();
}

LogicalResult GroupLowering::collectTwoLevelStages(Operation *dmaLoad, Operation *dmaStore,
                                                   Operation *inner) {
  auto unitOf = [&](Operation *stage) -> std::string {
    if (auto name = llvm::dyn_cast_or_null<StringAttr>(decisionValue(stage, "unit")))
      return name.getValue().str();
    return "";
  };
  Operation *innerLoad = nullptr, *innerNested = nullptr, *innerStore = nullptr;
  for (Operation &op : inner->getRegion(0).front()) {
    auto stage = llvm::dyn_cast<ks::StageOp>(op);
    if (!stage)
      continue;
    StringRef role = stage.getRole();
    if (role == "dma_load")
      innerLoad = stage;
    else if (role == "nested")
      innerNested = stage;
    else if (role == "dma_store")
      innerStore = stage;
    else
      return stage.emitError("stage '") << role << "' at the second scratchpad level is not "
                                        << "lowered";
  }
  if (!innerLoad || !innerNested || !innerStore)
    return inner->emitError("second-level pipeline is not of the form dma_load, nested, "
                            "dma_store");
  if (decisionValue(inner, "tile"))
    return inner->emitError("a second-level tile decision is not lowered (the inner "
                            "buffers must hold the outer tile)");
  tileDmaUnit = unitOf(innerLoad);
  if (unitOf(innerStore) != tileDmaUnit)
    return innerStore->emitError("loads and stores on different DMA units are not lowered");
  Operation *vectorPipeline = nullptr;
  for (Operation &op : innerNested->getRegion(0).front())
    if (llvm::isa<ks::PipelineOp>(op))
      vectorPipeline = &op;
  if (!vectorPipeline)
    return innerNested->emitError("nested stage holds no pipeline");
  for (Operation &op : vectorPipeline->getRegion(0).front())
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op)) {
      if (stage.getRole() != "compute")
        return stage.emitError("stage '")
               << stage.getRole() << "' beside a compute unit that reads its scratchpad "
               << "directly is not lowered";
      computeStage = stage;
    }
  if (!computeStage)
    return vectorPipeline->emitError("vector pipeline holds no compute stage");
  computeUnit = unitOf(computeStage);
  vectorWidth = i64Of(decisionValue(computeStage, "vector"));
  if (vectorWidth <= 0)
    return computeStage->emitError("compute stage has no vector width");

  auto outerLoads = dmaLoad->getAttrOfType<ArrayAttr>("transfers");
  auto innerLoadTransfers = innerLoad->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(innerLoad->getOperands())) {
    Transfer t, u;
    if (failed(resolveTransfer(dmaLoad, outerLoads, i, value, t)))
      return failure();
    Value innerBuffer;
    for (Operation *user : innerLoad->getResult(i).getUsers())
      if (llvm::isa<ks::BufferOp>(user))
        innerBuffer = user->getResult(0);
    if (!innerBuffer)
      return innerLoad->emitError("load ") << i << " is not buffered";
    if (failed(resolveTransfer(innerLoad, innerLoadTransfers, i, innerBuffer, u)))
      return failure();
    loads.push_back(t);
    innerLoads.push_back(u);
  }
  auto outerStores = dmaStore->getAttrOfType<ArrayAttr>("transfers");
  auto innerStoreTransfers = innerStore->getAttrOfType<ArrayAttr>("transfers");
  if (dmaStore->getNumOperands() != innerStore->getNumOperands())
    return dmaStore->emitError("stores of the two levels differ");
  for (unsigned i = 0; i < dmaStore->getNumOperands(); ++i) {
    Transfer t, u;
    if (failed(resolveTransfer(dmaStore, outerStores, i, dmaStore->getOperand(i), t)) ||
        failed(resolveTransfer(innerStore, innerStoreTransfers, i, innerStore->getOperand(i),
                               u)))
      return failure();
    stores.push_back(t);
    innerStores.push_back(u);
  }
  return collectComputeInputs(innerLoad);
}

LogicalResult GroupLowering::collectTwoLevelUnits() {
  auto outerDma = model.lookupNode(dmaUnit), tileDma = model.lookupNode(tileDmaUnit);
  computeNode = model.lookupNode(computeUnit);
  if (!outerDma || !tileDma || !computeNode)
    return group.emitError("schedule names a unit the description lacks");
  if (model.nodeInstanceCount(*outerDma) != 1)
    return group.emitError("an outer DMA with ")
           << model.nodeInstanceCount(*outerDma) << " instances is not lowered";
  coreGroup = model.node(*tileDma).group;
  subGroup = model.node(*computeNode).group;
  cores = model.instanceCount(coreGroup);
  subcores = model.instanceCount(subGroup) / cores;
  if (shares.size() != 1)
    return outer->emitError("a split over ")
           << shares.size() << " sub-cores with two scratchpad levels is not lowered";
  return success();
}

/// Two scratchpad levels. Per core c and tile k (slots rotate per level):
///   outer DMA: global -> outer in-slot; signal tile DMA sem 0 ("in full");
///              wait sem 2c+1 ("out full"), outer out-slot -> global,
///              signal tile DMA sem 3 ("outer out free")
///   tile DMA:  wait 0, [wait 4: "inner in free"], outer -> inner in-slot,
///              signal outer DMA sem 2c ("outer in free"), compute sem 0;
///              wait 5 ("inner out full"), [wait 3], inner out -> outer out,
///              signal compute sem 1 ("inner out free"), outer DMA sem 2c+1
///   compute:   wait 0, [wait 1], vload / compute / vstore every vector,
///              signal tile DMA sems 4 and 5.
/// Both DMAs run their stores `lag` tiles behind their loads, one lag for
/// both levels so that no DMA waits on a step the other has not reached.
LogicalResult GroupLowering::emitTwoLevel() {
  dc::Bundle &bundle = out.bundle;
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  // Tables and semaphores are indexed by core number (coreIds ascend; a
  // lowering of a class of cores may skip some).
  int64_t nCores = coreIds.empty() ? 0 : coreIds.back() + 1;
  if (!coreIds.empty() &&
      2 * (coreOf(coreIds.back()) + 1) > model.semaphoreCount(*model.lookupNode(dmaUnit)))
    return outer->emitError("too many cores for the outer DMA's semaphores");
  const std::vector<Tile> &list = tiles.front();
  int64_t n = list.size();
  auto minDepth = [](ArrayRef<Transfer> ts) {
    int64_t d = std::numeric_limits<int64_t>::max();
    for (const Transfer &t : ts)
      d = std::min(d, t.depth);
    return ts.empty() ? int64_t(1) : d;
  };
  int64_t outerIn = minDepth(loads), outerOut = minDepth(stores),
          innerIn = minDepth(innerLoads), innerOut = minDepth(innerStores);
  for (Transfer &t : llvm::concat<Transfer>(loads, innerLoads))
    if (auto hoist = llvm::dyn_cast_or_null<BoolAttr>(decisionValue(t.buffer.getOperation(), "hoist"));
        hoist && hoist.getValue())
      return t.buffer->emitError("hoisted loads are not lowered with two scratchpad levels");
  FailureOr<int64_t> leadOr = leadOfLoads(std::min(outerIn, innerIn));
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  auto computeInstance = [&](int64_t c) { return ldInstances[c].front(); };
  // The outer memory is shared: core c's copy of the layout is that of its
  // compute instance; the inner memory holds one layout per sub-core (0).
  auto outerSlot = [&](const Transfer &t, int64_t c, int64_t k) {
    return slotAddress(t, computeInstance(c) % std::max<int64_t>(1, cores * subcores), k);
  };
  auto innerSlot = [&](const Transfer &t, int64_t k) { return slotAddress(t, 0, k); };
  auto tileDmaOf = [&](int64_t c) {
    return dc::ProgramBuilder::node(tileDmaUnit,
                                    {dc::InstanceSelector::Kind::Absolute, coreOf(c)});
  };
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  // A whole-slot copy between the levels, cut to the DMA's largest access.
  auto tileDmaNode = model.lookupNode(tileDmaUnit);
  auto copySlot = [&](dc::ProgramBuilder &b, dc::Address dst, dc::Address src, Bytes bytes) {
    Bytes chunk = bytes;
    for (const arch::AccessRule &rule : model.node(*tileDmaNode).access)
      if (rule.maxSize.count() > 0)
        chunk = std::min(chunk, rule.maxSize);
    for (Bytes done(0); done < bytes; done = done + chunk) {
      dc::Address d = dst, s = src;
      d.offset = d.offset + done;
      s.offset = s.offset + done;
      b.copy(d, s, std::min(chunk, bytes - done), {});
    }
  };

  // --- Outer DMA: one program serving every core. ------------------------
  dc::ProgramBuilder dma(bundle, dmaUnit, std::vector<int64_t>{0});
  SmallVector<SmallVector<int64_t>> loadOffsets(nCores), storeOffsets(nCores);
  for (int64_t c : coreIds) {
    for (const Transfer &t : loads) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      loadOffsets[c].push_back(*offset);
    }
    for (const Transfer &t : stores) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      storeOffsets[c].push_back(*offset);
    }
  }
  for (int64_t s = 0; s < n + lag; ++s) {
    for (int64_t c : coreIds) {
      if (s >= n)
        break;
      if (s >= outerIn)
        dma.wait(2 * coreOf(c), 1);
      for (auto [i, t] : llvm::enumerate(loads))
        copyTile(dma, t, loadSymbols[i], std::nullopt, Bytes(loadOffsets[c][i]), list[s],
                 outerSlot(t, c, s), true);
      dma.signal(tileDmaOf(c), 0);
    }
    int64_t m = s - lag;
    if (m < 0 || m >= n)
      continue;
    for (int64_t c : coreIds) {
      dma.wait(2 * coreOf(c) + 1, 1);
      for (auto [i, t] : llvm::enumerate(stores))
        copyTile(dma, t, storeSymbols[i], std::nullopt, Bytes(storeOffsets[c][i]), list[m],
                 outerSlot(t, c, m), false);
      dma.signal(tileDmaOf(c), 3);
    }
  }
  for (int64_t c : coreIds)
    if (int64_t owed = std::min(n, outerIn))
      dma.wait(2 * coreOf(c), owed);

  // --- Tile DMA and compute unit: one program each per core. -------------
  Block &body = computeStage->getRegion(0).front();
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);
  for (int64_t c : coreIds) {
    dc::ProgramBuilder tdma(bundle, tileDmaUnit, std::vector<int64_t>{coreOf(c)});
    for (int64_t s = 0; s < n + lag; ++s) {
      if (s < n) {
        tdma.wait(0, 1);
        if (s >= innerIn)
          tdma.wait(4, 1);
        for (auto [i, t] : llvm::enumerate(loads))
          copySlot(tdma, innerSlot(innerLoads[i], s), outerSlot(t, c, s),
                   std::min(t.bytes, innerLoads[i].bytes));
        tdma.signal(nearest(dmaUnit), 2 * coreOf(c));
        tdma.signal(nearest(computeUnit), 0);
      }
      int64_t m = s - lag;
      if (m < 0 || m >= n)
        continue;
      tdma.wait(5, 1);
      if (m >= outerOut)
        tdma.wait(3, 1);
      for (auto [i, t] : llvm::enumerate(stores))
        copySlot(tdma, outerSlot(t, c, m), innerSlot(innerStores[i], m),
                 std::min(t.bytes, innerStores[i].bytes));
      tdma.signal(nearest(computeUnit), 1);
      tdma.signal(nearest(dmaUnit), 2 * coreOf(c) + 1);
    }
    if (int64_t owed = std::min(n, innerIn))
      tdma.wait(4, owed);
    if (int64_t owed = std::min(n, outerOut))
      tdma.wait(3, owed);

    dc::ProgramBuilder vec(bundle, computeUnit, std::vector<int64_t>{computeInstance(c)});
    llvm::DenseMap<Value, uint8_t> reg;
    unsigned nextReg = 0;
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      if (nextReg >= registerCount())
        return computeStage->emitError("compute body needs more than ")
               << registerCount() << " vector registers";
      reg[arg] = nextReg++;
      if (computeInputs[i].splat)
        vec.vconst(reg[arg], registerType(arg.getType()).value_or(elemType),
                   Elements(vectorWidth), *computeInputs[i].splat);
    }
    if (failed(allocatePieceRegisters(nextReg)))
      return failure();
    if (reduction &&
        failed(reduction->allocate(vec, nextReg, registerCount(), computeStage->getLoc())))
      return failure();
    // Column operands: as on one level (emit), the rows go in blocks; the
    // block's column vector is vloaded once, from the vector its values
    // start in (and the next one, where the block crosses into it), moved
    // down to lane 0 with `ext`, held, broadcast per row and slid. This
    // program serves one core, so its lane is a constant.
    const int64_t rowDim = (int64_t)space.size() - 2;
    FailureOr<SmallVector<size_t>> columnLoadsOr = columnLoadIndices();
    if (failed(columnLoadsOr))
      return failure();
    SmallVector<size_t> columnLoads = std::move(*columnLoadsOr);
    SmallVector<uint8_t> heldColumn(loads.size(), 0);
    std::optional<uint8_t> nextColumn;
    for (size_t i : columnLoads) {
      if (nextReg + 1 >= registerCount())
        return computeStage->emitError("compute body needs more than ")
               << registerCount() << " vector registers";
      heldColumn[i] = nextReg++;
      for (const Tile &tile : list)
        for (const RowSegment &seg : rowSegments(tile))
          if (!nextColumn && spansTwoVectors(columnPhase(loads[i], c, tile).lane, seg.rows))
            nextColumn = nextReg++;
    }
    std::optional<std::string> vectorProblem;
    // The compute unit reads its memory directly: every vector must start
    // where its access rule allows (a column broadcast steps one element
    // per row, which is rarely aligned).
    auto checkAligned = [&](const Transfer &t, const dc::Address &address) {
      auto unit = model.lookupNode(computeUnit);
      auto memory = model.lookupNode(t.memory);
      if (!vectorProblem && unit && memory)
        if (const arch::AccessRule *rule = model.node(*unit).accessTo(*memory)) {
          bool aligned = rule->allowsAddress(address.offset);
          for (const dc::LoopTerm &term : address.terms)
            aligned &= rule->allowsAddress(term.stride);
          if (!aligned)
            vectorProblem = "a vector of " + t.memory + " that is not aligned to " +
                            std::to_string(rule->alignment.count()) + " bytes";
        }
    };
    // The address of the current vector of transfer t in inner slot k.
    auto vectorAddress = [&](const Transfer &t, int64_t k, bool &broadcast) {
      dc::Address address = innerSlot(t, k);
      SmallVector<int64_t> pitch = bufferPitch(t);
      broadcast = true;
      for (size_t i = 0; i < t.dims.size(); ++i) {
        int64_t d = t.dims[i];
        if (d < 0)
          continue;
        int64_t stride = pitch[i];
        if (d == (int64_t)space.size() - 1) {
          stride *= vectorWidth;
          broadcast = false;
        }
        address.terms.push_back({uint32_t(d), Bytes(stride), 0});
      }
      checkAligned(t, address);
      return address;
    };
    for (int64_t k = 0; k < n; ++k) {
      const Tile &tile = list[k];
      vec.wait(0, 1);
      if (k >= innerOut)
        vec.wait(1, 1);
      if (reduction) {
        auto read = [&](const SpacePosition &pos) -> LogicalResult {
          for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
            const ComputeInput &in = computeInputs[i];
            if (in.splat)
              continue;
            const Transfer &t = innerLoads[in.loadIndex];
            bool broadcast;
            dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
            gatherPieces(vec, reg[arg], t, broadcast ? 1 : piecesOf(t),
                         [&](uint8_t r, dc::ElemType type, Elements count, int64_t p) {
                           dc::Address piece = address;
                           piece.offset = piece.offset + vectorBytes * p;
                           checkAligned(t, piece);
                           vec.vload(r, type, count, piece);
                         });
            if (broadcast)
              vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
          }
          return success();
        };
        auto compute = [&](const llvm::DenseMap<Value, uint8_t> &fixed) {
          return emitBody(vec, reg, nextReg, [](unsigned, uint8_t) {}, &fixed);
        };
        auto write = [&](unsigned i, uint8_t r, const SpacePosition &pos) {
          const Transfer &t = innerStores[i];
          bool broadcast;
          dc::Address address = positionAddress(t, innerSlot(t, k), pos, broadcast);
          scatterPieces(
              vec, r, t,
              [&](uint8_t piece, int64_t p) {
                dc::Address at = address;
                at.offset = at.offset + vectorBytes * p;
                checkAligned(t, at);
                vec.vstore(at, piece);
              },
              resultPieces(t, pos, tile.extent));
        };
        if (failed(reduction->emitCompute(vec, tile.extent, reg, body, read, compute, write)))
          return failure();
        vec.signal(nearest(tileDmaUnit), 4);
        vec.signal(nearest(tileDmaUnit), 5);
        continue;
      }
      if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          for (int64_t d = 0; d < rowDim; ++d)
            vec.loop(tile.extent[d]);
          vec.loop(seg.blocks);
          for (size_t i : columnLoads) {
            const Transfer &t = innerLoads[i];
            ColumnPhase phase = columnPhase(loads[i], c, tile);
            bool next = spansTwoVectors(phase.lane, seg.rows);
            dc::Address address = segmentAddress(t, innerSlot(t, k), seg);
            address.offset = address.offset + phase.vectorOffset;
            if (failed(checkColumnReadFits(t, phase, next, seg)))
              return failure();
            checkAligned(t, address);
            vec.vload(heldColumn[i], elemType, Elements(vectorWidth), address);
            if (next) {
              address.offset = address.offset + vectorBytes;
              vec.vload(*nextColumn, elemType, Elements(vectorWidth), address);
            }
            if (phase.lane != 0)
              vec.ext(heldColumn[i], heldColumn[i], next ? *nextColumn : heldColumn[i],
                      phase.lane);
          }
          vec.loop(seg.rows);
          broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn);
          vec.loop(tile.extent.back() / vectorWidth);
          for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
            const ComputeInput &in = computeInputs[i];
            if (in.splat || llvm::is_contained(columnLoads, size_t(in.loadIndex)))
              continue;
            const Transfer &t = innerLoads[in.loadIndex];
            dc::Address address = segmentAddress(t, innerSlot(t, k), seg);
            checkAligned(t, address);
            vec.vload(reg[arg], elemType, Elements(vectorWidth), address);
            if (!llvm::is_contained(t.dims, (int64_t)space.size() - 1))
              vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
          }
          bool storeBroadcast = false;
          if (failed(emitBody(vec, reg, nextReg, [&](unsigned i, uint8_t r) {
                const Transfer &t = innerStores[i];
                dc::Address address = segmentAddress(t, innerSlot(t, k), seg);
                checkAligned(t, address);
                vec.vstore(address, r);
                storeBroadcast |= !llvm::is_contained(t.dims, (int64_t)space.size() - 1);
              })))
            return failure();
          if (storeBroadcast)
            return outer->emitError("a stored tensor must span the vector dimension");
          for (int64_t d = 0; d < rowDim + 3; ++d)
            vec.end();
        }
        vec.signal(nearest(tileDmaUnit), 4);
        vec.signal(nearest(tileDmaUnit), 5);
        continue;
      }
      for (size_t d = 0; d + 1 < space.size(); ++d)
        vec.loop(tile.extent[d]);
      vec.loop(vectorsPerRow(tile));
      for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
        const ComputeInput &in = computeInputs[i];
        if (in.splat)
          continue;
        bool broadcast;
        const Transfer &t = innerLoads[in.loadIndex];
        dc::Address address = vectorAddress(t, k, broadcast);
        // A wide type's step is several accesses (a broadcast element one).
        gatherPieces(vec, reg[arg], t, broadcast ? 1 : piecesOf(t),
                     [&](uint8_t r, dc::ElemType type, Elements count, int64_t p) {
                       dc::Address piece = address;
                       piece.offset = piece.offset + vectorBytes * p;
                       checkAligned(t, piece);
                       vec.vload(r, type, count, piece);
                     });
        if (broadcast)
          vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
      }
      bool storeBroadcast = false;
      if (failed(emitBody(vec, reg, nextReg, [&](unsigned i, uint8_t r) {
            bool broadcast;
            dc::Address address = vectorAddress(innerStores[i], k, broadcast);
            storeBroadcast |= broadcast;
            scatterPieces(vec, r, innerStores[i], [&](uint8_t piece, int64_t p) {
              dc::Address at = address;
              at.offset = at.offset + vectorBytes * p;
              checkAligned(innerStores[i], at);
              vec.vstore(at, piece);
            });
          })))
        return failure();
      if (storeBroadcast)
        return outer->emitError("a stored tensor must span the vector dimension");
      for (size_t d = 0; d < space.size(); ++d)
        vec.end();
      vec.signal(nearest(tileDmaUnit), 4);
      vec.signal(nearest(tileDmaUnit), 5);
    }
    if (int64_t owed = std::min(n, innerOut))
      vec.wait(1, owed);
    if (vectorProblem)
      return computeStage->emitError(*vectorProblem)
             << ": unaligned vector accesses are not lowered";
    (void)vectorBytes;
  }
  if (dmaProblem)
    return dmaProblem->first->emitError(dmaProblem->second)
           << ": unaligned transfers are not lowered";
  return success();
}

FailureOr<SmallVector<GroupLowering::CoreClass>> GroupLowering::coreClasses() {
  auto classes = llvm::dyn_cast_or_null<ArrayAttr>(decisionValue(outer, "classes"));
  if (!classes)
    return outer->emitError("pipeline lacks the `classes` decision (ktsched-classify-tiles)");
  SmallVector<CoreClass> result;
  for (Attribute entry : classes) {
    auto dict = llvm::dyn_cast<DictionaryAttr>(entry);
    auto tiles = dict ? dict.getAs<DenseI64ArrayAttr>("tiles") : nullptr;
    auto valid = dict ? dict.getAs<DenseI64ArrayAttr>("space") : nullptr;
    auto classShares = dict ? dict.getAs<DenseI64ArrayAttr>("shares") : nullptr;
    if (!tiles || !valid || !classShares || tiles.empty())
      return outer->emitError("a class of grid tiles lacks tiles, space or shares");
    CoreClass cls;
    cls.cores.assign(tiles.asArrayRef().begin(), tiles.asArrayRef().end());
    cls.space.assign(valid.asArrayRef().begin(), valid.asArrayRef().end());
    cls.shares.assign(classShares.asArrayRef().begin(), classShares.asArrayRef().end());
    if (llvm::any_of(cls.cores, [&](int64_t c) { return !llvm::is_contained(coreIds, c); }))
      return outer->emitError("a class of grid tiles names a tile outside the grid");
    result.push_back(std::move(cls));
  }
  return result;
}

FailureOr<int64_t> GroupLowering::gridOffset(const Transfer &t, int64_t linear) {
  auto grid = kernel.getGrid();
  SmallVector<int64_t> coords = {linear % grid[0], (linear / grid[0]) % grid[1],
                                 linear / (grid[0] * grid[1])};
  // The induction variable (dim 3) starts at this grid tile's lower bound.
  coords.push_back(loopLower[linear]);
  coords.resize(t.origin.getNumDims(), 0);
  SmallVector<int64_t> origin = t.origin.compose(coords);
  auto strides = t.tensor.getStrides();
  auto lower = t.tensor.getLowerCorner();
  if (origin.size() != strides.size() || lower.size() != strides.size())
    return t.tensor.emitError("transfer origin rank does not match the tensor");
  auto shape = t.tensor.getShape();
  for (size_t i = 0; i < strides.size() && i < shape.size(); ++i)
    if (origin[i] < lower[i] || origin[i] - lower[i] >= shape[i])
      return t.tensor.emitError("grid tile ")
             << linear << " starts outside the buffer (a fully masked tile): not lowered";
  int64_t elements = t.tensor.getOffset();
  for (size_t i = 0; i < strides.size(); ++i)
    elements += (origin[i] - lower[i]) * strides[i];
  return toBytes(Elements(elements), t.esize).count();
}

int64_t GroupLowering::tileElementOffset(const Transfer &t, const Tile &tile) const {
  auto strides = t.tensor.getStrides();
  int64_t elements = 0;
  for (size_t i = 0; i < t.dims.size() && i < strides.size(); ++i)
    if (t.dims[i] >= 0)
      elements += tile.origin[t.dims[i]] * strides[i];
  // The loop's advance: origin is affine in the induction variable, so the
  // difference between iterations is the same on every grid tile.
  if (tile.iteration > 0 && t.origin.getNumDims() > 3) {
    SmallVector<int64_t> first(t.origin.getNumDims(), 0), later;
    first[3] = loopLower.empty() ? 0 : loopLower[0];
    later = first;
    later[3] += tile.iteration * loopStep;
    SmallVector<int64_t> a = t.origin.compose(first), b = t.origin.compose(later);
    for (size_t i = 0; i < a.size() && i < strides.size(); ++i)
      elements += (b[i] - a[i]) * strides[i];
  }
  return elements;
}

/// Bytes between consecutive indices of each transfer dimension in the
/// buffer: a dense row-major copy of the full tile.
SmallVector<int64_t> GroupLowering::bufferPitch(const Transfer &t) const {
  SmallVector<int64_t> pitch(t.dims.size(), 0);
  int64_t step = t.esize.bytes.count();
  for (int i = (int)t.dims.size() - 1; i >= 0; --i) {
    pitch[i] = step;
    step *= t.dims[i] >= 0 ? tileShape[t.dims[i]] : t.shape[i];
  }
  return pitch;
}

int64_t GroupLowering::resultPieces(const Transfer &t, const SpacePosition &pos,
                                    ArrayRef<int64_t> extent) const {
  int64_t all = piecesOf(t);
  if (!reduction || !reduction->isRowReduction() || all <= 1)
    return all;
  int64_t dim = reduction->resultDim();
  // A vector inside a loop over the row groups is a whole one; only the
  // last group of a tile, at a constant position, can be partial.
  if (dim < 0 || !pos.terms[dim].empty())
    return all;
  int64_t valid = std::clamp<int64_t>(extent[dim] - pos.constant[dim], 0, vectorWidth);
  int64_t perPiece = vectorWidth / all;
  return std::max<int64_t>(1, (valid + perPiece - 1) / perPiece);
}

int64_t GroupLowering::storedResultElements(const Transfer &t, ArrayRef<int64_t> extent) const {
  int64_t padded = reduction->resultElements(extent);
  int64_t dim = reduction->resultDim();
  if (!reduction->isRowReduction() || dim < 0 || piecesOf(t) <= 1)
    return padded;
  int64_t rows = extent[dim], perPiece = vectorWidth / piecesOf(t);
  int64_t whole = rows / vectorWidth * vectorWidth;
  return whole + (rows - whole + perPiece - 1) / perPiece * perPiece;
}

LogicalResult GroupLowering::allocatePieceRegisters(unsigned &nextReg) {
  pieceRegisters.reset();
  bool needed = llvm::any_of(llvm::concat<const Transfer>(loads, stores),
                             [&](const Transfer &t) { return piecesOf(t) > 1; });
  if (!needed)
    return success();
  if (nextReg + 2 > registerCount())
    return computeStage->emitError("compute body needs more than ")
           << registerCount() << " vector registers";
  pieceRegisters = {uint8_t(nextReg), uint8_t(nextReg + 1)};
  nextReg += 2;
  return success();
}

void GroupLowering::gatherPieces(
    dc::ProgramBuilder &vec, uint8_t r, const Transfer &t, int64_t pieces,
    llvm::function_ref<void(uint8_t, dc::ElemType, Elements, int64_t)> fetch) {
  dc::ElemType type = t.regType.value_or(elemType);
  // One access holds `vectorBytes`: the whole step of the narrowest type,
  // a part of a wider one's.
  Elements perPiece = toElements(toBytes(Elements(vectorWidth), esize), t.esize);
  if (pieces <= 1) {
    fetch(r, type, perPiece, 0);
    return;
  }
  assert(pieceRegisters && "a transfer of several pieces without piece registers");
  auto [a, b] = *pieceRegisters;
  fetch(a, type, perPiece, 0);
  fetch(b, type, perPiece, 1);
  vec.concat(r, a, b);
  for (int64_t p = 2; p < pieces; ++p) {
    fetch(a, type, perPiece, p);
    vec.concat(r, r, a);
  }
}

void GroupLowering::scatterPieces(dc::ProgramBuilder &vec, uint8_t r, const Transfer &t,
                                  llvm::function_ref<void(uint8_t, int64_t)> put,
                                  std::optional<int64_t> pieces) {
  int64_t all = piecesOf(t);
  if (all <= 1) {
    put(r, 0);
    return;
  }
  assert(pieceRegisters && "a transfer of several pieces without piece registers");
  // A message and an access take the register as it is when they issue,
  // so one piece register serves every piece.
  int64_t perPiece = vectorWidth / all;
  for (int64_t p = 0; p < pieces.value_or(all); ++p) {
    vec.slice(pieceRegisters->first, r, p * perPiece, Elements(perPiece));
    put(pieceRegisters->first, p);
  }
}

dc::Address GroupLowering::slotAddress(const Transfer &t, int64_t j, int64_t tileIndex) const {
  return dc::ProgramBuilder::memoryAddress(
      t.memory,
      t.address + t.instanceStride * j + t.bytes * (t.hoisted ? 0 : tileIndex % t.depth));
}

void GroupLowering::copyTile(dc::ProgramBuilder &dma, const Transfer &t, uint32_t symbol,
                           std::optional<uint32_t> column, Bytes gridBytes, const Tile &tile,
                           dc::Address local, bool isLoad, InstanceTable *perCore) {
  dc::Address global = dc::ProgramBuilder::symbolAddress(
      symbol, gridBytes + toBytes(Elements(tileElementOffset(t, tile)), t.esize));
  if (column)
    global.tableColumn = *column;
  SmallVector<int64_t> pitch = bufferPitch(t);
  auto strides = t.tensor.getStrides();
  SmallVector<int64_t> extent;
  for (size_t i = 0; i < t.dims.size(); ++i)
    extent.push_back(t.dims[i] >= 0 ? tile.extent[t.dims[i]] : t.shape[i]);
  Bytes run = toBytes(Elements(extent.back()), t.esize);
  SmallVector<dc::CopyDim> dims;
  for (size_t i = 0; i + 1 < extent.size(); ++i) {
    if (extent[i] == 1)
      continue;
    Bytes global = toBytes(Elements(strides[i]), t.esize), localStep(pitch[i]);
    dims.push_back({extent[i], isLoad ? global : localStep, isLoad ? localStep : global});
  }
  auto dmaNode = model.lookupNode(dmaUnit);
  auto globalMemories = model.memoriesBacking(arch::KtirSpace::Global);
  // Where each core's copy starts in the symbol: the table column holds a
  // per-core offset (one-level lowering), else `gridBytes` is the offset.
  // An over-fetched load starts `lead` bytes before its slice, on the DMA
  // unit the slice starts in.
  Bytes tileStart = toBytes(Elements(tileElementOffset(t, tile)), t.esize);
  SmallVector<Bytes, 8> starts, leads;
  if (column) {
    for (int64_t c : coreIds)
      if (FailureOr<int64_t> coreOffset = gridOffset(t, c); succeeded(coreOffset)) {
        Bytes l = isLoad ? leadOf(t, c, tile) : Bytes(0);
        starts.push_back(Bytes(*coreOffset) + tileStart - l);
        leads.push_back(l);
      }
    if (llvm::any_of(leads, [](Bytes l) { return l.count() != 0; })) {
      // The start differs from the transfer's column by each core's lead.
      // Every core of the class has a start (a core without one was
      // diagnosed by gridOffset); a copy without its per-core table cannot
      // be emitted right, so it is reported rather than emitted wrong.
      if (!perCore || starts.size() != coreIds.size()) {
        if (!dmaProblem)
          dmaProblem = {t.tensor.getOperation(),
                        "an over-fetched copy without a start for every core"};
        return;
      }
      std::vector<int64_t> bases;
      for (Bytes start : starts)
        bases.push_back((start - tileStart).count());
      global.tableColumn.reset();
      global.offset = tileStart;
      perCore->addTo(global, bases);
    }
  } else {
    Bytes l = isLoad && t.overFetch ? (gridBytes + tileStart) % overFetchUnit : Bytes(0);
    starts.push_back(gridBytes + tileStart - l);
    leads.push_back(l);
    global.offset = global.offset - l;
  }
  // Reads may over-fetch: a single run that is not a legal DMA access (a
  // scalar, a short row, a column slice starting inside a DMA unit) reads
  // the smallest legal run from its (aligned) start that covers the wanted
  // bytes of every core; the extra bytes land in the slot's padding and are
  // never used. Stores always write only valid bytes: over-writing a
  // neighbour's bytes would be wrong.
  if (isLoad && dims.empty()) {
    Bytes need = run, furthest(0);
    for (Bytes l : leads) {
      need = std::max(need, l + run);
      furthest = std::max(furthest, l);
    }
    std::optional<Bytes> covering = coveringLoadRun(t, need);
    if (covering && *covering <= t.bytes)
      run = *covering;
    else if (furthest.count() > 0 && !dmaProblem)
      dmaProblem = {t.tensor.getOperation(),
                    "a column slice of " + std::to_string(run.count()) + " bytes starting " +
                        std::to_string(furthest.count()) +
                        " bytes into a DMA unit needs a read of " +
                        (covering ? std::to_string(covering->count()) + " bytes"
                                  : std::string("more than the DMA's largest access")) +
                        ", which its " + std::to_string(t.bytes.count()) +
                        "-byte buffer slot cannot take"};
  }
  if (!isLoad && dims.empty())
    if (std::optional<Bytes> widened = widenedResultRun(t, tile, run))
      run = *widened;
  if (dmaNode && !globalMemories.empty())
    if (const arch::AccessRule *rule = model.node(*dmaNode).accessTo(globalMemories.front())) {
      // A widened short load may end past the tensor's last alignment unit
      // (a short tile near the end): the symbol, what the runtime
      // allocates, grows to cover it.
      dc::Symbol &sym = out.bundle.symbols[symbol];
      if (isLoad)
        for (Bytes start : starts)
          if (sym.size < start + run) {
            sym.size = (start + run).alignTo(model.node(globalMemories.front()).memory.alignment);
            sym.shape = {toElements(sym.size, t.esize).count()};
          }
      if (!dmaProblem && !rule->allowsSize(run))
        dmaProblem = {t.tensor.getOperation(), "a " + std::to_string(run.count()) +
                                                   "-byte DMA run is outside the DMA's access sizes"};
      for (const dc::CopyDim &dim : dims)
        if (!dmaProblem && !rule->allowsAddress(isLoad ? dim.srcStride : dim.dstStride))
          dmaProblem = {t.tensor.getOperation(), "a DMA stride is not aligned to " +
                                                     std::to_string(rule->alignment.count()) +
                                                     " bytes"};
      for (Bytes start : starts)
        if (!dmaProblem && !rule->allowsAddress(start))
          dmaProblem = {t.tensor.getOperation(),
                        "a tile starting at byte " + std::to_string(start.count()) +
                            " is not aligned to the DMA's " +
                            std::to_string(rule->alignment.count()) + " bytes"};
    }
  if (isLoad)
    dma.copy(local, global, run, dims);
  else
    dma.copy(global, local, run, dims);
}

uint32_t GroupLowering::symbolOf(const Transfer &t, bool isOutput) {
  dc::Bundle &bundle = out.bundle;
  for (size_t s = 0; s < out.symbolArgs.size(); ++s)
    if (out.symbolArgs[s] == t.arg) {
      bundle.symbols[s].isInput |= !isOutput;
      bundle.symbols[s].isOutput |= isOutput;
      return s;
    }
  std::string typeName;
  llvm::raw_string_ostream os(typeName);
  t.tensor.getElementType().print(os);
  // The runtime allocates whole alignment units past every view of the
  // argument, so short loads may read up to the end of the last one, and
  // a store ending in a partial vector may write its padding.
  auto global = model.memoriesBacking(arch::KtirSpace::Global);
  Bytes size = argumentDataEnd(t.arg, t.esize);
  if (!global.empty())
    size = size.alignTo(model.node(global.front()).memory.alignment);
  dc::Symbol symbol{"arg" + std::to_string(t.arg), typeName,
                    {toElements(size, t.esize).count()}, size, !isOutput, isOutput};
  bundle.symbols.push_back(symbol);
  out.symbolArgs.push_back(t.arg);
  return bundle.symbols.size() - 1;
}

LogicalResult GroupLowering::emitBody(dc::ProgramBuilder &vec,
                                      llvm::DenseMap<Value, uint8_t> &reg, unsigned &nextReg,
                                      llvm::function_ref<void(unsigned, uint8_t)> sink,
                                      const llvm::DenseMap<Value, uint8_t> *fixed) {
  Block &body = computeStage->getRegion(0).front();
  // Registers are reused once their value is dead: a value's last use is
  // the last body op reading it; the yield, and reductions (ReductionNest
  // reads their operands after the body is emitted), keep it to the end.
  constexpr unsigned kLiveToEnd = ~0u;
  llvm::DenseMap<Value, unsigned> lastUse;
  unsigned index = 0;
  for (Operation &op : body) {
    bool toEnd = llvm::isa<ks::YieldOp>(op);
    if (auto vop = llvm::dyn_cast<ks::VectorOp>(op))
      toEnd |= reduction && ReductionNest::isReductionOnly(vop);
    for (Value v : op.getOperands())
      lastUse[v] = toEnd ? kLiveToEnd : index;
    ++index;
  }
  unsigned bodyRegBase = nextReg;
  // Per body register, the op index after which it may be reused.
  llvm::DenseMap<uint8_t, unsigned> regLastUse;
  SmallVector<uint8_t> freeRegs;
  auto newReg = [&](Location loc) -> FailureOr<uint8_t> {
    if (!freeRegs.empty())
      return freeRegs.pop_back_val();
    if (nextReg >= registerCount())
      return emitError(loc, "compute body needs more than ")
             << registerCount() << " vector registers";
    return uint8_t(nextReg++);
  };
  auto holds = [&](uint8_t r, Value v) {
    if (r < bodyRegBase || (fixed && fixed->count(v)))
      return; // the caller's registers live on
    unsigned until = lastUse.lookup(v);
    auto [it, inserted] = regLastUse.try_emplace(r, until);
    if (!inserted)
      it->second = std::max(it->second, until);
  };
  // After op `at`: registers whose values are all dead go back to the pool
  // (a result never shares a register with an operand dying at its op).
  auto release = [&](unsigned at) {
    for (auto it = regLastUse.begin(); it != regLastUse.end();) {
      auto current = it++;
      if (current->second <= at) {
        freeRegs.push_back(current->first);
        regLastUse.erase(current);
      }
    }
  };
  index = 0;
  for (Operation &op : body) {
    unsigned at = index++;
    llvm::scope_exit done([&] { release(at); });
    if (auto yield = llvm::dyn_cast<ks::YieldOp>(op)) {
      if (!reduction)
        for (auto [i, v] : llvm::enumerate(yield.getValues()))
          sink(i, reg[v]);
      continue;
    }
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (!vop)
      return op.emitError("unexpected op in a compute body");
    if (reduction && ReductionNest::isReductionOnly(vop))
      continue;
    bool isFixed = fixed && fixed->count(vop.getResult());
    // A value stored unchanged (`out = in`) needs no instruction: the
    // compute unit forwards the register it received (a register the
    // caller fixed gets a `mov`).
    if (vop.getKind() == "copy" && vop->getNumOperands() == 1 && !isFixed) {
      reg[vop.getResult()] = reg[vop->getOperand(0)];
      holds(reg[vop.getResult()], vop.getResult());
      continue;
    }
    if (vop.getKind() == "copy" && vop->getNumOperands() == 1) {
      uint8_t dst = fixed->find(vop.getResult())->second;
      vec.unary(dc::Opcode::Mov, dst, reg[vop->getOperand(0)]);
      reg[vop.getResult()] = dst;
      continue;
    }
    FailureOr<uint8_t> r;
    if (isFixed)
      r = fixed->find(vop.getResult())->second;
    else
      r = newReg(vop.getLoc());
    if (failed(r))
      return failure();
    reg[vop.getResult()] = *r;
    holds(*r, vop.getResult());
    StringRef kind = vop.getKind();
    if (kind == "const") {
      auto value = vop->getAttr("value");
      double x = 0;
      if (auto f = llvm::dyn_cast_or_null<FloatAttr>(value))
        x = f.getValueAsDouble();
      else if (auto n = llvm::dyn_cast_or_null<IntegerAttr>(value))
        x = n.getInt();
      else
        return vop.emitError("constant without a numeric value");
      vec.vconst(*r, registerType(vop.getResult().getType()).value_or(elemType),
                 Elements(vectorWidth), x);
      continue;
    }
    if (kind == "reduce")
      return vop.emitError("reductions are not lowered yet");
    // The one table: the vop kind is the op class the supported-op
    // table assigned, and the instruction must pay that op class.
    bool known = llvm::any_of(ks::supportedOps(), [&](const ks::OpSupport &s) {
      return s.opClass == kind;
    });
    auto opcode = dc::parseOpcode(kind);
    if (!known || !opcode || dc::opClassOf(*opcode) != kind)
      return vop.emitError("vector op '") << kind << "' has no device-code instruction";
    SmallVector<uint8_t> operands;
    for (Value v : vop.getOperands())
      operands.push_back(reg[v]);
    if (kind == "cast") {
      std::string name;
      llvm::raw_string_ostream os(name);
      vop.getResult().getType().print(os);
      auto to = dc::parseElemType(name);
      if (!to)
        return vop.emitError("cast to ") << vop.getResult().getType()
                                         << " has no vector registers";
      vec.cast(*r, *to, operands[0]);
    } else if (dc::isBinaryArith(*opcode) && operands.size() == 2) {
      vec.binary(*opcode, *r, operands[0], operands[1]);
    } else if ((dc::isUnaryArith(*opcode) || *opcode == dc::Opcode::Mov) &&
               operands.size() == 1) {
      vec.unary(*opcode, *r, operands[0]);
    } else if (dc::isTernaryArith(*opcode) && operands.size() == 3) {
      vec.ternary(*opcode, *r, operands[0], operands[1], operands[2]);
    } else if (*opcode == dc::Opcode::Select && operands.size() == 3) {
      vec.select(*r, operands[0], operands[1], operands[2]);
    } else if (*opcode == dc::Opcode::Cmp && operands.size() == 2) {
      auto name = vop->getAttrOfType<StringAttr>("predicate");
      auto predicate = name ? dc::parsePredicate(name.getValue()) : std::nullopt;
      if (!predicate)
        return vop.emitError("compare without a lane-wise predicate");
      vec.cmp(*predicate, *r, operands[0], operands[1]);
    } else {
      return vop.emitError("vector op '") << kind << "' with " << operands.size()
                                          << " operands has no instruction form";
    }
  }
  nextReg = bodyRegBase;
  return success();
}

LogicalResult GroupLowering::emit(unsigned groupIndex) {
  // Checked here, not in collect(): a lowering of every core only probes
  // for classes of cores (coreClasses()) when some grid tiles are masked,
  // and only the cores lowered together must agree on where data ends.
  for (const std::vector<Tile> &list : tiles)
    for (const Tile &tile : list)
      if (hasPartialVector(tile) && failed(checkPartialVector(tile)))
        return failure();
  if (twoLevel)
    return emitTwoLevel();
  if (failed(markHoistedLoads()))
    return failure();
  dc::Bundle &bundle = out.bundle;
  // Symbols: one per kernel argument a transfer touches.
  SmallVector<uint32_t> loadSymbols, storeSymbols;
  for (const Transfer &t : loads)
    loadSymbols.push_back(symbolOf(t, false));
  for (const Transfer &t : stores)
    storeSymbols.push_back(symbolOf(t, true));
  int64_t nsub = tiles.size();
  if (2 * nsub > model.semaphoreCount(*model.lookupNode(dmaUnit)))
    return outer->emitError("too many sub-core instances for the DMA's semaphores");
  (void)groupIndex;

  // --- DMA: one program over every core, one table row per core. ---------
  // Columns: a byte offset per transfer (load then store), then the load
  // and store unit instance of every sub-core.
  uint32_t nTransfers = loads.size() + stores.size();
  uint32_t columns = nTransfers + 2 * nsub;
  std::vector<int64_t> dmaInstances;
  for (int64_t c : coreIds)
    dmaInstances.push_back(coreOf(c));
  dc::ProgramBuilder dma(bundle, dmaUnit, dmaInstances, columns);
  // Further columns: the per-core starts of over-fetched loads.
  InstanceTable overFetchStarts(coreIds.size(), columns);
  for (int64_t c : coreIds) {
    std::vector<int64_t> row;
    for (const Transfer &t : llvm::concat<const Transfer>(loads, stores)) {
      auto offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      row.push_back(*offset);
    }
    for (int64_t j = 0; j < nsub; ++j)
      row.push_back(ldInstances[c][j]);
    for (int64_t j = 0; j < nsub; ++j)
      row.push_back(stInstances[c][j]);
    dma.addTableRow(row);
  }
  auto ldPeer = [&](int64_t j) {
    return dc::ProgramBuilder::node(
        ldUnit, {dc::InstanceSelector::Kind::TableColumn, int64_t(nTransfers + j)});
  };
  auto stPeer = [&](int64_t j) {
    return dc::ProgramBuilder::node(
        stUnit, {dc::InstanceSelector::Kind::TableColumn, int64_t(nTransfers + nsub + j)});
  };
  // The rotating depth of the inputs: that of the loads moved per tile
  // (a hoisted load stays in its slot; of all loads if every one is).
  bool anyPerTile = llvm::any_of(loads, [](const Transfer &t) { return !t.hoisted; });
  int64_t inDepth = 1, outDepth = 1;
  for (const Transfer &t : loads)
    if (!t.hoisted || !anyPerTile)
      inDepth = std::max(inDepth, t.depth);
  for (const Transfer &t : stores)
    outDepth = std::max(outDepth, t.depth);
  for (const Transfer &t : loads)
    if (!t.hoisted || !anyPerTile)
      inDepth = std::min(inDepth, t.depth);
  for (const Transfer &t : stores)
    outDepth = std::min(outDepth, t.depth);
  FailureOr<int64_t> leadOr = leadOfLoads(inDepth);
  if (failed(leadOr))
    return failure();
  int64_t lag = *leadOr;
  int64_t maxTiles = 0;
  for (auto &list : tiles)
    maxTiles = std::max<int64_t>(maxTiles, list.size());
  for (int64_t s = 0; s < maxTiles + lag; ++s) {
    for (int64_t j = 0; j < nsub; ++j) {
      if (s >= (int64_t)tiles[j].size())
        continue;
      if (s >= inDepth)
        dma.wait(2 * j, 1);
      // A hoisted load is copied with the instance's first tile only: the
      // first tile's "full" signal covers it, and no later copy reuses its
      // slot.
      for (auto [i, t] : llvm::enumerate(loads))
        if (!t.hoisted || s == 0)
          copyTile(dma, t, loadSymbols[i], i, Bytes(0), tiles[j][s], slotAddress(t, j, s), true,
                   &overFetchStarts);
      dma.signal(ldPeer(j), 0);
    }
    for (int64_t j = 0; j < nsub; ++j) {
      int64_t m = s - lag;
      if (m < 0 || m >= (int64_t)tiles[j].size())
        continue;
      dma.wait(2 * j + 1, 1);
      for (auto [i, t] : llvm::enumerate(stores))
        copyTile(dma, t, storeSymbols[i], loads.size() + i, Bytes(0), tiles[j][m],
                 slotAddress(t, j, m), false);
      dma.signal(stPeer(j), 0);
    }
  }
  overFetchStarts.install(dma.program());
  if (dmaProblem)
    return dmaProblem->first->emitError(dmaProblem->second)
           << ": unaligned transfers are not lowered";
  // Drain: the frees the load units still owe.
  for (int64_t j = 0; j < nsub; ++j) {
    int64_t owed = std::min<int64_t>(tiles[j].size(), inDepth);
    if (owed > 0)
      dma.wait(2 * j, owed);
  }

  // --- Load, compute and store units: one program per sub-core index. ---
  auto nearest = [](StringRef unit) { return dc::ProgramBuilder::node(unit); };
  // The vector loop nest of a tile: outer dims of the space, then the
  // vectors of the last dim. Returns the loop depth of each space dim.
  auto openLoops = [&](dc::ProgramBuilder &b, const Tile &tile) {
    for (size_t d = 0; d + 1 < space.size(); ++d)
      b.loop(tile.extent[d]);
    b.loop(vectorsPerRow(tile));
  };
  auto closeLoops = [&](dc::ProgramBuilder &b) {
    for (size_t d = 0; d < space.size(); ++d)
      b.end();
  };
  // The address of the current vector of transfer t in slot (j, k).
  auto vectorAddress = [&](const Transfer &t, int64_t j, int64_t k, bool &broadcast) {
    dc::Address address = slotAddress(t, j, k);
    SmallVector<int64_t> pitch = bufferPitch(t);
    broadcast = true;
    for (size_t i = 0; i < t.dims.size(); ++i) {
      int64_t d = t.dims[i];
      if (d < 0)
        continue;
      int64_t stride = pitch[i];
      if (d == (int64_t)space.size() - 1) {
        stride *= vectorWidth;
        broadcast = false;
      }
      address.terms.push_back({uint32_t(d), Bytes(stride), 0});
    }
    return address;
  };
  Bytes vectorBytes = toBytes(Elements(vectorWidth), esize);

  // Column operands (see isColumnLoad): their rows go in segments of blocks.
  const int64_t rowDim = (int64_t)space.size() - 2;
  FailureOr<SmallVector<size_t>> columnLoadsOr = columnLoadIndices();
  if (failed(columnLoadsOr))
    return failure();
  SmallVector<size_t> columnLoads = std::move(*columnLoadsOr);
  auto openSegment = [&](dc::ProgramBuilder &b, const Tile &tile, const RowSegment &seg) {
    for (int64_t d = 0; d < rowDim; ++d)
      b.loop(tile.extent[d]);
    b.loop(seg.blocks);
  };
  auto closeSegment = [&](dc::ProgramBuilder &b) {
    for (int64_t d = 0; d < rowDim + 3; ++d)
      b.end();
  };
  // Where column load c's values of a tile start in its slot, per core (in
  // coreIds order, the order of the programs' instances), and whether a
  // block of `rows` rows needs the vector after the one it starts in on
  // any core.
  auto phasesOf = [&](size_t c, const Tile &tile) {
    SmallVector<ColumnPhase> phases;
    for (int64_t core : coreIds)
      phases.push_back(columnPhase(loads[c], core, tile));
    return phases;
  };
  auto needsNextVector = [&](ArrayRef<ColumnPhase> phases, int64_t rows) {
    return llvm::any_of(phases, [&](const ColumnPhase &p) {
      return spansTwoVectors(p.lane, rows);
    });
  };

  Block &body = computeStage->getRegion(0).front();
  for (int64_t j = 0; j < nsub; ++j) {
    std::vector<int64_t> subInstances;
    for (int64_t c : coreIds)
      subInstances.push_back(ldInstances[c][j]);

    dc::ProgramBuilder ld(bundle, ldUnit, subInstances);
    dc::ProgramBuilder vec(bundle, computeUnit, subInstances);
    dc::ProgramBuilder st(bundle, stUnit, subInstances);

    // Registers: inputs first, then one per vop.
    llvm::DenseMap<Value, uint8_t> reg;
    unsigned nextReg = 0;
    auto newReg = [&](Location loc) -> FailureOr<uint8_t> {
      if (nextReg >= registerCount())
        return emitError(loc, "compute body needs more than ")
               << registerCount() << " vector registers";
      return uint8_t(nextReg++);
    };
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      auto r = newReg(computeStage->getLoc());
      if (failed(r))
        return failure();
      reg[arg] = *r;
      if (computeInputs[i].splat)
        vec.vconst(*r, registerType(arg.getType()).value_or(elemType), Elements(vectorWidth),
                   *computeInputs[i].splat);
    }
    if (failed(allocatePieceRegisters(nextReg)))
      return failure();
    if (reduction &&
        failed(reduction->allocate(vec, nextReg, registerCount(), computeStage->getLoc())))
      return failure();
    // Column operands (one value per row, e.g. a broadcast column): one
    // value per row is no load-unit access, so the rows go in blocks of a
    // vector: the load unit pushes the block's column vector once, and the
    // compute unit holds it, broadcasting lane 0 for each row and sliding
    // the next row's value into lane 0.
    SmallVector<uint8_t> heldColumn(loads.size(), 0);
    for (size_t c : columnLoads) {
      auto r = newReg(computeStage->getLoc());
      if (failed(r))
        return failure();
      heldColumn[c] = *r;
    }
    // A column slice that starts inside a vector (an over-fetched load, on
    // some core) is read from the vector it starts in, and from the next
    // one where a block crosses into it: `ext` moves the block's values
    // down to lane 0 (the lane per core from the table), into a register
    // held as before. `nextColumn` receives the second vector.
    std::optional<uint8_t> nextColumn;
    for (size_t c : columnLoads)
      for (const Tile &tile : tiles[j])
        for (const RowSegment &seg : rowSegments(tile))
          if (!nextColumn && needsNextVector(phasesOf(c, tile), seg.rows)) {
            auto r = newReg(computeStage->getLoc());
            if (failed(r))
              return failure();
            nextColumn = *r;
          }
    InstanceTable ldTable(coreIds.size()), vecTable(coreIds.size());

    for (int64_t k = 0; k < (int64_t)tiles[j].size(); ++k) {
      const Tile &tile = tiles[j][k];
      // Load unit: wait for the tile, stream its vectors, free the slots.
      ld.wait(0, 1);
      // A column operand steps one element per row: each push must still
      // start where the load unit's access rule allows.
      std::optional<std::pair<const Transfer *, Bytes>> unalignedPush;
      // A step of a wider type than the narrowest is several accesses; a
      // broadcast element is one, whatever its type.
      auto push = [&](const Transfer &t, const dc::Address &address,
                      std::optional<int64_t> pieces = std::nullopt) {
        auto ldNode = model.lookupNode(ldUnit), memNode = model.lookupNode(t.memory);
        if (ldNode && memNode)
          if (const arch::AccessRule *rule = model.node(*ldNode).accessTo(*memNode))
            for (const dc::LoopTerm &term : address.terms)
              if (!rule->allowsAddress(term.stride) && !unalignedPush)
                unalignedPush = {&t, rule->alignment};
        int64_t n = pieces.value_or(lacksVectorDim(t) ? 1 : piecesOf(t));
        for (int64_t p = 0; p < n; ++p) {
          dc::Address piece = address;
          piece.offset = piece.offset + vectorBytes * p;
          ld.push(nearest(computeUnit), piece, vectorBytes);
        }
      };
      if (reduction) {
        reduction->emitInputOrder(ld, tile.extent, [&](const SpacePosition &pos) {
          for (const Transfer &t : loads) {
            bool broadcast;
            push(t, positionAddress(t, slotAddress(t, j, k), pos, broadcast));
          }
        });
      } else if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          openSegment(ld, tile, seg);
          for (size_t c : columnLoads) {
            const Transfer &t = loads[c];
            // The vector a block starts in, and (where a core's block
            // crosses into it) the next; other cores read their first
            // vector again rather than past their data.
            SmallVector<ColumnPhase> phases = phasesOf(c, tile);
            std::vector<int64_t> first, next;
            for (const ColumnPhase &p : phases) {
              first.push_back(p.vectorOffset.count());
              next.push_back((p.vectorOffset +
                              (spansTwoVectors(p.lane, seg.rows) ? vectorBytes : Bytes(0)))
                                 .count());
              if (failed(checkColumnReadFits(t, p, spansTwoVectors(p.lane, seg.rows), seg)))
                return failure();
            }
            dc::Address address = segmentAddress(t, slotAddress(t, j, k), seg);
            ldTable.addTo(address, first);
            push(t, address);
            if (needsNextVector(phases, seg.rows)) {
              dc::Address second = segmentAddress(t, slotAddress(t, j, k), seg);
              ldTable.addTo(second, next);
              push(t, second);
            }
          }
          ld.loop(seg.rows);
          ld.loop(tile.extent.back() / vectorWidth);
          for (auto [i, t] : llvm::enumerate(loads))
            if (!llvm::is_contained(columnLoads, i))
              push(t, segmentAddress(t, slotAddress(t, j, k), seg));
          closeSegment(ld);
        }
      } else {
        openLoops(ld, tile);
        for (const Transfer &t : loads) {
          bool broadcast;
          push(t, vectorAddress(t, j, k, broadcast));
        }
        closeLoops(ld);
      }
      if (unalignedPush)
        return unalignedPush->first->tensor.emitError("a load unit push stepping ")
               << bufferPitch(*unalignedPush->first).back() << " bytes per row is not aligned to "
               << unalignedPush->second.count()
               << " bytes (a column broadcast of one element per row): "
               << "unaligned vector accesses are not lowered";
      ld.signal(nearest(dmaUnit), 2 * j);

      // Compute unit: the loaded inputs of one vector step arrive in load
      // order; an input without the vector dimension is broadcast.
      auto receive = [&](uint8_t r, dc::ElemType type, Elements count, int64_t) {
        vec.recv(r, type, count, nearest(ldUnit));
      };
      // Each result leaves in its buffer's pieces.
      auto sendResult = [&](unsigned i, uint8_t r) {
        scatterPieces(vec, r, stores[i], [&](uint8_t piece, int64_t) {
          vec.send(nearest(stUnit), piece);
        });
      };
      auto receiveInputs = [&]() {
        for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
          const ComputeInput &in = computeInputs[i];
          if (in.splat || llvm::is_contained(columnLoads, size_t(in.loadIndex)))
            continue;
          const Transfer &t = loads[in.loadIndex];
          bool broadcast = lacksVectorDim(t);
          gatherPieces(vec, reg[arg], t, broadcast ? 1 : piecesOf(t), receive);
          if (broadcast)
            vec.bcast(reg[arg], reg[arg], 0, Elements(vectorWidth));
        }
      };
      if (reduction) {
        auto read = [&](const SpacePosition &) -> LogicalResult {
          receiveInputs();
          return success();
        };
        auto compute = [&](const llvm::DenseMap<Value, uint8_t> &fixed) {
          return emitBody(vec, reg, nextReg, [](unsigned, uint8_t) {}, &fixed);
        };
        if (failed(reduction->emitCompute(vec, tile.extent, reg, body, read, compute,
                                          [&](unsigned i, uint8_t r, const SpacePosition &pos) {
                                            scatterPieces(
                                                vec, r, stores[i],
                                                [&](uint8_t piece, int64_t) {
                                                  vec.send(nearest(stUnit), piece);
                                                },
                                                resultPieces(stores[i], pos, tile.extent));
                                          })))
          return failure();
      } else if (!columnLoads.empty()) {
        for (const RowSegment &seg : rowSegments(tile)) {
          openSegment(vec, tile, seg);
          for (size_t c : columnLoads) {
            vec.recv(heldColumn[c], elemType, Elements(vectorWidth), nearest(ldUnit));
            SmallVector<ColumnPhase> phases = phasesOf(c, tile);
            bool next = needsNextVector(phases, seg.rows);
            if (next)
              vec.recv(*nextColumn, elemType, Elements(vectorWidth), nearest(ldUnit));
            if (llvm::all_of(phases, [](const ColumnPhase &p) { return p.lane == 0; }))
              continue;
            std::vector<int64_t> lanes;
            for (const ColumnPhase &p : phases)
              lanes.push_back(p.lane);
            std::optional<uint32_t> column = vecTable.columnFor(lanes);
            vec.ext(heldColumn[c], heldColumn[c], next ? *nextColumn : heldColumn[c],
                    lanes.front(), column);
          }
          vec.loop(seg.rows);
          broadcastHeldColumns(vec, reg, body, columnLoads, heldColumn);
          vec.loop(tile.extent.back() / vectorWidth);
          receiveInputs();
          if (failed(emitBody(vec, reg, nextReg, sendResult)))
            return failure();
          closeSegment(vec);
        }
      } else {
      openLoops(vec, tile);
      receiveInputs();
      if (failed(emitBody(vec, reg, nextReg, sendResult)))
        return failure();
      closeLoops(vec);
      }

      // Store unit: wait for free output slots, take the vectors, tell the
      // DMA the tile is complete.
      if (k >= outDepth)
        st.wait(0, 1);
      if (reduction) {
        reduction->emitOutputOrder(st, tile.extent, [&](const SpacePosition &pos) {
          for (const Transfer &t : stores) {
            bool broadcast;
            dc::Address address = positionAddress(t, slotAddress(t, j, k), pos, broadcast);
            for (int64_t p = 0; p < resultPieces(t, pos, tile.extent); ++p) {
              dc::Address piece = address;
              piece.offset = piece.offset + vectorBytes * p;
              st.pop(nearest(computeUnit), piece, vectorBytes);
            }
          }
        });
        st.signal(nearest(dmaUnit), 2 * j + 1);
        continue;
      }
      openLoops(st, tile);
      for (const Transfer &t : stores) {
        bool broadcast;
        dc::Address address = vectorAddress(t, j, k, broadcast);
        if (broadcast)
          return outer->emitError("a stored tensor must span the vector dimension");
        for (int64_t p = 0; p < piecesOf(t); ++p) {
          dc::Address piece = address;
          piece.offset = piece.offset + vectorBytes * p;
          st.pop(nearest(computeUnit), piece, vectorBytes);
        }
      }
      closeLoops(st);
      st.signal(nearest(dmaUnit), 2 * j + 1);
    }
    int64_t owed = std::min<int64_t>(tiles[j].size(), outDepth);
    if (owed > 0)
      st.wait(0, owed);
    ldTable.install(ld.program());
    vecTable.install(vec.program());
  }
  return success();
}

/// Fails on a group that loads a tensor an earlier group stores; then adds
/// the group's stored tensors to `stored`.
LogicalResult checkNoReadAfterWrite(ks::GroupOp group, llvm::StringSet<> &stored) {
  auto tensorsOf = [](ks::StageOp stage) {
    SmallVector<StringRef> names;
    if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
      for (Attribute transfer : transfers)
        if (auto dict = llvm::dyn_cast<DictionaryAttr>(transfer))
          if (auto tensor = dict.getAs<FlatSymbolRefAttr>("tensor"))
            names.push_back(tensor.getValue());
    return names;
  };
  WalkResult walk = group.walk([&](ks::StageOp stage) {
    if (stage.getRole() != "dma_load")
      return WalkResult::advance();
    for (StringRef name : tensorsOf(stage))
      if (stored.contains(name)) {
        stage.emitError("this compute group reads @")
            << name << ", which an earlier group writes: ordering groups through "
            << "global memory is not lowered";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  group.walk([&](ks::StageOp stage) {
    if (stage.getRole() == "dma_store")
      for (StringRef name : tensorsOf(stage))
        stored.insert(name);
  });
  return success();
}

} // namespace

FailureOr<LoweredKernel> ktflow::lower::lowerSchedule(ModuleOp module,
                                                      const arch::ArchModel &model,
                                                      const LowerOptions &options) {
  auto kernels = module.getOps<ks::KernelOp>();
  if (std::distance(kernels.begin(), kernels.end()) != 1) {
    module.emitError("expected exactly one scheduled kernel (ktsched.kernel)");
    return failure();
  }
  ks::KernelOp kernel = *kernels.begin();
  LoweredKernel out;
  out.bundle.device = model.name().str();
  // Groups run one after the other: each is lowered on its own, then every
  // unit instance's programs are concatenated in group order.
  std::vector<size_t> groupStarts;
  unsigned index = 0;
  llvm::StringSet<> storedByEarlierGroups;
  for (ks::GroupOp group : kernel.getBody().getOps<ks::GroupOp>()) {
    // A DMA reads its source when it issues, and a store of the previous
    // group may still be in flight then: reading what an earlier group
    // wrote would need a fence between the groups, which is not emitted.
    if (failed(checkNoReadAfterWrite(group, storedByEarlierGroups)))
      return failure();
    arch::Workload before = out.workload;
    GroupLowering lowering(model, options, kernel, group, out);
    lowering.deferStoreChecks = true;
    if (failed(lowering.collect()))
      return failure();
    FailureOr<SmallVector<GroupLowering::CoreClass>> classes = lowering.coreClasses();
    if (failed(classes))
      return failure();
    int64_t gridTiles = lowering.coreIds.size(), cores = std::max<int64_t>(lowering.cores, 1);
    // One round of unmasked tiles is lowered as is; a class that is partly
    // masked (even when it is every tile: a grid of one tile whose rows the
    // tensor does not fill) is lowered over its valid extent below.
    if (gridTiles <= cores && classes->size() == 1 &&
        (int64_t)classes->front().cores.size() == gridTiles &&
        llvm::equal(classes->front().space, group.getSpace())) {
      if (failed(lowering.checkStores()))
        return failure();
      groupStarts.push_back(out.bundle.programs.size());
      if (failed(lowering.emit(index++)))
        return failure();
      continue;
    }
    // More grid tiles than cores run in rounds (tile t on core t mod
    // cores); partly or fully masked grid tiles form classes of their own.
    // One lowering per round and class; their programs run one after the
    // other where they share a unit instance.
    out.workload = before;
    for (int64_t first = 0; first < gridTiles; first += cores)
      for (const GroupLowering::CoreClass &cls : *classes) {
        GroupLowering::CoreClass part{{}, cls.space, cls.shares, first};
        for (int64_t c : cls.cores)
          if (c >= first && c < first + cores)
            part.cores.push_back(c);
        if (part.cores.empty())
          continue;
        groupStarts.push_back(out.bundle.programs.size());
        GroupLowering lowerPart(model, options, kernel, group, out);
        lowerPart.restrictTo(part);
        if (failed(lowerPart.collect()) || failed(lowerPart.emit(index++)))
          return failure();
      }
  }
  mergeGroupPrograms(out.bundle, groupStarts, model);
  if (llvm::Error err = dc::verifyBundle(out.bundle, "lowered kernel")) {
    kernel.emitError(llvm::toString(std::move(err)));
    return failure();
  }
  if (llvm::Error err = sim::checkCapacity(out.bundle, model)) {
    kernel.emitError("static capacity check failed: ") << llvm::toString(std::move(err));
    return failure();
  }
  if (llvm::Error err = sim::checkDeadlockFree(out.bundle, model, options.checkLimits)) {
    kernel.emitError("static deadlock check failed: ") << llvm::toString(std::move(err));
    return failure();
  }
  return out;
}
