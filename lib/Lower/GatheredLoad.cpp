//===- GatheredLoad.cpp - a tile's rows gathered or scattered by index -----===//
//
// Strategy. A load of a compute group through a gathered tensor (a table's
// rows in the order an index tensor names them, KTSchedOps.td) fills its
// slot like any load, so the load unit, the compute and the stores never
// see the difference: only the DMA's copy changes. A store through one
// (computed rows scattered) is the same the other way round: the DMA's
// `scatter` writes row k of the slot to table row index[k], the runs in
// order, so of two rows of one tile scattered to one table row the later
// stays (ktir.md 5.7); grid tiles writing one row race, as in KTIR. The tile's rows are
// positions p0 .. p0 + R - 1 of the index tensor; the DMA's `gather` reads
// those R indices straight from global memory, then row index[k] of the
// table's columns into row k of the slot. The addresses are linear in the
// tile's coordinates, split by dimension: the index run starts at the
// index tensor's element p0, the table's run at the table's first column
// (its rows' offsets come from the indices). What differs between the
// cores lowered together is where those two start, each a column of the
// DMA program's table; inside a loop over periods of alike tiles both step
// by their own loop term.
//
// The indices are read from where the kernel keeps them, once per tile:
// no copy into scratchpad and no fence, since the DMA reads them itself
// before the rows. Each row must be one legal DMA run (the DMA cannot
// over-fetch around a row whose address it learns at run time); rows that
// are not, dense rows and streamed parts are diagnosed. The gather checks
// every index against the table's rows: an index outside them stops the
// run at this instruction, where KTIR would mask the point to 0.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

SmallVector<int64_t> GroupLowering::tileCoordinates(const Transfer &t, int64_t linear,
                                                    const Tile &tile) const {
  auto grid = ks::KernelOp(kernel).getGrid();
  SmallVector<int64_t> coords = {linear % grid[0], (linear / grid[0]) % grid[1],
                                 linear / (grid[0] * grid[1])};
  coords.push_back((loopLower.empty() ? 0 : loopLower[linear]) + tile.iteration * loopStep);
  coords.resize(t.origin.getNumDims(), 0);
  SmallVector<int64_t> origin = t.origin.compose(coords);
  auto lower = t.tensor.getLowerCorner();
  for (size_t i = 0; i < origin.size(); ++i) {
    int64_t d = i < t.dims.size() ? t.dims[i] : -1;
    origin[i] += (d >= 0 ? tile.origin[d] : 0) - (i < lower.size() ? lower[i] : 0);
  }
  return origin;
}

void GroupLowering::gatherRows(ktunit::ProgramBuilder &dma, const Transfer &t, const Tile &tile,
                               dc::Address local, bool isLoad, InstanceTable *perCore) {
  auto problem = [&](const std::string &why) {
    if (!dmaProblem)
      dmaProblem = {t.tensor.getOperation(), (isLoad ? "gathered rows " : "scattered rows ") + why};
  };
  if (t.denseRows || t.overFetch || partLater)
    return problem("read as dense rows, over-fetched or streamed");
  auto indexTensor = ks::KernelOp(kernel).lookupSymbol<ks::TensorOp>(*t.tensor.getGatherIndex());
  std::optional<dc::ElemType> indexType =
      indexTensor ? registerType(indexTensor.getElementType()) : std::nullopt;
  if (!indexTensor || !indexType || t.dims.size() != 2 || t.dims[0] < 0 || t.dims[1] < 0)
    return problem("of a table that is not 2-D, or through indices that are not integers");
  ElementSize indexSize = ks::elementSize(indexTensor.getElementType());
  auto strides = t.tensor.getStrides();
  int64_t indexStride = indexTensor.getStrides().front();
  // Bytes into the table (its first column of the tile; the row comes from
  // the index) and into the index tensor (the tile's first position).
  auto starts = [&](const Tile &at, SmallVector<int64_t> &table, SmallVector<int64_t> &index) {
    SmallVector<int64_t> cores =
        servedCore >= 0 ? SmallVector<int64_t>{servedCore} : SmallVector<int64_t>(coreIds);
    for (int64_t c : cores) {
      SmallVector<int64_t> coords = tileCoordinates(t, c, at);
      table.push_back(
          toBytes(Elements(t.tensor.getOffset() + coords[1] * strides[1]), t.esize).count());
      index.push_back(toBytes(Elements(indexTensor.getOffset() + coords[0] * indexStride),
                              indexSize)
                          .count());
    }
  };
  SmallVector<int64_t> tableStarts, indexStarts;
  starts(tile, tableStarts, indexStarts);
  Transfer indexTransfer = t;
  indexTransfer.tensor = indexTensor;
  indexTransfer.arg = indexTensor.getArg();
  indexTransfer.esize = indexSize;
  dc::Address table = dc::ProgramBuilder::symbolAddress(symbolOf(t, !isLoad), Bytes(0));
  dc::Address index = dc::ProgramBuilder::symbolAddress(symbolOf(indexTransfer, false), Bytes(0));
  for (auto [address, values] : {std::pair(&table, &tableStarts), std::pair(&index, &indexStarts)}) {
    if (perCore)
      perCore->addTo(*address, *values);
    else if (llvm::all_equal(*values))
      address->offset = Bytes(values->front());
    else
      return problem("without a start for every core");
  }
  const arch::AccessRule *rule = globalDmaRule();
  if (periodLater) {
    // Inside a loop over periods of alike tiles: both runs step to where
    // the tile a period on starts (the same on every core).
    SmallVector<int64_t> tableLater, indexLater;
    starts(*periodLater, tableLater, indexLater);
    Bytes tableStep(tableLater.front() - tableStarts.front());
    Bytes indexStep(indexLater.front() - indexStarts.front());
    if (tableStep.count() != 0)
      table.terms.push_back({ktunit::ProgramBuilder::kLoopAround, tableStep, 0});
    if (indexStep.count() != 0)
      index.terms.push_back({ktunit::ProgramBuilder::kLoopAround, indexStep, 0});
    if (rule && !rule->allowsAddress(tableStep))
      problem("of tiles " + std::to_string(tableStep.count()) +
              " bytes apart, which is not aligned to the DMA's " +
              std::to_string(rule->alignment.count()) + " bytes");
  }
  SmallVector<int64_t> pitch = bufferPitch(t);
  int64_t rows = tile.extent[t.dims[0]];
  Bytes run = toBytes(Elements(tile.extent[t.dims[1]]), t.esize);
  Bytes rowStride = toBytes(Elements(strides[0]), t.esize);
  if (rule) {
    if (!rule->allowsSize(run))
      problem("of " + std::to_string(run.count()) + " bytes, which is not one DMA run (" +
              accessRuleText(*model.lookupNode(dmaUnit), model.memoriesBacking(
                                                             arch::KtirSpace::Global).front(),
                             *rule) +
              ")");
    if (!rule->allowsAddress(rowStride))
      problem("of a table whose rows are " + std::to_string(rowStride.count()) +
              " bytes apart, which is not aligned to the DMA's " +
              std::to_string(rule->alignment.count()) + " bytes");
    for (int64_t b : tableStarts)
      if (!rule->allowsAddress(Bytes(b)))
        problem("starting at byte " + std::to_string(b) +
                " of a table row, which is not aligned to the DMA's " +
                std::to_string(rule->alignment.count()) + " bytes");
  }
  if (isLoad)
    dma.gather(local, table, run, {{rows, rowStride, Bytes(pitch[0])}}, index, *indexType,
               *t.tensor.getGatherBound());
  else
    dma.scatter(table, local, run, {{rows, Bytes(pitch[0]), rowStride}}, index, *indexType,
                *t.tensor.getGatherBound());
}
