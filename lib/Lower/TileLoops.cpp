//===- TileLoops.cpp - rolling alike tiles into counted loops ---------------===//
//
// Strategy. A sub-core's tiles (and the DMA's steps over them) are emitted
// one by one except for the longest run of tiles that differ only in where
// they start (same extent, every transfer a constant step further): that
// run is a counted loop over periods of the slot rotation (the least common
// multiple of the buffers' depths), so each of a period's tiles keeps its
// slots, and only the global addresses step, by a loop term. The first
// tiles before the run and the last tile (whose stored run may be widened)
// are peeled. Code size and compile time then do not grow with the tiles.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::visitTiles(ArrayRef<ktunit::ProgramBuilder *> programs, int64_t n,
                                        TileRoll roll,
                                        llvm::function_ref<LogicalResult(int64_t)> emitItem) {
  bool rolled = roll.repeat >= 2 && roll.first + roll.repeat * roll.period <= n;
  for (int64_t i = 0; i < n;) {
    if (rolled && i == roll.first) {
      for (ktunit::ProgramBuilder *p : programs)
        p->loopAround(roll.repeat);
      rollingPeriod = roll.period;
      for (int64_t u = 0; u < roll.period; ++u)
        if (failed(emitItem(i + u)))
          return failure();
      rollingPeriod = 0;
      periodLater = nullptr;
      for (ktunit::ProgramBuilder *p : programs)
        p->endLoopAround();
      i += roll.repeat * roll.period;
      continue;
    }
    if (failed(emitItem(i++)))
      return failure();
  }
  return success();
}

std::pair<int64_t, int64_t> GroupLowering::alikeTiles(int64_t j) const {
  // An over-fetched load's lead differs per tile.
  if (llvm::any_of(loads, [](const Transfer &t) { return t.overFetch; }))
    return {0, 0};
  const std::vector<Tile> &list = tiles[j];
  int64_t n = int64_t(list.size()) - 1; // the last tile stays out
  auto steps = [&](int64_t k) {
    SmallVector<int64_t, 8> d;
    for (const Transfer &t : llvm::concat<const Transfer>(loads, stores)) {
      if (!isDistributed(t)) {
        d.push_back(tileElementOffset(t, list[k + 1]) - tileElementOffset(t, list[k]));
        continue;
      }
      // A distributed view's tiles are alike where they are cut into the
      // same pieces and each piece steps alike on every core; a tile whose
      // pieces change ends the run (its step is unlike any other).
      std::optional<SmallVector<int64_t>> pieces = pieceSteps(t, list[k], list[k + 1]);
      if (!pieces) {
        d.append({std::numeric_limits<int64_t>::min(), k});
        continue;
      }
      d.append(pieces->begin(), pieces->end());
    }
    return d;
  };
  int64_t bestA = 0, bestB = 0;
  for (int64_t a = 0; a < n;) {
    int64_t b = a + 1;
    SmallVector<int64_t, 8> step = steps(a);
    while (b < n && list[b].extent == list[a].extent && steps(b) == step)
      ++b;
    // Tiles a..b-1 are alike and b is one step on; b is one of them if its
    // extent is theirs. It may also start the next run.
    int64_t end = std::min(list[b].extent == list[a].extent ? b + 1 : b, n);
    if (end - a > bestB - bestA)
      bestA = a, bestB = end;
    a = b;
  }
  return {bestA, bestB};
}

int64_t GroupLowering::tilePeriod() const {
  int64_t period = 1;
  for (const Transfer &t : llvm::concat<const Transfer>(loads, stores, innerLoads, innerStores))
    if (!t.hoisted)
      period = std::lcm(period, std::max<int64_t>(1, t.depth));
  return period;
}

GroupLowering::TileRoll GroupLowering::tileRoll(int64_t j) const {
  // Tiles guarded by launch-table entries stay unrolled (SymbolicTrips.cpp).
  if (symbolic())
    return {0, tilePeriod(), 0};
  auto [a, b] = alikeTiles(j);
  int64_t period = tilePeriod();
  return {a, period, (b - a) / period};
}

GroupLowering::TileRoll GroupLowering::stepRoll(int64_t lag) const {
  if (symbolic())
    return {0, tilePeriod(), 0};
  // Steps whose loads and stores are alike tiles on every sub-core.
  int64_t first = 0, last = std::numeric_limits<int64_t>::max();
  for (int64_t j = 0; j < (int64_t)tiles.size(); ++j) {
    auto [a, b] = alikeTiles(j);
    first = std::max(first, a + lag);
    last = std::min(last, b);
  }
  // A hoisted load is copied at step 0 only.
  if (llvm::any_of(loads, [](const Transfer &t) { return t.hoisted; }))
    first = std::max<int64_t>(first, 1);
  int64_t period = tilePeriod();
  if (tiles.empty() || last <= first)
    return {0, period, 0};
  return {first, period, (last - first) / period};
}
