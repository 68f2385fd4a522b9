//===- CheckDeadlock.cpp - channels balance, the sync skeleton completes --===//
//
// Strategy. Two analyses of the unit IR, neither of which runs device code.
//
// 1. Balance (before sync insertion): per channel, the slots the producer
//    program releases per instance (counts times the trip counts of the
//    loops around each release) must equal the slots the consumer
//    acquires, and the slots the consumer releases must equal those the
//    producer acquires (its drain is added by ktunit-insert-sync).
//
// 2. Abstract execution of the synchronisation skeleton: every instance of
//    every program keeps only its acquire/release (token counts on the
//    channel's full and free counters of an instance) or wait/signal/credit
//    (semaphores of an instance) ops and the loops around them; loops
//    without any are dropped, so the cost is the number of hand-offs, not
//    of vectors. Instances run round-robin until each blocks or ends; if
//    all are blocked and some have not ended, the report says who waits on
//    what. Because every loop is counted, this is exact: it succeeds if and
//    only if the device code cannot deadlock on its semaphores. A step
//    budget (`max-steps`) bounds the work. At the end every semaphore must
//    be zero (a channel's free counter back at its depth), so the programs
//    of consecutive groups can be concatenated.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/Passes.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <tuple>

namespace ktflow::ktunit {
#define GEN_PASS_DEF_CHECKDEADLOCK
#include "ktflow/Unit/Passes.h.inc"
} // namespace ktflow::ktunit

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

namespace {

/// A token counter: a semaphore of a unit instance, or a channel's full or
/// free counter at an instance.
struct Counter {
  enum Kind { Semaphore, Full, Free } kind;
  int64_t id;               ///< Semaphore number or channel index.
  arch::NodeInstance where; ///< The instance the counter lives in.
  auto key() const { return std::make_tuple(int(kind), id, where.node, where.index); }
  bool operator<(const Counter &o) const { return key() < o.key(); }
};

/// One op of the skeleton: a loop bracket or a token move.
struct Step {
  enum Kind { LoopBegin, LoopEnd, Take, Give } kind;
  int64_t count = 0;      ///< Trip count (LoopBegin) or tokens.
  int64_t column = -1;    ///< LoopBegin: the table column holding the count.
  size_t match = 0;       ///< LoopBegin <-> LoopEnd.
  Operation *op = nullptr;
  /// Take: own counter. Give: the counter of the peer (resolved per instance).
  Counter::Kind counter = Counter::Semaphore;
  int64_t id = 0;
  NodeRefAttr peer;       ///< Give: whose counter.
};

struct Process {
  ProgramOp program;
  arch::NodeInstance self;
  SmallVector<int64_t> row;
  const std::vector<Step> *steps = nullptr;
  size_t pc = 0;
  SmallVector<std::pair<size_t, int64_t>> loops; ///< (LoopBegin index, iteration)
  bool done() const { return pc >= steps->size(); }
};

struct CheckDeadlockPass : ktunit::impl::CheckDeadlockBase<CheckDeadlockPass> {
  using CheckDeadlockBase::CheckDeadlockBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.getOps<BundleOp>().empty())
      return;
    model = ktsched::getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    for (BundleOp bundle : module.getOps<BundleOp>())
      if (failed(checkBalance(bundle)) || failed(execute(bundle)))
        return signalPassFailure();
  }

  //===--------------------------------------------------------------------===//
  // Balance
  //===--------------------------------------------------------------------===//

  LogicalResult checkBalance(BundleOp bundle) {
    // Trip counts from the table differ per instance: the abstract
    // execution, which ends with every counter back at zero, checks them.
    bool perInstanceTrips = false;
    bundle.walk([&](LoopOp loop) { perInstanceTrips |= loop.getCountColumn().has_value(); });
    if (perInstanceTrips)
      return success();
    // Per (channel, side): slots acquired and released per instance.
    std::map<std::pair<std::string, Side>, std::pair<int64_t, int64_t>> moved;
    bundle.walk([&](Operation *op) {
      int64_t trips = tripProduct(op);
      if (auto acquire = dyn_cast<AcquireOp>(op))
        moved[{acquire.getChannel().str(), acquire.getSide()}].first +=
            acquire.getCount() * trips;
      else if (auto release = dyn_cast<ReleaseOp>(op))
        moved[{release.getChannel().str(), release.getSide()}].second +=
            release.getCount() * trips;
    });
    bool ok = true;
    for (ChannelOp channel : bundle.getOps<ChannelOp>()) {
      auto p = moved[{channel.getSymName().str(), Side::producer}];
      auto c = moved[{channel.getSymName().str(), Side::consumer}];
      if (p.second != c.first) {
        channel.emitError() << "channel @" << channel.getSymName() << ": producer @"
                            << channel.getProducer() << " releases " << p.second
                            << " full slot(s) per instance but consumer @"
                            << channel.getConsumer() << " acquires " << c.first;
        ok = false;
      } else if (c.second != p.first) {
        channel.emitError() << "channel @" << channel.getSymName() << ": consumer @"
                            << channel.getConsumer() << " releases " << c.second
                            << " free slot(s) per instance but producer @"
                            << channel.getProducer() << " acquires " << p.first;
        ok = false;
      }
    }
    return success(ok);
  }

  //===--------------------------------------------------------------------===//
  // Abstract execution
  //===--------------------------------------------------------------------===//

  /// The skeleton of `block`, appended to `steps`; returns whether it has
  /// any token move.
  bool skeleton(Block &block, std::vector<Step> &steps,
                const llvm::DenseMap<StringAttr, int64_t> &channelIndex,
                SymbolTable &symbols) {
    bool any = false;
    for (Operation &op : block) {
      Step step;
      step.op = &op;
      if (auto loop = dyn_cast<LoopOp>(op)) {
        size_t begin = steps.size();
        steps.push_back({Step::LoopBegin, loop.getCount(), -1, 0, &op});
        if (std::optional<int64_t> column = loop.getCountColumn())
          steps.back().column = *column;
        if (!skeleton(loop.getBody().front(), steps, channelIndex, symbols)) {
          steps.resize(begin);
          continue;
        }
        steps[begin].match = steps.size();
        steps.push_back({Step::LoopEnd, 0, -1, begin, &op});
        any = true;
        continue;
      }
      if (auto compute = dyn_cast<ComputeOp>(op)) {
        any |= skeleton(compute.getBody().front(), steps, channelIndex, symbols);
        continue;
      }
      if (auto acquire = dyn_cast<AcquireOp>(op)) {
        step.kind = Step::Take;
        step.count = acquire.getCount();
        step.counter = acquire.getSide() == Side::producer ? Counter::Free : Counter::Full;
        step.id = channelIndex.lookup(acquire.getChannelAttr().getAttr());
      } else if (auto release = dyn_cast<ReleaseOp>(op)) {
        auto channel = symbols.lookup<ChannelOp>(release.getChannel());
        bool producer = release.getSide() == Side::producer;
        step.kind = Step::Give;
        step.count = release.getCount();
        step.counter = producer ? Counter::Full : Counter::Free;
        step.id = channelIndex.lookup(release.getChannelAttr().getAttr());
        step.peer = producer ? channel.getConsumerRef() : channel.getProducerRef();
      } else if (auto wait = dyn_cast<WaitOp>(op)) {
        step.kind = Step::Take;
        step.count = wait.getCount();
        step.id = wait.getSem();
      } else if (auto signal = dyn_cast<SignalOp>(op)) {
        step.kind = Step::Give;
        step.count = 1;
        step.id = signal.getSem();
        step.peer = signal.getPeer();
      } else if (auto credit = dyn_cast<CreditOp>(op)) {
        step.kind = Step::Give;
        step.count = credit.getCount();
        step.id = credit.getSem();
      } else {
        continue;
      }
      steps.push_back(step);
      any = true;
    }
    return any;
  }

  /// A loop's trip count on `process`: its own, or its table column's.
  static int64_t tripCount(const Process &process, const Step &loop) {
    if (loop.column < 0)
      return loop.count;
    return loop.column < int64_t(process.row.size()) ? process.row[loop.column] : 0;
  }

  /// The instance a peer reference names from `process`.
  FailureOr<arch::NodeInstance> resolve(const Process &process, NodeRefAttr peer,
                                        Operation *at) {
    std::optional<arch::NodeId> node = model->lookupNode(peer.getName());
    if (!node)
      return at->emitError() << "@" << peer.getName() << " is not a node of @" << model->name();
    int64_t index = 0;
    switch (peer.getKind()) {
    case InstanceKind::Absolute:
      index = peer.getValue();
      break;
    case InstanceKind::Column:
      if (peer.getValue() >= int64_t(process.row.size()))
        return at->emitError() << "table column t" << peer.getValue() << " is missing";
      index = process.row[peer.getValue()];
      break;
    case InstanceKind::Nearest: {
      std::optional<arch::Route> to = model->routeTo(process.self, *node);
      std::optional<arch::Route> from = model->routeFrom(*node, process.self);
      if (!to && !from)
        return at->emitError() << "no route between " << model->instanceName(process.self)
                               << " and @" << peer.getName();
      return to ? to->dest : from->source;
    }
    }
    if (index < 0 || index >= model->nodeInstanceCount(*node))
      return at->emitError() << "@" << peer.getName() << " has no instance " << index;
    return arch::NodeInstance{*node, index};
  }

  std::string describe(const Counter &c, BundleOp bundle) {
    std::string where = model->instanceName(c.where);
    if (c.kind == Counter::Semaphore)
      return llvm::formatv("semaphore {0} of {1}", c.id, where).str();
    auto channels = llvm::to_vector(bundle.getOps<ChannelOp>());
    return llvm::formatv("{0} slots of channel @{1} at {2}",
                         c.kind == Counter::Full ? "full" : "free",
                         channels[c.id].getSymName(), where)
        .str();
  }

  LogicalResult execute(BundleOp bundle) {
    SymbolTable symbols(bundle);
    llvm::DenseMap<StringAttr, int64_t> channelIndex;
    SmallVector<ChannelOp> channels(bundle.getOps<ChannelOp>());
    for (auto [i, channel] : llvm::enumerate(channels))
      channelIndex[channel.getSymNameAttr()] = int64_t(i);

    std::vector<std::vector<Step>> skeletons;
    std::vector<Process> processes;
    std::map<Counter, int64_t> counters;
    SmallVector<ProgramOp> programs(bundle.getOps<ProgramOp>());
    skeletons.reserve(programs.size());
    for (ProgramOp program : programs) {
      std::optional<arch::NodeId> unit = model->lookupNode(program.getUnit());
      if (!unit)
        return program.emitError() << "unit '" << program.getUnit() << "' is not a node of @"
                                   << model->name();
      skeletons.emplace_back();
      skeleton(program.getBody().front(), skeletons.back(), channelIndex, symbols);
      SmallVector<int64_t> instances;
      if (program.getInstances())
        instances.assign(program.getInstances()->begin(), program.getInstances()->end());
      else
        for (int64_t i = 0; i < model->nodeInstanceCount(*unit); ++i)
          instances.push_back(i);
      SmallVector<SmallVector<int64_t>> rows = program.getTableRows();
      for (auto [i, instance] : llvm::enumerate(instances)) {
        if (instance >= model->nodeInstanceCount(*unit))
          return program.emitError() << "@" << program.getUnit() << " has no instance "
                                     << instance;
        Process p;
        p.program = program;
        p.self = {*unit, instance};
        if (i < rows.size())
          p.row = rows[i];
        p.steps = &skeletons.back();
        processes.push_back(std::move(p));
      }
    }
    // A channel's free counters start full: `depth` free slots at every
    // producer instance.
    for (Process &p : processes)
      for (auto [i, channel] : llvm::enumerate(channels))
        if (channel.getProducer() == p.program.getSymName())
          counters[{Counter::Free, int64_t(i), p.self}] += channel.getDepth();

    int64_t steps = 0;
    bool progress = true;
    while (progress) {
      progress = false;
      for (Process &p : processes) {
        while (!p.done()) {
          if (++steps > maxSteps)
            return bundle.emitError() << "the synchronisation skeleton did not finish within "
                                      << int64_t(maxSteps) << " steps (option max-steps)";
          const Step &s = (*p.steps)[p.pc];
          if (s.kind == Step::LoopBegin) {
            if (tripCount(p, s) == 0) {
              p.pc = s.match + 1;
              continue;
            }
            p.loops.push_back({p.pc, 0});
            ++p.pc;
          } else if (s.kind == Step::LoopEnd) {
            auto &[begin, iteration] = p.loops.back();
            if (++iteration < tripCount(p, (*p.steps)[begin])) {
              p.pc = begin + 1;
            } else {
              p.loops.pop_back();
              ++p.pc;
            }
          } else if (s.kind == Step::Take) {
            int64_t &have = counters[{s.counter, s.id, p.self}];
            if (have < s.count)
              break;
            have -= s.count;
            ++p.pc;
          } else {
            arch::NodeInstance target = p.self;
            if (s.peer) {
              FailureOr<arch::NodeInstance> resolved = resolve(p, s.peer, s.op);
              if (failed(resolved))
                return failure();
              target = *resolved;
            }
            counters[{s.counter, s.id, target}] += s.count;
            ++p.pc;
          }
          progress = true;
        }
      }
    }

    SmallVector<Process *> blocked;
    for (Process &p : processes)
      if (!p.done())
        blocked.push_back(&p);
    if (!blocked.empty()) {
      const Step &first = (*blocked.front()->steps)[blocked.front()->pc];
      InFlightDiagnostic diag = first.op->emitError()
                                << "deadlock: " << blocked.size() << " instance(s) wait forever";
      for (Process *p : blocked) {
        const Step &s = (*p->steps)[p->pc];
        Counter c{s.counter, s.id, p->self};
        diag.attachNote(s.op->getLoc())
            << model->instanceName(p->self) << " (program @" << p->program.getSymName()
            << ") waits for " << s.count << " of " << describe(c, bundle) << ", which has "
            << counters[c];
      }
      return failure();
    }
    for (auto &[c, value] : counters) {
      int64_t expected = 0;
      if (c.kind == Counter::Free)
        expected = channels[c.id].getDepth();
      if (value != expected)
        return bundle.emitError() << describe(c, bundle) << " ends at " << value
                                  << ", not " << expected
                                  << ": every signal must be waited for";
    }
    return success();
  }

  std::shared_ptr<const arch::ArchModel> model;
};

} // namespace

LogicalResult ktunit::checkDeadlock(BundleOp bundle, const arch::ArchModel &model,
                                    int64_t maxSteps) {
  CheckDeadlockOptions options;
  options.maxSteps = maxSteps;
  CheckDeadlockPass pass(options);
  // Not owned: the model outlives the check.
  pass.model = std::shared_ptr<const arch::ArchModel>(std::shared_ptr<void>(), &model);
  return success(succeeded(pass.checkBalance(bundle)) && succeeded(pass.execute(bundle)));
}
