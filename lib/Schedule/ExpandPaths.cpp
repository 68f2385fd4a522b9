//===- ExpandPaths.cpp - one stage per unit on each transfer's route ------===//
//
// Strategy: the load and store stages of the initial pipeline are logical.
// For each, ask the architecture model for the cheapest route between the
// global memory and the compute unit the group is bound to (instance 0;
// all instances are symmetric), then walk the route: every mover on it
// becomes a stage bound to that unit, every memory on it a buffer, and a
// link into or out of the compute unit that is a FIFO becomes a bound
// FIFO; a compute unit that reads or writes a memory directly takes the
// buffer itself. All transfers of a stage must share a route. Each stage
// and channel gets `level`: the number of memory levels between it and
// global memory, which nesting uses.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_EXPANDPATHS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

static StringRef roleOf(NodeKind kind, bool towardCompute) {
  switch (kind) {
  case NodeKind::Dma:
    return towardCompute ? "dma_load" : "dma_store";
  case NodeKind::LoadUnit:
    return "load";
  case NodeKind::StoreUnit:
    return "store";
  default:
    return "move";
  }
}

static std::string routeText(const ArchModel &model, const Route &route) {
  std::string text;
  for (auto [i, instance] : llvm::enumerate(route.nodes()))
    text += (i ? " -> @" : "@") + model.node(instance.node).name;
  return text;
}

namespace {
struct Expander {
  const ArchModel &model;
  OpBuilder &b;
  Location loc;
  ArrayAttr transfers;

  void annotateBuffer(Operation *buffer, unsigned i, StringRef memory) {
    auto transfer = cast<DictionaryAttr>(transfers[i]);
    buffer->setAttr("memory", b.getStringAttr(memory));
    buffer->setAttr("tensor", transfer.get("tensor"));
    buffer->setAttr("dims", transfer.get("dims"));
    buffer->setAttr("element_type", transfer.get("element_type"));
  }
  void setLevel(Operation *op, int64_t level) { op->setAttr("level", b.getI64IntegerAttr(level)); }

  /// Builds the chain from global memory to the compute unit; returns the
  /// channels the compute stage reads and the number of memory levels.
  SmallVector<Value> expandLoad(const Route &route, int64_t &levels) {
    auto channel = ChannelType::get(b.getContext());
    unsigned n = transfers.size();
    SmallVector<Value> channels;
    int64_t level = 0;
    auto nodes = route.nodes();
    for (unsigned i = 1; i < nodes.size(); ++i) {
      const Node &node = model.node(nodes[i].node);
      const Link &link = model.link(route.hops[i - 1].link.link);
      if (node.isMover()) {
        auto stage = StageOp::create(b, loc, SmallVector<Type>(n, channel),
                                       roleOf(node.kind, true), channels);
        stage->setAttr("unit", decide(b.getStringAttr(node.name), kHeuristic));
        stage->setAttr("transfers", transfers);
        setLevel(stage, level);
        channels.assign(stage.getResults().begin(), stage.getResults().end());
      } else if (node.isMemory()) {
        for (unsigned t = 0; t < n; ++t) {
          auto buffer = BufferOp::create(b, loc, channel, channels[t]);
          annotateBuffer(buffer, t, node.name);
          setLevel(buffer, level);
          channels[t] = buffer;
        }
        ++level;
      } else if (link.isFifo()) {
        for (unsigned t = 0; t < n; ++t) {
          auto fifo = FifoOp::create(b, loc, channel, channels[t]);
          fifo->setAttr("link", b.getStringAttr(link.name));
          fifo->setAttr("depth", b.getI64IntegerAttr(*link.fifoDepth));
          setLevel(fifo, level);
          channels[t] = fifo;
        }
      }
    }
    levels = level;
    return channels;
  }

  /// Builds the chain from the compute unit's `results` to global memory.
  int64_t expandStore(const Route &route, SmallVector<Value> channels, int64_t computeLevel) {
    auto channel = ChannelType::get(b.getContext());
    unsigned n = transfers.size();
    SmallVector<Operation *> chain;
    auto nodes = route.nodes();
    for (unsigned i = 1; i < nodes.size(); ++i) {
      const Node &node = model.node(nodes[i].node);
      const Link &link = model.link(route.hops[i - 1].link.link);
      bool last = i + 1 == nodes.size();
      if (link.isFifo()) {
        // A FIFO out of the compute unit (or between movers) feeds the next unit.
        for (unsigned t = 0; t < n; ++t) {
          auto fifo = FifoOp::create(b, loc, channel, channels[t]);
          fifo->setAttr("link", b.getStringAttr(link.name));
          fifo->setAttr("depth", b.getI64IntegerAttr(*link.fifoDepth));
          setLevel(fifo, computeLevel);
          channels[t] = fifo;
        }
      }
      if (node.isMover()) {
        bool final = i + 2 == nodes.size();
        auto stage = StageOp::create(b, loc, SmallVector<Type>(final ? 0 : n, channel),
                                       roleOf(node.kind, false), channels);
        stage->setAttr("unit", decide(b.getStringAttr(node.name), kHeuristic));
        stage->setAttr("transfers", transfers);
        chain.push_back(stage);
        channels.assign(stage.getResults().begin(), stage.getResults().end());
      } else if (node.isMemory() && !last) {
        for (unsigned t = 0; t < n; ++t) {
          auto buffer = BufferOp::create(b, loc, channel, channels[t]);
          annotateBuffer(buffer, t, node.name);
          chain.push_back(buffer);
          channels[t] = buffer;
        }
      }
    }
    // Levels count the memory levels still ahead, walking back from global.
    int64_t level = 0;
    for (Operation *op : llvm::reverse(chain)) {
      if (isa<BufferOp>(op)) {
        setLevel(op, level);
        // All buffers of one memory share a level.
        if (op == chain.front() || !isa<BufferOp>(op->getPrevNode()) ||
            op->getPrevNode()->getAttr("memory") != op->getAttr("memory"))
          ++level;
      } else {
        setLevel(op, level);
      }
    }
    return level;
  }
};
} // namespace

static LogicalResult expandGroup(GroupOp group, const ArchModel &model, NodeId global) {
  PipelineOp pipeline = outerPipeline(group);
  if (!pipeline)
    return group.emitError("expected the initial pipeline");
  StageOp load, compute, store;
  for (StageOp stage : pipeline.getBody().front().getOps<StageOp>()) {
    if (stage.getRole() == "load")
      load = stage;
    else if (stage.getRole() == "compute")
      compute = stage;
    else if (stage.getRole() == "store")
      store = stage;
  }
  if (!compute || !store)
    return group.emitError("expected load, compute and store stages");
  auto unitName = dyn_cast_or_null<StringAttr>(decisionValue(compute, "unit"));
  std::optional<NodeId> unit = unitName ? model.lookupNode(unitName) : std::nullopt;
  if (!unit) {
    InFlightDiagnostic diag = compute.emitError("compute stage is not bound to a compute unit of @")
                              << model.name();
    if (unitName)
      diag << " (bound to @" << unitName.getValue() << ")";
    return diag;
  }
  // A binding from a plan, a hand-written schedule or another description
  // must name a unit that can run the body, as the initial pipeline's does.
  std::string why = whyUnitCannotRun(model, *unit, group.getElementType(),
                                     requiredOpClasses(compute.getBody()),
                                     bodyElementTypes(compute.getBody()));
  if (!why.empty())
    return compute.emitError("compute stage is bound to @")
           << model.node(*unit).name << ", which cannot run this group (" << why << ")";
  NodeInstance computeInstance{*unit, 0};
  OpBuilder b(compute);
  Location loc = group.getLoc();
  int64_t loadLevels = -1;
  if (load) {
    std::optional<Route> route = model.routeFrom(global, computeInstance);
    if (!route)
      return load.emitError("no route from @") << model.node(global).name << " to @"
                                               << model.node(*unit).name;
    Expander expander{model, b, loc, load->getAttrOfType<ArrayAttr>("transfers")};
    SmallVector<Value> channels = expander.expandLoad(*route, loadLevels);
    for (auto [i, result] : llvm::enumerate(load.getResults())) {
      for (Operation *user : llvm::make_early_inc_range(result.getUsers())) {
        user->getResult(0).replaceAllUsesWith(channels[i]);
        user->erase();
      }
    }
    group->setAttr("load_route", b.getStringAttr(routeText(model, *route)));
    load.erase();
  }
  std::optional<Route> route = model.routeTo(computeInstance, global);
  if (!route)
    return store.emitError("no route from @") << model.node(*unit).name << " to @"
                                              << model.node(global).name;
  // The store stage reads the compute results through logical FIFOs.
  SmallVector<Value> results;
  SmallVector<Operation *> logicalFifos;
  for (Value input : store.getInputs()) {
    Operation *fifo = input.getDefiningOp();
    results.push_back(fifo->getOperand(0));
    logicalFifos.push_back(fifo);
  }
  b.setInsertionPoint(store);
  Expander expander{model, b, loc, store->getAttrOfType<ArrayAttr>("transfers")};
  // The compute stage's level is that of the data it reads; with no load,
  // it is the number of memory levels the store route crosses.
  int64_t storeLevels = expander.expandStore(*route, results, loadLevels < 0 ? 0 : loadLevels);
  if (loadLevels >= 0 && loadLevels != storeLevels)
    return group.emitError("load route crosses ")
           << loadLevels << " memory levels but store route " << storeLevels;
  if (loadLevels < 0) {
    // Fix up FIFO levels placed before the count was known.
    group.walk([&](FifoOp fifo) { fifo->setAttr("level", b.getI64IntegerAttr(storeLevels)); });
  }
  compute->setAttr("level", b.getI64IntegerAttr(storeLevels));
  for (Operation &op : pipeline.getBody().front())
    if (isa<ScalarArgOp>(op))
      op.setAttr("level", b.getI64IntegerAttr(storeLevels));
  group->setAttr("store_route", b.getStringAttr(routeText(model, *route)));
  store.erase();
  for (Operation *fifo : logicalFifos)
    fifo->erase();
  return success();
}

namespace {
struct ExpandPathsPass : ktflow::ktsched::impl::ExpandPathsBase<ExpandPathsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>())
        if (failed(expandGroup(group, *model, placement->global)))
          return signalPassFailure();
  }
};
} // namespace
