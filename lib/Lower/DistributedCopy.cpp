//===- DistributedCopy.cpp - DMA copies through a distributed view ---------===//
//
// Strategy. A distributed view's tensor names its partitions' tensors
// (ktsched-resolve-partitions checked that they neither overlap nor leave a
// hole). Where a tile lies is known per grid tile (the grid is static and
// origins are affine in it), so a tile's copy becomes one copy per
// partition piece it touches: the piece's box is the tile's box met with
// the partition's, its global address the partition's own (its argument,
// offset, lower corner and strides: local coordinate = global coordinate
// minus the partition's lower corner), its slot address the tile's slot at
// the piece's start. The lowering of several cores at once is SPMD, so the
// cores lowered together must cut their tiles alike (coreClasses()
// separates grid tiles whose pieces differ); what differs between them is
// where each piece starts, a column of the DMA program's table. A core's
// tiles cut into the same pieces, each stepping alike, roll into a loop
// over periods as any alike tiles (TileLoops.cpp), each piece's address
// stepping by its own loop term. The DMA's access rules are checked as for
// any copy; over-fetched reads, dense rows and streamed copies through a
// distributed view are diagnosed.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

SmallVector<PartitionPiece> GroupLowering::partitionPieces(const Transfer &t, int64_t linear,
                                                           const Tile *tile) const {
  auto grid = ks::KernelOp(kernel).getGrid();
  SmallVector<int64_t> coords = {linear % grid[0], (linear / grid[0]) % grid[1],
                                 linear / (grid[0] * grid[1])};
  // The group's loop variable at the tile's iteration.
  coords.push_back((loopLower.empty() ? 0 : loopLower[linear]) +
                   (tile ? tile->iteration * loopStep : 0));
  coords.resize(t.origin.getNumDims(), 0);
  SmallVector<int64_t> origin = t.origin.compose(coords);
  // The tile's box in global coordinates, cut to the union's box.
  size_t rank = origin.size();
  SmallVector<int64_t> lo(rank), hi(rank);
  auto unionLower = t.tensor.getLowerCorner();
  auto unionShape = t.tensor.getShape();
  for (size_t i = 0; i < rank; ++i) {
    int64_t d = i < t.dims.size() ? t.dims[i] : -1;
    int64_t start = origin[i] + (tile && d >= 0 ? tile->origin[d] : 0);
    int64_t extent = tile && d >= 0 ? tile->extent[d] : t.shape[i];
    lo[i] = std::max(start, unionLower[i]);
    hi[i] = std::min(start + extent, unionLower[i] + unionShape[i]);
    // Relative to the tile's first coordinate (the slot's first element).
    origin[i] = start;
  }
  SmallVector<PartitionPiece> pieces;
  for (auto [p, part] : llvm::enumerate(ks::partitionTensors(t.tensor))) {
    PartitionPiece piece;
    piece.partition = p;
    bool empty = false;
    for (size_t i = 0; i < rank; ++i) {
      int64_t a = std::max(lo[i], part.getLowerCorner()[i]);
      int64_t b = std::min(hi[i], part.getLowerCorner()[i] + part.getShape()[i]);
      empty |= a >= b;
      piece.start.push_back(a - origin[i]);
      piece.extent.push_back(b - a);
    }
    if (!empty)
      pieces.push_back(std::move(piece));
  }
  return pieces;
}

SmallVector<SmallVector<int64_t>> GroupLowering::pieceStarts(const Transfer &t,
                                                             const Tile &a) const {
  SmallVector<ks::TensorOp> partitions = ks::partitionTensors(t.tensor);
  auto grid = ks::KernelOp(kernel).getGrid();
  SmallVector<int64_t> cores =
      servedCore >= 0 ? SmallVector<int64_t>{servedCore} : SmallVector<int64_t>(coreIds);
  SmallVector<SmallVector<int64_t>> starts;
  for (int64_t c : cores) {
    SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1], c / (grid[0] * grid[1])};
    coords.push_back((loopLower.empty() ? 0 : loopLower[c]) + a.iteration * loopStep);
    coords.resize(t.origin.getNumDims(), 0);
    SmallVector<int64_t> origin = t.origin.compose(coords);
    SmallVector<int64_t> bytes;
    for (const PartitionPiece &piece : partitionPieces(t, c, &a)) {
      ks::TensorOp part = partitions[piece.partition];
      // Local coordinate = global coordinate minus the partition's lower
      // corner, at the partition's own strides and offset.
      int64_t elements = part.getOffset();
      for (size_t i = 0; i < origin.size(); ++i) {
        int64_t d = i < t.dims.size() ? t.dims[i] : -1;
        int64_t at = origin[i] + (d >= 0 ? a.origin[d] : 0) + piece.start[i];
        elements += (at - part.getLowerCorner()[i]) * part.getStrides()[i];
      }
      bytes.push_back(toBytes(Elements(elements), t.esize).count());
    }
    starts.push_back(std::move(bytes));
  }
  return starts;
}

std::optional<SmallVector<int64_t>> GroupLowering::pieceSteps(const Transfer &t, const Tile &a,
                                                              const Tile &b) const {
  SmallVector<int64_t> cores =
      servedCore >= 0 ? SmallVector<int64_t>{servedCore} : SmallVector<int64_t>(coreIds);
  SmallVector<int64_t> result;
  SmallVector<PartitionPiece> first;
  for (int64_t c : cores) {
    SmallVector<PartitionPiece> pa = partitionPieces(t, c, &a), pb = partitionPieces(t, c, &b);
    if (pa != pb || (c != cores.front() && pa != first))
      return std::nullopt;
    if (c == cores.front())
      first = pa;
  }
  SmallVector<SmallVector<int64_t>> from = pieceStarts(t, a), to = pieceStarts(t, b);
  for (size_t k = 0; k < first.size(); ++k) {
    int64_t step = to.front()[k] - from.front()[k];
    for (size_t ci = 0; ci < from.size(); ++ci)
      if (to[ci][k] - from[ci][k] != step)
        return std::nullopt;
    result.push_back(first[k].partition);
    result.append(first[k].start.begin(), first[k].start.end());
    result.append(first[k].extent.begin(), first[k].extent.end());
    result.push_back(step);
  }
  return result;
}

void GroupLowering::copyPieces(ktunit::ProgramBuilder &dma, const Transfer &t, const Tile &tile,
                               dc::Address local, bool isLoad, InstanceTable *perCore) {
  auto problem = [&](const std::string &why) {
    if (!dmaProblem)
      dmaProblem = {t.tensor.getOperation(), "a copy through a distributed view " + why};
  };
  if (t.denseRows || t.overFetch || partLater)
    return problem("of dense, over-fetched or streamed rows");
  SmallVector<int64_t> cores =
      servedCore >= 0 ? SmallVector<int64_t>{servedCore} : SmallVector<int64_t>(coreIds);
  SmallVector<SmallVector<PartitionPiece>> perCorePieces;
  for (int64_t c : cores)
    perCorePieces.push_back(partitionPieces(t, c, &tile));
  if (!llvm::all_equal(perCorePieces))
    return problem("whose grid tiles lowered together touch different partitions");
  SmallVector<ks::TensorOp> partitions = ks::partitionTensors(t.tensor);
  SmallVector<int64_t> pitch = bufferPitch(t);
  const arch::AccessRule *rule = globalDmaRule();
  SmallVector<SmallVector<int64_t>> starts = pieceStarts(t, tile);
  // Inside a loop over periods of alike tiles (alikeTiles checked that
  // the pieces step alike): each piece steps to where it is a period on.
  std::optional<SmallVector<SmallVector<int64_t>>> later;
  if (periodLater)
    later = pieceStarts(t, *periodLater);
  for (auto [k, piece] : llvm::enumerate(perCorePieces.front())) {
    ks::TensorOp part = partitions[piece.partition];
    Transfer pt = t;
    pt.tensor = part;
    pt.arg = part.getArg();
    uint32_t symbol = symbolOf(pt, !isLoad);
    std::vector<int64_t> bases;
    for (const SmallVector<int64_t> &core : starts)
      bases.push_back(core[k]);
    dc::Address global = dc::ProgramBuilder::symbolAddress(symbol, Bytes(0));
    if (perCore)
      perCore->addTo(global, bases);
    else if (llvm::all_equal(bases))
      global.offset = Bytes(bases.front());
    else
      return problem("without a start for every core");
    if (later) {
      Bytes stride((*later).front()[k] - bases.front());
      global.terms.push_back({ktunit::ProgramBuilder::kLoopAround, stride, 0});
      if (rule && !rule->allowsAddress(stride))
        problem("of tiles " + std::to_string(stride.count()) +
                " bytes apart, which is not aligned to the DMA's " +
                std::to_string(rule->alignment.count()) + " bytes");
    }
    dc::Address slot = local;
    for (size_t i = 0; i < piece.start.size(); ++i)
      slot.offset = slot.offset + Bytes(pitch[i] * piece.start[i]);
    SmallVector<dc::CopyDim> dims;
    auto strides = part.getStrides();
    for (size_t i = 0; i + 1 < piece.extent.size(); ++i) {
      if (piece.extent[i] == 1)
        continue;
      Bytes globalStep = toBytes(Elements(strides[i]), t.esize), localStep(pitch[i]);
      dims.push_back({piece.extent[i], isLoad ? globalStep : localStep,
                      isLoad ? localStep : globalStep});
      if (rule && !rule->allowsAddress(globalStep))
        problem("steps " + std::to_string(globalStep.count()) +
                " bytes, which is not aligned to the DMA's " +
                std::to_string(rule->alignment.count()) + " bytes");
    }
    Bytes run = toBytes(Elements(piece.extent.back()), t.esize);
    if (rule && !rule->allowsSize(run))
      problem("of a " + std::to_string(run.count()) +
              "-byte run, outside the DMA's access sizes");
    if (rule)
      for (int64_t b : bases)
        if (!rule->allowsAddress(Bytes(b)))
          problem("starting at byte " + std::to_string(b) + " of @" +
                  part.getSymName().str() + ", which is not aligned to the DMA's " +
                  std::to_string(rule->alignment.count()) + " bytes");
    if (isLoad)
      dma.copy(slot, global, run, dims);
    else
      dma.copy(global, slot, run, dims);
  }
}
