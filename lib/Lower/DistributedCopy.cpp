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
// where each piece starts, a column of the DMA program's table. The DMA's
// access rules are checked as for any copy; over-fetched reads, dense rows
// and rolled or streamed copies through a distributed view are diagnosed.
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
  coords.push_back(loopLower.empty() ? 0 : loopLower[linear]);
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

void GroupLowering::copyPieces(ktunit::ProgramBuilder &dma, const Transfer &t, const Tile &tile,
                               dc::Address local, bool isLoad, InstanceTable *perCore) {
  auto problem = [&](const std::string &why) {
    if (!dmaProblem)
      dmaProblem = {t.tensor.getOperation(), "a copy through a distributed view " + why};
  };
  if (t.denseRows || t.overFetch || periodLater || partLater)
    return problem("of dense, over-fetched, rolled or streamed rows");
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
  for (auto [k, piece] : llvm::enumerate(perCorePieces.front())) {
    ks::TensorOp part = partitions[piece.partition];
    Transfer pt = t;
    pt.tensor = part;
    pt.arg = part.getArg();
    uint32_t symbol = symbolOf(pt, !isLoad);
    // Where the piece starts in its partition, per core (elements from the
    // partition's argument: local coordinate = global minus its lower
    // corner).
    auto strides = part.getStrides();
    std::vector<int64_t> bases;
    for (int64_t c : cores) {
      auto grid = kernel.getGrid();
      SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1],
                                     c / (grid[0] * grid[1])};
      coords.push_back(loopLower.empty() ? 0 : loopLower[c]);
      coords.resize(t.origin.getNumDims(), 0);
      SmallVector<int64_t> origin = t.origin.compose(coords);
      int64_t elements = part.getOffset();
      for (size_t i = 0; i < origin.size(); ++i) {
        int64_t d = i < t.dims.size() ? t.dims[i] : -1;
        int64_t at = origin[i] + (d >= 0 ? tile.origin[d] : 0) + piece.start[i];
        elements += (at - part.getLowerCorner()[i]) * strides[i];
      }
      bases.push_back(toBytes(Elements(elements), t.esize).count());
    }
    dc::Address global = dc::ProgramBuilder::symbolAddress(symbol, Bytes(0));
    if (perCore)
      perCore->addTo(global, bases);
    else if (llvm::all_equal(bases))
      global.offset = Bytes(bases.front());
    else
      return problem("without a start for every core");
    dc::Address slot = local;
    for (size_t i = 0; i < piece.start.size(); ++i)
      slot.offset = slot.offset + Bytes(pitch[i] * piece.start[i]);
    SmallVector<dc::CopyDim> dims;
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
