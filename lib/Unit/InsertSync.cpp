//===- InsertSync.cpp - channels to semaphores ----------------------------===//
//
// Strategy. A channel of depth D between a producer program P and a
// consumer program C becomes two counting semaphores:
//   "full" in C's unit: P's release signals it (at the consumer instance
//          P names through consumer_ref), C's acquire waits on it;
//   "free" in P's unit: C's release signals it (at the producer instance C
//          names through producer_ref), P's acquire waits on it.
// The free semaphore starts with D credits (`credit` first thing in P), so
// P runs up to D slots ahead without special-casing its first tiles, and P
// ends by waiting for all D credits to come back (the drain). Every
// semaphore is then zero when every program has finished, which is what
// lets the programs of consecutive groups be concatenated.
//
// Semaphores are numbered per unit node, above any a program already uses
// by hand (signal/wait/credit ops in the input), in channel order, and
// checked against the unit's count from the description: a schedule that
// needs more gets an error at the channel naming the unit.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/Passes.h"

#include "llvm/ADT/StringMap.h"

namespace ktflow::ktunit {
#define GEN_PASS_DEF_INSERTSYNC
#include "ktflow/Unit/Passes.h.inc"
} // namespace ktflow::ktunit

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

namespace {

struct ChannelSems {
  int64_t full = 0, free = 0;
};

struct InsertSyncPass : ktunit::impl::InsertSyncBase<InsertSyncPass> {
  using InsertSyncBase::InsertSyncBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool anyChannel = false;
    module.walk([&](ChannelOp) { anyChannel = true; });
    if (!anyChannel)
      return; // Nothing to do, and no description needed.
    auto model = ktsched::getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    for (BundleOp bundle : module.getOps<BundleOp>())
      if (failed(runOnBundle(bundle, *model)))
        return signalPassFailure();
  }

  LogicalResult runOnBundle(BundleOp bundle, const arch::ArchModel &model) {
    // Semaphores already in use, per unit node.
    llvm::StringMap<int64_t> nextSem;
    auto use = [&](StringRef unit, int64_t sem) {
      int64_t &next = nextSem[unit];
      next = std::max(next, sem + 1);
    };
    for (ProgramOp program : bundle.getOps<ProgramOp>())
      program.walk([&](Operation *op) {
        if (auto wait = dyn_cast<WaitOp>(op))
          use(program.getUnit(), wait.getSem());
        else if (auto credit = dyn_cast<CreditOp>(op))
          use(program.getUnit(), credit.getSem());
        else if (auto signal = dyn_cast<SignalOp>(op))
          use(signal.getPeer().getName(), signal.getSem());
      });

    SymbolTable symbols(bundle);
    llvm::DenseMap<StringAttr, ChannelSems> sems;
    SmallVector<ChannelOp> channels(bundle.getOps<ChannelOp>());
    for (ChannelOp channel : channels) {
      auto producer = symbols.lookup<ProgramOp>(channel.getProducer());
      auto consumer = symbols.lookup<ProgramOp>(channel.getConsumer());
      FailureOr<int64_t> full = allocate(channel, consumer.getUnit(), "full", nextSem, model);
      FailureOr<int64_t> free = allocate(channel, producer.getUnit(), "free", nextSem, model);
      if (failed(full) || failed(free))
        return failure();
      sems[channel.getSymNameAttr()] = {*full, *free};

      // Initial credits first thing in the producer, the drain last.
      OpBuilder builder(producer.getBody());
      builder.setInsertionPointToStart(&producer.getBody().front());
      CreditOp::create(builder, channel.getLoc(), *free, channel.getDepth());
      builder.setInsertionPointToEnd(&producer.getBody().front());
      WaitOp::create(builder, channel.getLoc(), *free, channel.getDepth());
    }

    SmallVector<Operation *> uses;
    bundle.walk([&](Operation *op) {
      if (isa<AcquireOp, ReleaseOp>(op))
        uses.push_back(op);
    });
    for (Operation *op : uses) {
      auto acquire = dyn_cast<AcquireOp>(op);
      auto release = dyn_cast<ReleaseOp>(op);
      StringAttr name = acquire ? acquire.getChannelAttr().getAttr()
                                : release.getChannelAttr().getAttr();
      auto channel = symbols.lookup<ChannelOp>(name);
      ChannelSems s = sems.lookup(name);
      OpBuilder builder(op);
      if (acquire) {
        int64_t sem = acquire.getSide() == Side::producer ? s.free : s.full;
        WaitOp::create(builder, op->getLoc(), sem, acquire.getCount());
      } else {
        bool producer = release.getSide() == Side::producer;
        NodeRefAttr peer = producer ? channel.getConsumerRef() : channel.getProducerRef();
        int64_t sem = producer ? s.full : s.free;
        // Signals carry no count: several slots are a counted loop of them.
        if (release.getCount() > 1) {
          auto loop = LoopOp::create(builder, op->getLoc(), release.getCount());
          builder.setInsertionPointToStart(&loop.getBody().emplaceBlock());
        }
        SignalOp::create(builder, op->getLoc(), peer, sem);
      }
      op->erase();
    }
    for (ChannelOp channel : channels)
      channel.erase();
    return success();
  }

  /// The next semaphore of `unit`, or an error at the channel when the
  /// description gives the unit fewer.
  FailureOr<int64_t> allocate(ChannelOp channel, StringRef unit, StringRef role,
                              llvm::StringMap<int64_t> &nextSem,
                              const arch::ArchModel &model) {
    std::optional<arch::NodeId> node = model.lookupNode(unit);
    if (!node)
      return channel.emitError() << "unit '" << unit << "' is not a node of @" << model.name();
    int64_t sem = nextSem[unit]++;
    int64_t available = model.semaphoreCount(*node);
    if (sem >= available)
      return channel.emitError() << "channel @" << channel.getSymName() << " needs its "
                                 << role << " semaphore in unit '" << unit << "' as number "
                                 << sem << ", but @" << model.name() << " gives '" << unit
                                 << "' " << available << " semaphores";
    return sem;
  }
};

} // namespace
