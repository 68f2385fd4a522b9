//===- ArchModelBuilder.cpp - build an ArchModel from a ktarch.device -----===//
//
// One walk over the device region collects groups, nodes and links in
// declaration order (so every index, and with it every tie-break, depends
// only on the text of the description). Then, in order, it resolves names,
// checks where each link is declared, expands the instance graph and checks
// reachability from global memory. Each problem is reported at the op that
// causes it; the builder keeps going so one run shows every problem.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <deque>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;

namespace ktflow::arch {

/// Device-wide instances of one group the model enumerates at most.
constexpr int64_t kMaxGroupInstances = int64_t(1) << 12;

class ArchModelBuilder {
public:
  ArchModelBuilder(ktarch::DeviceOp device, ArchModel &model)
      : device(device), model(model) {}

  LogicalResult run();

private:
  bool claimName(StringRef name, Operation *op);
  void collect(Block &body, GroupId scope);
  NodeId addNode(Operation *op, StringRef name, NodeKind kind, GroupId scope);
  template <typename MoverOp>
  void addMover(MoverOp unit, NodeKind kind, GroupId scope);
  void setUnitCounts(NodeId id, int64_t semaphores, std::optional<int64_t> vectorRegisters);
  void resolveAccessRules();
  void resolveLinks();
  void checkSpacesBacked();
  void buildInstanceGraph();
  void checkReachability();
  void collectResources();

  InFlightDiagnostic error(Operation *op) {
    failed = true;
    return op->emitError();
  }

  ktarch::DeviceOp device;
  ArchModel &model;
  bool failed = false;
  llvm::StringMap<Operation *> definitions;
  std::vector<Operation *> nodeOps;
  std::vector<std::pair<ktarch::LinkOp, GroupId>> linkOps;
  /// False for links whose endpoints did not resolve; they get no edges.
  std::vector<bool> linkUsable;
};

} // namespace ktflow::arch

bool ArchModelBuilder::claimName(StringRef name, Operation *op) {
  auto [it, inserted] = definitions.try_emplace(name, op);
  if (inserted)
    return true;
  InFlightDiagnostic diag = error(op);
  diag << "duplicate name @" << name << ": names are unique across the whole device";
  diag.attachNote(it->second->getLoc()) << "first definition of @" << name;
  return false;
}

NodeId ArchModelBuilder::addNode(Operation *op, StringRef name, NodeKind kind,
                                 GroupId scope) {
  NodeId id = model.nodeList.size();
  Node node;
  node.name = name.str();
  node.kind = kind;
  node.group = scope;
  node.loc = op->getLoc();
  model.nodeList.push_back(std::move(node));
  model.nodeByName[name] = id;
  nodeOps.push_back(op);
  return id;
}

void ArchModelBuilder::setUnitCounts(NodeId id, int64_t semaphores,
                                     std::optional<int64_t> vectorRegisters) {
  // The op verifiers bound both counts; clamp so a model built from an
  // unverified device never sizes a simulator table from a wild value.
  Node &node = model.nodeList[id];
  node.semaphores = std::clamp<int64_t>(semaphores, 0, kMaxUnitSemaphores);
  node.vectorRegisters =
      std::clamp<int64_t>(vectorRegisters.value_or(0), 0, kMaxUnitVectorRegisters);
}

template <typename MoverOp>
void ArchModelBuilder::addMover(MoverOp unit, NodeKind kind, GroupId scope) {
  NodeId id = addNode(unit, unit.getSymName(), kind, scope);
  setUnitCounts(id, unit.getSemaphores(), unit.getVectorRegisters());
}

void ArchModelBuilder::collect(Block &body, GroupId scope) {
  for (Operation &op : body) {
    llvm::TypeSwitch<Operation *>(&op)
        .Case([&](ktarch::GroupOp group) {
          if (!claimName(group.getSymName(), group))
            return;
          GroupId id = model.groupList.size();
          Group info;
          info.name = group.getSymName().str();
          // The group verifier rejects counts below 1; the model must not
          // divide by zero even when built from an unverified device.
          info.count = std::max<int64_t>(group.getCount(), 1);
          // The model enumerates every instance (routes search the instance
          // graph), so the device-wide count is bounded: a huge count would
          // exhaust memory (found by fuzz/arch-fuzzer) or overflow.
          int64_t outer = model.instanceCount(scope);
          if (info.count > kMaxGroupInstances / outer) {
            error(group) << "group @" << group.getSymName() << " has " << group.getCount()
                         << " instances in each of " << outer
                         << " enclosing instances; ktflow models at most "
                         << kMaxGroupInstances << " instances of a group on the device";
            info.count = 1;
          }
          info.parent = scope;
          info.depth = model.groupList[scope].depth + 1;
          info.loc = group.getLoc();
          model.groupList.push_back(std::move(info));
          model.groupByName[group.getSymName()] = id;
          collect(group.getBody().front(), id);
        })
        .Case([&](ktarch::MemoryOp memory) {
          if (!claimName(memory.getSymName(), memory))
            return;
          NodeId id = addNode(memory, memory.getSymName(), NodeKind::Memory, scope);
          MemoryInfo &info = model.nodeList[id].memory;
          info.capacity = Bytes(memory.getCapacity());
          info.reserved = Bytes(memory.getReserved());
          info.alignment = Bytes(memory.getAlignment());
          for (StringRef space : memory.getSpaces().getAsValueRange<StringAttr>())
            if (std::optional<KtirSpace> parsed = parseKtirSpace(space))
              info.spaces.push_back(*parsed);
          if (std::optional<int64_t> bandwidth = memory.getBandwidth())
            info.bandwidth = Bandwidth{*bandwidth};
        })
        .Case([&](ktarch::DmaOp unit) {
          if (claimName(unit.getSymName(), unit))
            addMover(unit, NodeKind::Dma, scope);
        })
        .Case([&](ktarch::LoadUnitOp unit) {
          if (claimName(unit.getSymName(), unit))
            addMover(unit, NodeKind::LoadUnit, scope);
        })
        .Case([&](ktarch::StoreUnitOp unit) {
          if (claimName(unit.getSymName(), unit))
            addMover(unit, NodeKind::StoreUnit, scope);
        })
        .Case([&](ktarch::ComputeOp unit) {
          if (!claimName(unit.getSymName(), unit))
            return;
          NodeId id = addNode(unit, unit.getSymName(), NodeKind::Compute, scope);
          setUnitCounts(id, unit.getSemaphores(), unit.getVectorRegisters());
          ComputeInfo &info = model.nodeList[id].compute;
          for (NamedAttribute lanes : unit.getLanes())
            if (Type type = parseElementTypeName(lanes.getName(), unit.getContext()))
              if (auto count = dyn_cast<IntegerAttr>(lanes.getValue()))
                info.lanes.push_back({type, count.getInt()});
          for (NamedAttribute cost : unit.getOps())
            if (auto cycles = dyn_cast<IntegerAttr>(cost.getValue()))
              info.opCosts.push_back({cost.getName().str(), Cycles(cycles.getInt())});
          if (std::optional<ArrayRef<int64_t>> shape = unit.getMatrix();
              shape && shape->size() == 2)
            info.matrixShape = std::array<int64_t, 2>{(*shape)[0], (*shape)[1]};
        })
        .Case([&](ktarch::LinkOp link) {
          if (claimName(link.getSymName(), link))
            linkOps.push_back({link, scope});
        })
        .Default([&](Operation *other) {
          error(other) << "'" << other->getName()
                       << "' cannot appear in an architecture description";
        });
  }
}

void ArchModelBuilder::resolveAccessRules() {
  for (NodeId id = 0; id < model.nodeList.size(); ++id) {
    Operation *op = nodeOps[id];
    ArrayAttr rules;
    if (auto mover = dyn_cast<ktarch::DmaOp>(op))
      rules = mover.getAccess();
    else if (auto mover = dyn_cast<ktarch::LoadUnitOp>(op))
      rules = mover.getAccess();
    else if (auto mover = dyn_cast<ktarch::StoreUnitOp>(op))
      rules = mover.getAccess();
    else if (auto compute = dyn_cast<ktarch::ComputeOp>(op))
      rules = compute.getAccess();
    if (!rules)
      continue;
    for (auto rule : rules.getAsRange<ktarch::AccessAttr>()) {
      StringRef memoryName = rule.getMemory().getLeafReference().getValue();
      std::optional<NodeId> memory = model.lookupNode(memoryName);
      if (!memory || !model.nodeList[*memory].isMemory()) {
        error(op) << "access rule names @" << memoryName
                  << ", which is not a memory of this device";
        continue;
      }
      AccessRule resolved;
      resolved.memory = *memory;
      resolved.minSize = Bytes(rule.getMinSize());
      resolved.maxSize = Bytes(rule.getMaxSize());
      resolved.sizeMultiple = Bytes(rule.getSizeMultiple());
      resolved.alignment = Bytes(rule.getAlignment());
      model.nodeList[id].access.push_back(resolved);
    }
  }
}

void ArchModelBuilder::resolveLinks() {
  model.outgoing.assign(model.nodeList.size(), {});
  model.incoming.assign(model.nodeList.size(), {});
  for (auto &entry : linkOps) {
    ktarch::LinkOp op = entry.first;
    GroupId scope = entry.second;
    LinkId id = model.linkList.size();
    Link link;
    link.name = op.getSymName().str();
    link.scope = scope;
    // As for groups: the link verifier rejects these; keep arithmetic safe.
    link.bandwidth = Bandwidth{std::max<int64_t>(op.getBandwidth(), 1)};
    link.latency = Cycles(std::max<int64_t>(op.getLatency(), 0));
    link.granule = Bytes(std::max<int64_t>(op.getGranule(), 1));
    link.fifoDepth = op.getFifoDepth();
    link.loc = op.getLoc();

    bool usable = true;
    auto resolveEnd = [&](StringRef role, StringRef name) -> NodeId {
      std::optional<NodeId> node = model.lookupNode(name);
      if (node)
        return *node;
      usable = false;
      InFlightDiagnostic diag = error(op);
      diag << "link @" << op.getSymName() << ": '" << role << "' end @" << name;
      if (model.lookupGroup(name))
        diag << " is a group, not a memory or unit";
      else if (model.lookupLink(name) || definitions.count(name))
        diag << " is a link, not a memory or unit";
      else
        diag << " is not defined in this device";
      return 0;
    };
    link.from = resolveEnd("from", op.getFrom());
    link.to = resolveEnd("to", op.getTo());

    if (usable) {
      const Node &from = model.nodeList[link.from];
      const Node &to = model.nodeList[link.to];
      GroupId deeper = from.group, shallower = to.group;
      if (model.groupList[deeper].depth < model.groupList[shallower].depth)
        std::swap(deeper, shallower);
      if (!model.isAncestorOrSelf(shallower, deeper)) {
        usable = false;
        error(op) << "link @" << link.name << " joins @" << from.name << " and @"
                  << to.name << ", which sit in unrelated groups; a link may only "
                  << "join nodes of one group and the groups enclosing it";
      } else if (!model.isAncestorOrSelf(scope, deeper)) {
        usable = false;
        error(op) << "link @" << link.name << " is declared inside @"
                  << model.groupList[scope].name << ", which contains neither @"
                  << from.name << " nor @" << to.name
                  << "; declare it in the group of an endpoint or an enclosing one";
      }
      if (from.isMemory() && to.isMemory()) {
        usable = false;
        error(op) << "link @" << link.name << " joins two memories; data moves "
                  << "between memories only through a unit (dma, load_unit, ...)";
      }
      // A unit touching a memory must say how it may access it.
      auto checkAccess = [&](const Node &unit, NodeId memory) {
        if (!unit.accessTo(memory))
          error(op) << "link @" << link.name << ": unit @" << unit.name
                    << " has no access rule for memory @"
                    << model.nodeList[memory].name
                    << " (add #ktarch.access<memory = @"
                    << model.nodeList[memory].name << ", ...> to its access list)";
      };
      if (from.isMemory() && !to.isMemory())
        checkAccess(to, link.from);
      if (to.isMemory() && !from.isMemory())
        checkAccess(from, link.to);
    }
    model.linkList.push_back(std::move(link));
    model.linkByName[op.getSymName()] = id;
    linkUsable.push_back(usable);
    if (usable) {
      model.outgoing[model.linkList[id].from].push_back(id);
      model.incoming[model.linkList[id].to].push_back(id);
    }
  }
}

void ArchModelBuilder::checkSpacesBacked() {
  for (KtirSpace space : {KtirSpace::Global, KtirSpace::CtLocal})
    if (model.memoriesBacking(space).empty())
      error(device) << "no memory backs the KTIR memory space '"
                    << ktirSpaceName(space) << "' (add spaces = [\""
                    << ktirSpaceName(space) << "\"] to a ktarch.memory)";
}

void ArchModelBuilder::buildInstanceGraph() {
  unsigned total = 0;
  model.instanceBase.clear();
  for (const Node &node : model.nodeList) {
    model.instanceBase.push_back(total);
    total += model.instanceCount(node.group);
  }
  model.adjacency.assign(total, {});
  for (LinkId id = 0; id < model.linkList.size(); ++id) {
    if (!linkUsable[id])
      continue;
    const Link &link = model.linkList[id];
    GroupId fromGroup = model.nodeList[link.from].group;
    GroupId toGroup = model.nodeList[link.to].group;
    GroupId deeper = model.groupList[fromGroup].depth >= model.groupList[toGroup].depth
                         ? fromGroup
                         : toGroup;
    for (int64_t p = 0, e = model.instanceCount(deeper); p < e; ++p) {
      NodeInstance from{link.from, model.ancestorInstance(deeper, p, fromGroup)};
      NodeInstance to{link.to, model.ancestorInstance(deeper, p, toGroup)};
      LinkInstance instance{id, model.ancestorInstance(deeper, p, link.scope)};
      model.adjacency[model.flatInstance(from)].push_back(
          {model.flatInstance(to), instance});
    }
  }
}

void ArchModelBuilder::checkReachability() {
  SmallVector<NodeId, 2> globals = model.memoriesBacking(KtirSpace::Global);
  if (globals.empty())
    return; // Already reported by checkSpacesBacked.
  unsigned total = model.adjacency.size();
  std::vector<std::vector<unsigned>> reverse(total);
  for (unsigned u = 0; u < total; ++u)
    for (const auto &edge : model.adjacency[u])
      reverse[edge.to].push_back(u);

  // Data may pass through memories and movers, never through a compute
  // unit: a compute unit is where a route starts or ends.
  auto passable = [&](unsigned flat) {
    return !model.nodeList[model.unflatten(flat).node].isCompute();
  };
  auto flood = [&](ArrayRef<unsigned> sources,
                   const std::vector<std::vector<unsigned>> *backward) {
    std::vector<bool> seen(total, false);
    std::deque<unsigned> queue;
    for (unsigned s : sources) {
      seen[s] = true;
      queue.push_back(s);
    }
    while (!queue.empty()) {
      unsigned u = queue.front();
      queue.pop_front();
      if (!passable(u) && !llvm::is_contained(sources, u))
        continue;
      auto visit = [&](unsigned v) {
        if (!seen[v]) {
          seen[v] = true;
          queue.push_back(v);
        }
      };
      if (backward)
        for (unsigned v : (*backward)[u])
          visit(v);
      else
        for (const auto &edge : model.adjacency[u])
          visit(edge.to);
    }
    return seen;
  };

  std::vector<unsigned> globalInstances, dataSources;
  for (NodeId g : globals)
    for (int64_t i = 0; i < model.nodeInstanceCount(g); ++i)
      globalInstances.push_back(model.flatInstance({g, i}));
  dataSources = globalInstances;
  for (NodeId c : model.computeUnits())
    for (int64_t i = 0; i < model.nodeInstanceCount(c); ++i)
      dataSources.push_back(model.flatInstance({c, i}));

  std::vector<bool> fromGlobal = flood(globalInstances, nullptr);
  std::vector<bool> toGlobal = flood(globalInstances, &reverse);
  std::vector<bool> fed = flood(dataSources, nullptr);

  for (NodeId id = 0; id < model.nodeList.size(); ++id) {
    const Node &node = model.nodeList[id];
    auto firstMissing = [&](const std::vector<bool> &seen) -> std::optional<int64_t> {
      for (int64_t i = 0; i < model.nodeInstanceCount(id); ++i)
        if (!seen[model.flatInstance({id, i})])
          return i;
      return std::nullopt;
    };
    auto where = [&](int64_t index) {
      return model.nodeInstanceCount(id) > 1
                 ? " (instance " + model.instanceName({id, index}) + ")"
                 : std::string();
    };
    if (node.isMemory()) {
      if (auto i = firstMissing(fromGlobal))
        error(nodeOps[id]) << "memory @" << node.name
                           << " is unreachable: no route from global memory reaches it"
                           << where(*i);
      else if (auto i = firstMissing(toGlobal))
        error(nodeOps[id]) << "memory @" << node.name
                           << " has no route back to global memory" << where(*i);
    } else if (node.isCompute()) {
      if (auto i = firstMissing(fromGlobal))
        error(nodeOps[id]) << "compute unit @" << node.name
                           << " cannot be reached by data from global memory"
                           << where(*i);
      else if (auto i = firstMissing(toGlobal))
        error(nodeOps[id]) << "compute unit @" << node.name
                           << " has no route for its results back to global memory"
                           << where(*i);
    } else if (auto i = firstMissing(fed)) {
      error(nodeOps[id]) << nodeKindName(node.kind) << " @" << node.name
                         << " receives data from no global memory or compute unit"
                         << where(*i);
    }
  }
}

void ArchModelBuilder::collectResources() {
  for (NodeId id = 0; id < model.nodeList.size(); ++id)
    if (model.nodeList[id].isMemory() && model.nodeList[id].memory.bandwidth)
      model.resourceList.push_back(
          {Resource::Kind::MemoryPort, id, model.nodeList[id].group});
  for (LinkId id = 0; id < model.linkList.size(); ++id)
    model.resourceList.push_back({Resource::Kind::Link, id, model.linkList[id].scope});
  for (NodeId id = 0; id < model.nodeList.size(); ++id)
    if (model.nodeList[id].isCompute())
      model.resourceList.push_back(
          {Resource::Kind::Compute, id, model.nodeList[id].group});
}

LogicalResult ArchModelBuilder::run() {
  model.deviceName = device.getSymName().str();
  model.clock = device.getClockMhz();
  model.deviceLoc = device.getLoc();
  Group root;
  root.name = device.getSymName().str();
  root.loc = device.getLoc();
  model.groupList.push_back(std::move(root));
  collect(device.getBody().front(), kDeviceGroup);
  resolveAccessRules();
  resolveLinks();
  checkSpacesBacked();
  buildInstanceGraph();
  if (!failed)
    checkReachability();
  collectResources();
  return failure(failed);
}

std::unique_ptr<ArchModel> ArchModel::build(ktarch::DeviceOp device) {
  std::unique_ptr<ArchModel> model(new ArchModel());
  if (failed(ArchModelBuilder(device, *model).run()))
    return nullptr;
  return model;
}
