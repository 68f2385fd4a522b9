//===- InterTileEval.cpp - experimental inter-tile ops ---------------------===//
//
// ktir.md §5.9. A produce op's future is represented by the instance
// number of that execution (the k-th execution of the op in one tile pairs
// with the k-th in every other tile). Producing records the tile's partials
// for its group; reduce and consume wait (through the cooperative
// scheduler) until the producers they depend on have produced, then combine
// (identity first, then producers in increasing tile id) or deliver.
// Group and tile sets are enumerated over the linear tile ids 0 .. T-1.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

/// The groups of a future type, enumerated.
static std::vector<int64_t> groupsOf(TileExecutor &ex, ktdp::TileFutureType type) {
  std::string error;
  auto set = BoundSet::bind(type.getGroups(), {}, error);
  if (!set)
    ex.fail("groups: " + error);
  std::vector<int64_t> groups;
  set->forEach({0}, [&](ArrayRef<int64_t> p) { groups.push_back(p[0]); });
  return groups;
}

/// Tiles i in [0, T) with i in `set` (one dim) with symbols `symbols`.
static std::vector<int64_t> tilesIn(TileExecutor &ex, IntegerSet set,
                                    ArrayRef<int64_t> symbols, int64_t numTiles) {
  std::vector<int64_t> tiles;
  for (int64_t i = 0; i < numTiles; ++i) {
    int64_t p[1] = {i};
    bool in = true;
    for (unsigned c = 0; c < set.getNumConstraints() && in; ++c) {
      int64_t v = evaluateAffine(set.getConstraint(c), p, symbols);
      in = set.isEq(c) ? v == 0 : v >= 0;
    }
    if (in)
      tiles.push_back(i);
  }
  return tiles;
}

bool TileExecutor::execInterTile(Operation *op) {
  if (!launch.scheduler)
    fail("internal: inter-tile op without the cooperative scheduler");
  int64_t numTiles = launch.pads.numTiles();

  if (auto produce = dyn_cast<ktdp::InterTileProduceOp>(op)) {
    int64_t instance = produceCount[op]++;
    std::optional<int64_t> group;
    for (int64_t g : groupsOf(*this, produce.getType())) {
      auto members = tilesIn(*this, produce.getProducerTilesPerGroup(), {g}, numTiles);
      if (llvm::is_contained(members, tileId)) {
        group = g;
        break;
      }
    }
    auto key = std::make_pair(op, instance);
    if (group) {
      SmallVector<RtValue, 4> values =
          runBlock(produce.getBody().front(), {Scalar::ofInt(ElemKind::Index, *group)});
      current = op;
      launch.partials[key][tileId] = SmallVector<RtValue, 2>(values.begin(), values.end());
    }
    launch.produced[key].insert(tileId);
    launch.scheduler->noteProgress();
    set(produce.getResult(), Scalar::ofInt(ElemKind::Index, instance));
    return true;
  }

  auto deliver = [&](Value future, IntegerSet consumers,
                     std::optional<IntegerSet> dependency, ValueRange results,
                     llvm::function_ref<SmallVector<RtValue, 4>(
                         ArrayRef<int64_t>, Operation *, int64_t)> combine) {
    auto produce = future.getDefiningOp<ktdp::InterTileProduceOp>();
    if (!produce)
      fail("the future does not come from ktdp.inter_tile_produce");
    int64_t instance = scalar(future).i;
    std::optional<int64_t> group;
    for (int64_t g : groupsOf(*this, produce.getType()))
      if (llvm::is_contained(tilesIn(*this, consumers, {g}, numTiles), tileId)) {
        group = g;
        break;
      }
    if (!group)
      return false; // not a consumer: results undefined, do not wait
    std::vector<int64_t> producers =
        tilesIn(*this, produce.getProducerTilesPerGroup(), {*group}, numTiles);
    if (dependency) {
      std::vector<int64_t> symbols = {tileId, *group};
      symbols.resize(dependency->getNumSymbols());
      auto wanted = tilesIn(*this, *dependency, symbols, numTiles);
      std::vector<int64_t> kept;
      for (int64_t p : producers)
        if (llvm::is_contained(wanted, p))
          kept.push_back(p);
      producers = kept;
    }
    auto key = std::make_pair(produce.getOperation(), instance);
    launch.scheduler->waitUntil(
        tileId,
        [&] {
          auto it = launch.produced.find(key);
          if (it == launch.produced.end())
            return producers.empty();
          for (int64_t p : producers)
            if (!it->second.count(p))
              return false;
          return true;
        },
        "in '" + op->getName().getStringRef().str() + "' for group " +
            std::to_string(*group) + " producers",
        op);
    current = op;
    SmallVector<RtValue, 4> values = combine(producers, produce, instance);
    for (auto [res, v] : llvm::zip(results, values))
      set(res, v);
    return true;
  };

  if (auto reduce = dyn_cast<ktdp::InterTileReduceOp>(op)) {
    SmallVector<RtValue, 4> identity;
    for (Value v : reduce.getIdentity())
      identity.push_back(get(v));
    bool consumed = deliver(
        reduce.getFuture(), reduce.getConsumerTilesPerGroup(),
        reduce.getProducerDependencyPerConsumer(), reduce.getResults(),
        [&](ArrayRef<int64_t> producers, Operation *produce, int64_t instance) {
          SmallVector<RtValue, 4> acc = identity;
          auto &table = launch.partials[{produce, instance}];
          for (int64_t p : producers) {
            auto it = table.find(p);
            if (it == table.end())
              continue; // produced nothing for this group
            SmallVector<RtValue, 8> args(acc.begin(), acc.end());
            args.append(it->second.begin(), it->second.end());
            acc = runBlock(reduce.getCombiner().front(), args);
          }
          return acc;
        });
    if (!consumed)
      for (auto [res, v] : llvm::zip(reduce.getResults(), identity))
        set(res, v);
    return true;
  }

  if (auto consume = dyn_cast<ktdp::InterTileConsumeOp>(op)) {
    bool consumed = deliver(
        consume.getFuture(), consume.getConsumerTilesPerGroup(),
        consume.getProducerDependencyPerConsumer(), consume.getResults(),
        [&](ArrayRef<int64_t> producers, Operation *produce, int64_t instance) {
          if (producers.size() != 1)
            fail("inter_tile_consume: tile " + llvm::Twine(tileId) + " depends on " +
                 llvm::Twine(producers.size()) + " producers; it must receive from exactly one");
          auto &table = launch.partials[{produce, instance}];
          auto it = table.find(producers.front());
          if (it == table.end())
            fail("inter_tile_consume: producer tile " + llvm::Twine(producers.front()) +
                 " offered no partials");
          return SmallVector<RtValue, 4>(it->second.begin(), it->second.end());
        });
    if (!consumed)
      for (Value res : consume.getResults())
        set(res, TensorPtr(std::make_shared<Tensor>(
                     elemKindOf(res.getType()),
                     cast<RankedTensorType>(res.getType()).getShape())));
    return true;
  }
  return false;
}
