//===- GatherTransfer.cpp - a gather moved by the DMA's indexed copy ------===//
//
// Strategy. A ktsched.gather arrives with every choice made by
// ktsched-schedule-gather: `transfer = dma_gather`, the DMA, the memory it
// lands data in, the rows per gather (`block`), the row slots (`depth`)
// and the regions. This lowering follows them mechanically. Grid tile t
// runs on core t mod cores, in rounds, and its rows are moved by the DMA
// instance serving that core; per grid tile the DMA
//
//  1. copies the tile's index run into the `index` region, as the whole
//     granules covering it (the first index `lead` bytes in), and fences:
//     the gather must not read the indices before they have landed;
//  2. per block of rows (a counted loop, a shorter last block peeled):
//     gathers the rows the block's indices name into slot k mod depth
//     (`gather`: indices first, then the rows), fences, and copies the
//     slot out to the stored block. With two slots or more the gathers run
//     one block ahead: block k + 1's gather is issued before block k's
//     copy out, then one fence waits for both, so the next block's index
//     fetch does not queue behind the copy out on the scratchpad's link to
//     the DMA and its rows come in while block k's go out. The loop then
//     runs over periods of `depth` blocks, unrolled, so each block's slot
//     is a constant.
//
// A scatter (`transfer = dma_scatter`) runs the same steps the other way
// round: per block it copies the block's rows into the slot, fences, and
// scatters the slot into the table rows the block's indices name (the
// device's `scatter`); the fence before the next block's scatter also
// waits for this one's, so the runs land in the rows' order and of two
// rows scattered to one table row the later stays.
//
// What differs between the instances of one program (the index run's
// granules and lead, the table's and the stored block's starts, the
// instance's share of a memory several instances share) is a table
// column. A DMA serving several tiles of a round (deep's one DMA into L2)
// runs their code one after the other; instances that serve different
// numbers of tiles, or whose index runs cover different numbers of
// granules, get bundles of their own.
//
//===----------------------------------------------------------------------===//
#include "GatherTransfer.h"
#include "TileOperand.h"

#include "ktflow/Schedule/ArchAccess.h"

#include <map>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

namespace {

/// Where a grid tile's transfers start (bytes from their symbols' starts).
struct TilePlace {
  int64_t tile = 0, indexStart = 0, lead = 0, span = 0, tableStart = 0, blockStart = 0;
};

/// The tiles one DMA instance serves in a round.
struct Served {
  int64_t instance = 0;
  SmallVector<TilePlace> tiles;
};

class GatherLowering {
public:
  GatherLowering(const arch::ArchModel &model, ks::KernelOp kernel, ks::GatherOp op,
                 LoweredKernel &out, KernelSymbols &symbols)
      : model(model), kernel(kernel), op(op), out(out), symbols(symbols) {}

  LogicalResult collect();
  FailureOr<SmallVector<TilePlace>> placeTiles();
  LogicalResult emitBundle(ktunit::BundleOp bundle, ArrayRef<Served> served);
  int64_t gridTiles() const { return grid[0] * grid[1] * grid[2]; }
  int64_t dmaInstanceOf(int64_t tile) const { return (tile % cores) * dmaInstances / cores; }
  int64_t cores = 1;

private:
  /// Which block a step moves: `base + period * i` for the index i of the
  /// loop at `loopDepth` (or the constant `base` outside a loop). A period
  /// of 1 takes the slot as i mod depth; a multiple of `depth` keeps the
  /// block's slot constant.
  struct Chunk {
    int64_t base = 0;
    std::optional<uint32_t> loopDepth;
    int64_t period = 1;
  };
  /// The parts of one block's transfer: the copy into the slot (scatter)
  /// or the indexed copy out of the table (gather), the fence, and the
  /// other side.
  enum Part : unsigned { kIn = 1, kFence = 2, kOut = 4, kAll = 7 };
  /// One block of `count` rows of the tile in table columns `cols`.
  void emitBlock(ktunit::ProgramBuilder &dma, uint32_t cols, int64_t count, Chunk chunk,
                 unsigned parts = kAll);
  /// A gather's blocks, each gathered one block ahead of its copy out.
  void emitPipelinedGather(ktunit::ProgramBuilder &dma, uint32_t cols);

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::GatherOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  SmallVector<int64_t> grid;
  TileOperand src, index, dst;
  /// A scatter (the table is dst, the block src), or a gather.
  bool scatter = false;
  /// The side the indices name and the dense block.
  const TileOperand &tableSide() const { return scatter ? dst : src; }
  const TileOperand &blockSide() const { return scatter ? src : dst; }
  std::string dmaUnit, memory;
  int64_t rows = 0, rowBytes = 0, block = 0, depth = 1, granule = 0, alignment = 1;
  int64_t maxRun = 0, instanceStride = 0, sharers = 1, dmaInstances = 1;
  int64_t indexRegion = 0, indexRegionBytes = 0, rowsRegion = 0, slotBytes = 0, bound = 0;
  dc::ElemType indexType = dc::ElemType::I32;
  uint32_t symTable = 0, symIndex = 0, symBlock = 0, baseColumn = 0, selfColumn = 0;
};

LogicalResult GatherLowering::collect() {
  grid.assign(kernel.getGrid().begin(), kernel.getGrid().end());
  while (grid.size() < 3)
    grid.push_back(1);
  FailureOr<TileOperand> s = resolveTileOperand(kernel, op, op.getSrc());
  FailureOr<TileOperand> i = resolveTileOperand(kernel, op, op.getIndex());
  FailureOr<TileOperand> d = resolveTileOperand(kernel, op, op.getDst());
  if (failed(s) || failed(i) || failed(d))
    return failure();
  src = *s, index = *i, dst = *d;
  scatter = op.getScatter();
  rows = src.shape[0];
  rowBytes = src.esize;
  for (int64_t e : ArrayRef(src.shape).drop_front())
    rowBytes *= e;
  indexType = index.regType;
  bound = tableSide().tensor.getShape()[0];
  // Every decision the lowering follows; a missing one is an error.
  auto how = dyn_cast_or_null<StringAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "transfer"));
  auto blockAttr = dyn_cast_or_null<IntegerAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "block"));
  auto depthAttr = dyn_cast_or_null<IntegerAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "depth"));
  auto regions = op->getAttrOfType<DictionaryAttr>("regions");
  auto granuleAttr = op->getAttrOfType<IntegerAttr>("granule");
  auto dmaAttr = op->getAttrOfType<StringAttr>("dma_unit");
  auto memoryAttr = op->getAttrOfType<StringAttr>("memory");
  if (!how || !blockAttr || !depthAttr || !regions || !granuleAttr || !dmaAttr || !memoryAttr ||
      !regions.getAs<DenseI64ArrayAttr>("index") || !regions.getAs<DenseI64ArrayAttr>("rows"))
    return op.emitError("gather without the decisions of ktsched-schedule-gather");
  StringRef expected = scatter ? "dma_scatter" : "dma_gather";
  if (how.getValue() != expected)
    return op.emitError("transfer = ") << how.getValue() << " is not lowered (only "
                                       << expected << ")";
  block = blockAttr.getInt(), depth = depthAttr.getInt(), granule = granuleAttr.getInt();
  dmaUnit = dmaAttr.getValue().str(), memory = memoryAttr.getValue().str();
  ArrayRef<int64_t> indexSpan = regions.getAs<DenseI64ArrayAttr>("index").asArrayRef();
  ArrayRef<int64_t> rowsSpan = regions.getAs<DenseI64ArrayAttr>("rows").asArrayRef();
  indexRegion = indexSpan[0], indexRegionBytes = indexSpan[1], rowsRegion = rowsSpan[0], slotBytes = rowsSpan[1];
  if (auto stride = op->getAttrOfType<IntegerAttr>("instance_stride"))
    instanceStride = stride.getInt();
  if (block < 1 || depth < 1 || block * rowBytes != slotBytes)
    return op.emitError("gather block of ") << block << " rows does not fill its "
                                            << slotBytes << "-byte slot";

  std::optional<ktsched::Placement> placement = ktsched::findPlacement(model, op.getLoc());
  std::optional<arch::NodeId> dmaNode = model.lookupNode(dmaUnit);
  std::optional<arch::NodeId> memoryNode = model.lookupNode(memory);
  if (!placement || !dmaNode || !memoryNode)
    return op.emitError("gather's DMA or memory is not in the description");
  cores = std::max<int64_t>(placement->cores, 1);
  dmaInstances = model.nodeInstanceCount(*dmaNode);
  sharers = std::max<int64_t>(1, dmaInstances / std::max<int64_t>(
                                                    1, model.nodeInstanceCount(*memoryNode)));
  const arch::AccessRule *global = model.node(*dmaNode).accessTo(placement->global);
  const arch::AccessRule *local = model.node(*dmaNode).accessTo(*memoryNode);
  if (!global || !local)
    return op.emitError("gather's DMA cannot access global memory and @") << memory;
  maxRun = std::min(global->maxSize, local->maxSize).count();
  alignment = std::max({global->alignment, local->alignment, Bytes(1)}).count();
  if (maxRun % granule)
    return op.emitError("the DMA's largest run is not whole ") << granule << "-byte granules";
  return success();
}

FailureOr<SmallVector<TilePlace>> GatherLowering::placeTiles() {
  // A block must lie inside its tensor's valid extent along every
  // dimension: masking gathered or stored points is not lowered.
  auto within = [&](const TileOperand &t, int64_t tile, StringRef what) -> LogicalResult {
    int64_t g0 = tile % grid[0], g1 = (tile / grid[0]) % grid[1], g2 = tile / (grid[0] * grid[1]);
    SmallVector<int64_t> corner = t.origin.compose(SmallVector<int64_t>{g0, g1, g2, 0});
    for (size_t d = 0; d < corner.size(); ++d) {
      int64_t from = corner[d] - t.tensor.getLowerCorner()[d];
      int64_t extent = &t == &tableSide() && d == 0 ? 0 : t.shape[d];
      if (from < 0 || from + extent > t.tensor.getShape()[d])
        return op.emitError("grid tile ")
               << tile << "'s " << what << " reaches past its view along dimension " << d
               << " ([" << from << ", " << from + extent << ") of " << t.tensor.getShape()[d]
               << "): masked " << (scatter ? "scatters" : "gathers") << " are missing";
    }
    return success();
  };
  int64_t indexBytes = rows * index.esize;
  SmallVector<TilePlace> placed;
  for (int64_t t = 0; t < gridTiles(); ++t) {
    if (failed(within(tableSide(), t, scatter ? "scattered columns" : "gathered columns")) ||
        failed(within(index, t, "index run")) ||
        failed(within(blockSide(), t, scatter ? "loaded block" : "stored block")))
      return failure();
    TilePlace p;
    p.tile = t;
    int64_t start = tileOperandOffset(index, grid, t);
    p.lead = start % granule;
    p.indexStart = start - p.lead;
    p.span = (p.lead + indexBytes + granule - 1) / granule * granule;
    p.tableStart = tileOperandOffset(tableSide(), grid, t);
    p.blockStart = tileOperandOffset(blockSide(), grid, t);
    if (p.lead % index.esize)
      return op.emitError("grid tile ") << t << "'s index run is not on an index boundary";
    if (p.tableStart % alignment || p.blockStart % alignment)
      return op.emitError("grid tile ")
             << t << "'s gathered columns or stored block start off a " << alignment
             << "-byte DMA boundary";
    if (p.span > indexRegionBytes)
      return op.emitError("grid tile ") << t << "'s index run spans " << p.span
                                        << " bytes, more than its " << indexRegionBytes
                                        << "-byte region";
    placed.push_back(p);
  }
  return placed;
}

void GatherLowering::emitBlock(ktunit::ProgramBuilder &dma, uint32_t cols, int64_t count,
                               Chunk chunk, unsigned parts) {
  using dc::ProgramBuilder;
  // An address `offset + chunk * stride` bytes on; for the slot (`slots`
  // set) the chunk is taken mod the slots.
  auto at = [&](dc::Address addr, int64_t stride, bool slots = false) {
    int64_t base = slots ? chunk.base % depth : chunk.base;
    addr.offset = addr.offset + Bytes(base * stride);
    if (!chunk.loopDepth || !stride)
      return addr;
    if (!slots)
      addr.terms.push_back({*chunk.loopDepth, Bytes(chunk.period * stride), 0});
    else if (chunk.period % depth != 0 && depth != 1)
      addr.terms.push_back({*chunk.loopDepth, Bytes(stride), depth});
    return addr;
  };
  auto withColumn = [](dc::Address addr, uint32_t column) {
    addr.tableColumn = column;
    return addr;
  };
  dc::Address slot = at(withColumn(ProgramBuilder::memoryAddress(memory, Bytes(rowsRegion)),
                                   baseColumn),
                        slotBytes, /*slots=*/true);
  dc::Address indices =
      at(withColumn(ProgramBuilder::memoryAddress(memory, Bytes(indexRegion)), cols + 1),
         block * index.esize);
  dc::Address tableAt = withColumn(ProgramBuilder::symbolAddress(symTable), cols + 2);
  dc::Address blockAt = at(withColumn(ProgramBuilder::symbolAddress(symBlock), cols + 3),
                           block * blockSide().tensor.getStrides()[0] * blockSide().esize);
  int64_t tableStride = tableSide().tensor.getStrides()[0] * tableSide().esize;
  int64_t blockStride = blockSide().tensor.getStrides()[0] * blockSide().esize;
  dc::NodeRef self =
      ProgramBuilder::node(dmaUnit, {dc::InstanceSelector::Kind::TableColumn, selfColumn});
  // The block's rows between global memory and the slot: one run where
  // they are back to back and fit one, else one run per row.
  auto copyBlock = [&](bool in) {
    dc::Address from = in ? blockAt : slot, to = in ? slot : blockAt;
    if (blockStride == rowBytes && count * rowBytes <= maxRun)
      dma.copy(to, from, Bytes(count * rowBytes), {});
    else if (in)
      dma.copy(to, from, Bytes(rowBytes), {{count, Bytes(blockStride), Bytes(rowBytes)}});
    else
      dma.copy(to, from, Bytes(rowBytes), {{count, Bytes(rowBytes), Bytes(blockStride)}});
  };
  if (scatter) {
    if (parts & kIn)
      copyBlock(/*in=*/true);
    if (parts & kFence)
      dma.fence(self);
    if (parts & kOut)
      dma.scatter(tableAt, slot, Bytes(rowBytes), {{count, Bytes(rowBytes), Bytes(tableStride)}},
                  indices, indexType, bound);
    return;
  }
  if (parts & kIn)
    dma.gather(slot, tableAt, Bytes(rowBytes), {{count, Bytes(tableStride), Bytes(rowBytes)}},
               indices, indexType, bound);
  if (parts & kFence)
    dma.fence(self);
  if (parts & kOut)
    copyBlock(/*in=*/false);
}

void GatherLowering::emitPipelinedGather(ktunit::ProgramBuilder &dma, uint32_t cols) {
  using dc::ProgramBuilder;
  dc::NodeRef self =
      ProgramBuilder::node(dmaUnit, {dc::InstanceSelector::Kind::TableColumn, selfColumn});
  int64_t full = rows / block, rest = rows % block, blocks = full + (rest ? 1 : 0);
  auto countOf = [&](int64_t b) { return b < full ? block : rest; };
  // Block 0 is gathered alone; then step k gathers block k + 1, copies block
  // k out and fences both; the last block's copy out closes.
  emitBlock(dma, cols, countOf(0), {0, std::nullopt, 1}, kIn | kFence);
  // The steps whose gathered block is a whole one form periods of `depth`
  // steps (constant slots); the rest, and a step gathering the short last
  // block, are peeled.
  int64_t wholeSteps = std::max<int64_t>(0, full - 1);
  int64_t periods = wholeSteps / depth;
  auto step = [&](int64_t k, std::optional<uint32_t> loopDepth, int64_t period) {
    emitBlock(dma, cols, countOf(k + 1), {k + 1, loopDepth, period}, kIn);
    emitBlock(dma, cols, countOf(k), {k, loopDepth, period}, kOut);
    dma.fence(self);
  };
  if (periods == 1) {
    for (int64_t r = 0; r < depth; ++r)
      step(r, std::nullopt, depth);
  } else if (periods > 1) {
    uint32_t loopDepth = dma.loopDepth();
    dma.loop(periods);
    for (int64_t r = 0; r < depth; ++r)
      step(r, loopDepth, depth);
    dma.end();
  }
  for (int64_t k = periods * depth; k + 1 < blocks; ++k)
    step(k, std::nullopt, depth);
  emitBlock(dma, cols, countOf(blocks - 1), {blocks - 1, std::nullopt, 1}, kOut);
}

LogicalResult GatherLowering::emitBundle(ktunit::BundleOp bundle, ArrayRef<Served> served) {
  using dc::ProgramBuilder;
  symTable = tileOperandSymbol(model, kernel, tableSide(), scatter, out, symbols);
  // A scatter writes only the rows its indices name: the others keep what
  // the table held, so the table is read as well as written.
  if (scatter)
    tileOperandSymbol(model, kernel, tableSide(), false, out, symbols);
  symIndex = tileOperandSymbol(model, kernel, index, false, out, symbols);
  symBlock = tileOperandSymbol(model, kernel, blockSide(), !scatter, out, symbols);
  // Table: per served tile the index run's granules, the region base plus
  // the lead, the table's and the stored block's starts; then the
  // instance's region base and the instance itself.
  size_t perInstance = served.front().tiles.size();
  baseColumn = 4 * perInstance, selfColumn = baseColumn + 1;
  std::vector<int64_t> instances;
  for (const Served &s : served)
    instances.push_back(s.instance);
  ktunit::ProgramBuilder dma(bundle, "dma", dmaUnit, instances, selfColumn + 1, symbols.names,
                             op.getLoc());
  for (const Served &s : served) {
    int64_t base = (s.instance % sharers) * instanceStride;
    std::vector<int64_t> row;
    for (const TilePlace &p : s.tiles)
      row.insert(row.end(), {p.indexStart, base + p.lead, p.tableStart, p.blockStart});
    row.push_back(base);
    row.push_back(s.instance);
    dma.addTableRow(row);
  }
  dc::NodeRef self =
      ProgramBuilder::node(dmaUnit, {dc::InstanceSelector::Kind::TableColumn, selfColumn});
  int64_t full = rows / block, rest = rows % block;
  for (size_t k = 0; k < perInstance; ++k) {
    uint32_t cols = 4 * k;
    // The index run, in pieces of at most one DMA run.
    int64_t span = served.front().tiles[k].span;
    for (int64_t done = 0; done < span; done += maxRun) {
      dc::Address to = ProgramBuilder::memoryAddress(memory, Bytes(indexRegion + done));
      to.tableColumn = baseColumn;
      dc::Address from = ProgramBuilder::symbolAddress(symIndex, Bytes(done));
      from.tableColumn = cols;
      dma.copy(to, from, Bytes(std::min(maxRun, span - done)), {});
    }
    dma.fence(self);
    if (!scatter && depth > 1 && full + (rest ? 1 : 0) > 1) {
      emitPipelinedGather(dma, cols);
      continue;
    }
    if (full == 1) {
      emitBlock(dma, cols, block, {0, std::nullopt, 1});
    } else if (full > 1) {
      uint32_t loopDepth = dma.loopDepth();
      dma.loop(full);
      emitBlock(dma, cols, block, {0, loopDepth, 1});
      dma.end();
    }
    if (rest)
      emitBlock(dma, cols, rest, {full, std::nullopt, 1});
  }
  return dma.status();
}

} // namespace

LogicalResult ktflow::lower::detail::lowerGather(const arch::ArchModel &model,
                                                 ks::KernelOp kernel, ks::GatherOp op,
                                                 LoweredKernel &out, KernelSymbols &symbols,
                                                 llvm::function_ref<ktunit::BundleOp()> newBundle) {
  GatherLowering lowering(model, kernel, op, out, symbols);
  if (failed(lowering.collect()))
    return failure();
  FailureOr<SmallVector<TilePlace>> places = lowering.placeTiles();
  if (failed(places))
    return failure();
  // Rounds of one tile per core; within a round, the tiles each DMA
  // instance serves, and one bundle per class of instances serving as many
  // tiles with index runs of the same spans.
  int64_t tiles = lowering.gridTiles(), cores = lowering.cores;
  for (int64_t first = 0; first < tiles; first += cores) {
    std::map<int64_t, Served> perInstance;
    for (int64_t t = first; t < std::min(tiles, first + cores); ++t) {
      Served &s = perInstance[lowering.dmaInstanceOf(t)];
      s.instance = lowering.dmaInstanceOf(t);
      s.tiles.push_back((*places)[t]);
    }
    std::map<SmallVector<int64_t>, SmallVector<Served>> classes;
    for (auto &[instance, s] : perInstance) {
      SmallVector<int64_t> key;
      for (const TilePlace &p : s.tiles)
        key.push_back(p.span);
      classes[key].push_back(s);
    }
    for (auto &[key, served] : classes)
      if (failed(lowering.emitBundle(newBundle(), served)))
        return failure();
  }
  return success();
}
