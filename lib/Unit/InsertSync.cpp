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
// Semaphores are numbered per unit instance, above any a program already
// uses by hand (signal/wait/credit ops in the input), in channel order: a
// channel end takes the lowest number free on every instance its program
// runs on, so the programs of different sub-core instances reuse numbers.
// Each is checked against the unit's count from the description: a schedule that
// needs more gets an error at the channel naming the unit.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/Passes.h"

#include "llvm/ADT/StringMap.h"

#include <map>

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

/// Semaphore numbers taken per unit instance. A number reserved for the
/// whole unit (one the input already uses) is above every instance's.
class SemaphoreUse {
public:
  void reserveAll(StringRef unit, int64_t sem) {
    int64_t &floor = unitFloor[unit];
    floor = std::max(floor, sem + 1);
  }
  /// The lowest number free on all of `instances`, taken on each.
  int64_t take(StringRef unit, ArrayRef<int64_t> instances) {
    std::map<int64_t, int64_t> &next = perInstance[unit];
    int64_t sem = unitFloor.lookup(unit);
    for (int64_t i : instances)
      sem = std::max(sem, next[i]);
    for (int64_t i : instances)
      next[i] = sem + 1;
    return sem;
  }

private:
  llvm::StringMap<int64_t> unitFloor;
  llvm::StringMap<std::map<int64_t, int64_t>> perInstance;
};

struct InsertSyncPass : ktunit::impl::InsertSyncBase<InsertSyncPass> {
  using InsertSyncBase::InsertSyncBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool anyChannel = false;
    module.walk([&](Operation *op) { anyChannel |= isa<ChannelOp, FenceOp>(op); });
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
    // Semaphores in use, per unit node and instance: programs of one unit
    // that run on different instances reuse numbers (one program per
    // sub-core instance each needs only its own).
    SemaphoreUse use;
    for (ProgramOp program : bundle.getOps<ProgramOp>())
      program.walk([&](Operation *op) {
        if (auto wait = dyn_cast<WaitOp>(op))
          use.reserveAll(program.getUnit(), wait.getSem());
        else if (auto credit = dyn_cast<CreditOp>(op))
          use.reserveAll(program.getUnit(), credit.getSem());
        else if (auto signal = dyn_cast<SignalOp>(op))
          use.reserveAll(signal.getPeer().getName(), signal.getSem());
      });
    SymbolTable symbols(bundle);
    llvm::DenseMap<StringAttr, ChannelSems> sems;
    SmallVector<ChannelOp> channels(bundle.getOps<ChannelOp>());
    for (ChannelOp channel : channels) {
      auto producer = symbols.lookup<ProgramOp>(channel.getProducer());
      auto consumer = symbols.lookup<ProgramOp>(channel.getConsumer());
      FailureOr<int64_t> full = allocate(channel, consumer, "full", use, model);
      FailureOr<int64_t> free = allocate(channel, producer, "free", use, model);
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
          auto loop = LoopOp::create(builder, op->getLoc(), release.getCount(), IntegerAttr());
          builder.setInsertionPointToStart(&loop.getBody().emplaceBlock());
        }
        SignalOp::create(builder, op->getLoc(), peer, sem);
      }
      op->erase();
    }
    for (ChannelOp channel : channels)
      channel.erase();
    return lowerFences(bundle, use, model);
  }

  /// Each program's fences share one semaphore of its unit: a signal to
  /// the instance itself, delivered once its earlier writes have landed,
  /// and a wait for it.
  LogicalResult lowerFences(BundleOp bundle, SemaphoreUse &use, const arch::ArchModel &model) {
    for (ProgramOp program : bundle.getOps<ProgramOp>()) {
      SmallVector<FenceOp> fences;
      program.walk([&](FenceOp fence) { fences.push_back(fence); });
      if (fences.empty())
        continue;
      FailureOr<int64_t> sem = allocate(fences.front(), program, "fence", use, model);
      if (failed(sem))
        return failure();
      for (FenceOp fence : fences) {
        OpBuilder builder(fence);
        SignalOp::create(builder, fence.getLoc(), fence.getSelf(), *sem);
        WaitOp::create(builder, fence.getLoc(), *sem, 1);
        fence.erase();
      }
    }
    return success();
  }

  static std::string describe(Operation *at) {
    if (auto channel = dyn_cast<ChannelOp>(at))
      return ("channel @" + channel.getSymName()).str();
    return "program @" + programOf(at).getSymName().str();
  }

  /// The next semaphore free on every instance `program` runs on, or an
  /// error at the channel when the description gives the unit fewer.
  FailureOr<int64_t> allocate(Operation *at, ProgramOp program, StringRef role,
                              SemaphoreUse &use, const arch::ArchModel &model) {
    StringRef unit = program.getUnit();
    std::optional<arch::NodeId> node = model.lookupNode(unit);
    if (!node)
      return at->emitError() << "unit '" << unit << "' is not a node of @" << model.name();
    SmallVector<int64_t> instances;
    if (program.getInstances())
      instances.assign(program.getInstances()->begin(), program.getInstances()->end());
    else
      for (int64_t i = 0; i < model.nodeInstanceCount(*node); ++i)
        instances.push_back(i);
    int64_t sem = use.take(unit, instances);
    int64_t available = model.semaphoreCount(*node);
    if (sem >= available)
      return at->emitError() << describe(at) << " needs its " << role
                             << " semaphore in unit '" << unit << "' as number " << sem
                             << ", but @" << model.name() << " gives '" << unit << "' "
                             << available << " semaphores";
    return sem;
  }
};

} // namespace

LogicalResult ktunit::insertSync(BundleOp bundle, const arch::ArchModel &model) {
  InsertSyncPass pass;
  return pass.runOnBundle(bundle, model);
}
