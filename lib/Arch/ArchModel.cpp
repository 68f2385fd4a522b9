//===- ArchModel.cpp - queries on a built architecture model --------------===//
//
// Answers the questions of ArchModel.h on the plain data the builder made:
// instance arithmetic (mixed radix, outermost group most significant),
// routes by Dijkstra over node instances with lexicographic (cost, hops)
// distances, and the roofline bound as max over resources of
// work / (per-instance throughput x active instances).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <queue>
#include <tuple>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;

//===----------------------------------------------------------------------===//
// Vocabulary
//===----------------------------------------------------------------------===//

std::optional<KtirSpace> arch::parseKtirSpace(StringRef name) {
  if (name == "global")
    return KtirSpace::Global;
  if (name == "ct_local")
    return KtirSpace::CtLocal;
  return std::nullopt;
}

StringRef arch::ktirSpaceName(KtirSpace space) {
  return space == KtirSpace::Global ? "global" : "ct_local";
}

ArrayRef<StringRef> arch::knownOpClasses() {
  static const StringRef classes[] = {
      "add",  "sub",   "mul",  "div",  "fma",   "max",  "min",    "neg",
      "abs",  "cmp",   "select", "cast", "exp", "log",  "sqrt",   "rsqrt",
      "tanh", "erf",   "pow",  "reduce", "copy", "matmul"};
  return classes;
}

Type arch::parseElementTypeName(StringRef name, MLIRContext *context) {
  // Only names that look like scalar types reach the parser, and its
  // complaints are silenced: the caller reports the bad key with context.
  if (name.empty() || !(name.front() == 'f' || name.front() == 'b' ||
                        name.front() == 'i' || name.front() == 's' ||
                        name.front() == 'u'))
    return {};
  ScopedDiagnosticHandler silence(context, [](Diagnostic &) { return success(); });
  size_t numRead = 0;
  Type type = parseType(name, context, &numRead);
  if (!type || numRead != name.size() ||
      !(isa<FloatType>(type) || isa<IntegerType>(type)))
    return {};
  return type;
}

StringRef arch::nodeKindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Memory:
    return "memory";
  case NodeKind::Dma:
    return "dma";
  case NodeKind::LoadUnit:
    return "load_unit";
  case NodeKind::StoreUnit:
    return "store_unit";
  case NodeKind::Compute:
    return "compute";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Plain-data helpers
//===----------------------------------------------------------------------===//

std::optional<Bytes> AccessRule::largestSizeAtMost(Bytes limit) const {
  if (limit < minSize)
    return std::nullopt;
  Bytes capped = limit < maxSize ? limit : maxSize;
  return Bytes(capped.count() - capped.count() % sizeMultiple.count());
}

bool MemoryInfo::backs(KtirSpace space) const {
  return llvm::is_contained(spaces, space);
}

std::optional<int64_t> ComputeInfo::lanesFor(Type elementType) const {
  for (const auto &[type, count] : lanes)
    if (type == elementType)
      return count;
  return std::nullopt;
}

std::optional<Cycles> ComputeInfo::issueCost(StringRef opClass) const {
  for (const auto &[name, cost] : opCosts)
    if (name == opClass)
      return cost;
  return std::nullopt;
}

std::optional<int64_t> ComputeInfo::workPerIssue(Type elementType) const {
  std::optional<int64_t> perLane = lanesFor(elementType);
  if (!perLane)
    return std::nullopt;
  if (matrixShape)
    return (*matrixShape)[0] * (*matrixShape)[1] * *perLane;
  return perLane;
}

const AccessRule *Node::accessTo(NodeId memory) const {
  for (const AccessRule &rule : access)
    if (rule.memory == memory)
      return &rule;
  return nullptr;
}

SmallVector<NodeInstance, 8> Route::nodes() const {
  SmallVector<NodeInstance, 8> result{source};
  for (const Hop &hop : hops)
    result.push_back(hop.to);
  return result;
}

Cycles RooflineBound::bound() const { return Cycles(int64_t(std::ceil(cycles))); }

//===----------------------------------------------------------------------===//
// Hierarchy
//===----------------------------------------------------------------------===//

std::optional<GroupId> ArchModel::lookupGroup(StringRef name) const {
  auto it = groupByName.find(name);
  if (it == groupByName.end())
    return std::nullopt;
  return it->second;
}

std::optional<NodeId> ArchModel::lookupNode(StringRef name) const {
  auto it = nodeByName.find(name);
  if (it == nodeByName.end())
    return std::nullopt;
  return it->second;
}

std::optional<LinkId> ArchModel::lookupLink(StringRef name) const {
  auto it = linkByName.find(name);
  if (it == linkByName.end())
    return std::nullopt;
  return it->second;
}

int64_t ArchModel::instanceCount(GroupId group) const {
  int64_t count = 1;
  for (std::optional<GroupId> g = group; g; g = groupList[*g].parent)
    count *= groupList[*g].count;
  return count;
}

SmallVector<GroupId, 4> ArchModel::groupChain(GroupId group) const {
  SmallVector<GroupId, 4> chain;
  for (std::optional<GroupId> g = group; g; g = groupList[*g].parent)
    chain.push_back(*g);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

bool ArchModel::isAncestorOrSelf(GroupId ancestor, GroupId group) const {
  for (std::optional<GroupId> g = group; g; g = groupList[*g].parent)
    if (*g == ancestor)
      return true;
  return false;
}

int64_t ArchModel::ancestorInstance(GroupId group, int64_t index,
                                    GroupId ancestor) const {
  assert(isAncestorOrSelf(ancestor, group) && "not an enclosing group");
  return index / (instanceCount(group) / instanceCount(ancestor));
}

SmallVector<int64_t, 4> ArchModel::instancePath(GroupId group, int64_t index) const {
  SmallVector<int64_t, 4> path;
  for (GroupId g : groupChain(group))
    if (g != kDeviceGroup)
      path.push_back(ancestorInstance(group, index, g) % groupList[g].count);
  return path;
}

std::string ArchModel::instanceName(NodeInstance instance) const {
  const Node &n = nodeList[instance.node];
  std::string name = "@" + n.name;
  SmallVector<GroupId, 4> chain = groupChain(n.group);
  if (chain.size() == 1)
    return name;
  SmallVector<int64_t, 4> path = instancePath(n.group, instance.index);
  name += "[";
  for (size_t i = 1; i < chain.size(); ++i) {
    if (i > 1)
      name += ",";
    name += groupList[chain[i]].name + "=" + std::to_string(path[i - 1]);
  }
  return name + "]";
}

SmallVector<NodeId, 4> ArchModel::memories() const {
  SmallVector<NodeId, 4> result;
  for (NodeId id = 0; id < nodeList.size(); ++id)
    if (nodeList[id].isMemory())
      result.push_back(id);
  return result;
}

SmallVector<NodeId, 4> ArchModel::computeUnits() const {
  SmallVector<NodeId, 4> result;
  for (NodeId id = 0; id < nodeList.size(); ++id)
    if (nodeList[id].isCompute())
      result.push_back(id);
  return result;
}

SmallVector<NodeId, 2> ArchModel::memoriesBacking(KtirSpace space) const {
  SmallVector<NodeId, 2> result;
  for (NodeId id = 0; id < nodeList.size(); ++id)
    if (nodeList[id].isMemory() && nodeList[id].memory.backs(space))
      result.push_back(id);
  return result;
}

int64_t ArchModel::unitsPerMemoryInstance(NodeId memory, NodeId unit) const {
  GroupId memoryGroup = nodeList[memory].group, unitGroup = nodeList[unit].group;
  if (!isAncestorOrSelf(memoryGroup, unitGroup))
    return instanceCount(unitGroup);
  return instanceCount(unitGroup) / instanceCount(memoryGroup);
}

int64_t ArchModel::linkUsers(LinkId id) const {
  const Link &l = linkList[id];
  GroupId fromGroup = nodeList[l.from].group, toGroup = nodeList[l.to].group;
  GroupId deeper =
      groupList[fromGroup].depth >= groupList[toGroup].depth ? fromGroup : toGroup;
  return instanceCount(deeper) / instanceCount(l.scope);
}

//===----------------------------------------------------------------------===//
// Routing
//===----------------------------------------------------------------------===//

NodeInstance ArchModel::unflatten(unsigned flat) const {
  auto it = std::upper_bound(instanceBase.begin(), instanceBase.end(), flat);
  NodeId node = std::distance(instanceBase.begin(), it) - 1;
  // Nodes of a group with no instance cannot exist (counts are >= 1), so the
  // last base not above `flat` is the node.
  return {node, int64_t(flat - instanceBase[node])};
}

ArchModel::SearchResult ArchModel::search(ArrayRef<unsigned> sources) const {
  constexpr int64_t kUnreached = std::numeric_limits<int64_t>::max();
  SearchResult result;
  size_t total = adjacency.size();
  result.cost.assign(total, kUnreached);
  result.hops.assign(total, kUnreached);
  result.via.assign(total, std::nullopt);
  // Settle order (cost, hops, flat instance) is a total order, so the
  // search and its tie-breaking are deterministic.
  using Key = std::tuple<int64_t, int64_t, unsigned>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> queue;
  for (unsigned s : sources) {
    result.cost[s] = 0;
    result.hops[s] = 0;
    queue.push({0, 0, s});
  }
  std::vector<bool> settled(total, false);
  while (!queue.empty()) {
    auto [cost, hops, u] = queue.top();
    queue.pop();
    if (settled[u])
      continue;
    settled[u] = true;
    // A compute unit ends a route; it may start one (it is a source).
    if (nodeList[unflatten(u).node].isCompute() && !llvm::is_contained(sources, u))
      continue;
    for (const Edge &edge : adjacency[u]) {
      int64_t newCost = cost + linkList[edge.link.link].routingCost().count();
      int64_t newHops = hops + 1;
      if (std::make_pair(newCost, newHops) <
          std::make_pair(result.cost[edge.to], result.hops[edge.to])) {
        result.cost[edge.to] = newCost;
        result.hops[edge.to] = newHops;
        result.via[edge.to] = Hop{edge.link, unflatten(u), unflatten(edge.to)};
        queue.push({newCost, newHops, edge.to});
      }
    }
  }
  return result;
}

std::optional<Route> ArchModel::extract(const SearchResult &result,
                                        unsigned target) const {
  if (result.cost[target] == std::numeric_limits<int64_t>::max())
    return std::nullopt;
  Route route;
  route.dest = unflatten(target);
  route.cost = Cycles(result.cost[target]);
  unsigned at = target;
  while (result.via[at]) {
    route.hops.push_back(*result.via[at]);
    at = flatInstance(result.via[at]->from);
  }
  std::reverse(route.hops.begin(), route.hops.end());
  route.source = unflatten(at);
  return route;
}

std::optional<Route> ArchModel::route(NodeInstance from, NodeInstance to) const {
  unsigned source = flatInstance(from);
  return extract(search({source}), flatInstance(to));
}

std::optional<Route> ArchModel::routeFrom(NodeId from, NodeInstance to) const {
  SmallVector<unsigned, 8> sources;
  for (int64_t i = 0; i < nodeInstanceCount(from); ++i)
    sources.push_back(flatInstance({from, i}));
  return extract(search(sources), flatInstance(to));
}

std::optional<Route> ArchModel::routeTo(NodeInstance from, NodeId to) const {
  SearchResult result = search({flatInstance(from)});
  std::optional<unsigned> best;
  for (int64_t i = 0; i < nodeInstanceCount(to); ++i) {
    unsigned flat = flatInstance({to, i});
    if (!best || std::make_pair(result.cost[flat], result.hops[flat]) <
                     std::make_pair(result.cost[*best], result.hops[*best]))
      best = flat;
  }
  return extract(result, *best);
}

SmallVector<NodeId, 4> ArchModel::memoriesOn(const Route &route) const {
  SmallVector<NodeId, 4> result;
  for (NodeInstance n : route.nodes())
    if (nodeList[n.node].isMemory())
      result.push_back(n.node);
  return result;
}

SmallVector<NodeId, 8> ArchModel::unitsOn(const Route &route) const {
  SmallVector<NodeId, 8> result;
  for (NodeInstance n : route.nodes())
    if (!nodeList[n.node].isMemory())
      result.push_back(n.node);
  return result;
}

//===----------------------------------------------------------------------===//
// Roofline
//===----------------------------------------------------------------------===//

void Workload::addLinkBytes(LinkId link, Bytes bytes) { linkTraffic[link] += bytes; }

void Workload::addMemoryBytes(NodeId memory, Bytes read, Bytes written) {
  memoryTraffic[memory] += read + written;
  memoryWritten[memory] += written;
}

Bytes Workload::memoryWrites(NodeId memory) const {
  auto it = memoryWritten.find(memory);
  return it == memoryWritten.end() ? Bytes(0) : it->second;
}

double MemoryInfo::portCycles(Bytes read, Bytes written) const {
  double rate = double(bandwidth->bytesPerCycle);
  double mixed = mixedBandwidth ? double(mixedBandwidth->bytesPerCycle) : rate;
  int64_t paired = std::min(read, written).count();
  int64_t excess = std::max(read, written).count() - paired;
  return double(excess) / rate + 2.0 * double(paired) / mixed;
}

void Workload::addCompute(NodeId unit, StringRef opClass, Type elementType,
                          int64_t count) {
  compute.push_back({unit, opClass.str(), elementType, count});
}

void Workload::setActiveInstances(GroupId group, int64_t count) {
  active[group] = count;
}

std::optional<int64_t> Workload::activeInstances(GroupId group) const {
  auto it = active.find(group);
  if (it == active.end())
    return std::nullopt;
  return it->second;
}

int64_t ArchModel::activeInstances(GroupId group, const Workload &workload) const {
  int64_t count = 1;
  for (GroupId g : groupChain(group)) {
    int64_t perParent = groupList[g].count;
    if (std::optional<int64_t> limit = workload.activeInstances(g))
      perParent = std::clamp<int64_t>(*limit, 0, perParent);
    count *= perParent;
  }
  return count;
}

void ArchModel::addRouteTraffic(Workload &workload, const Route &route,
                                Bytes bytes) const {
  for (const Hop &hop : route.hops)
    workload.addLinkBytes(hop.link.link, bytes);
  SmallVector<NodeInstance, 8> nodes = route.nodes();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!nodeList[nodes[i].node].isMemory())
      continue;
    // The source is read, the destination written, a memory in between
    // both.
    bool read = i + 1 != nodes.size(), written = i != 0;
    workload.addMemoryBytes(nodes[i].node, read ? bytes : Bytes(0),
                            written ? bytes : Bytes(0));
  }
}

std::string ArchModel::resourceName(const Resource &resource) const {
  switch (resource.kind) {
  case Resource::Kind::MemoryPort:
    return "memory @" + nodeList[resource.id].name;
  case Resource::Kind::Link:
    return "link @" + linkList[resource.id].name;
  case Resource::Kind::Compute:
    return "compute @" + nodeList[resource.id].name;
  }
  return "?";
}

llvm::Expected<RooflineBound> ArchModel::roofline(const Workload &workload) const {
  // Issue cycles per compute unit: count / work-per-issue x issue cost.
  std::map<NodeId, double> issueCycles;
  for (const Workload::ComputeWork &work : workload.computeWork()) {
    auto fail = [&](const Twine &why) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
    };
    if (work.unit >= nodeList.size() || !nodeList[work.unit].isCompute())
      return fail("compute work assigned to a node that is not a compute unit");
    const Node &unit = nodeList[work.unit];
    std::optional<Cycles> cost = unit.compute.issueCost(work.opClass);
    if (!cost)
      return fail("compute unit @" + unit.name + " has no op class '" +
                  work.opClass + "'");
    std::optional<int64_t> perIssue = unit.compute.workPerIssue(work.elementType);
    if (!perIssue) {
      std::string type;
      llvm::raw_string_ostream os(type);
      os << work.elementType;
      return fail("compute unit @" + unit.name + " has no lanes for " + type);
    }
    issueCycles[work.unit] +=
        double(work.count) / double(*perIssue) * double(cost->count());
  }

  RooflineBound bound;
  for (const Resource &resource : resourceList) {
    ResourceLoad load;
    load.resource = resource;
    load.instances = activeInstances(resource.scope, workload);
    double perInstance = 0;
    switch (resource.kind) {
    case Resource::Kind::MemoryPort: {
      auto it = workload.memoryBytes().find(resource.id);
      if (it == workload.memoryBytes().end() || it->second.count() == 0)
        break;
      load.work = double(it->second.count());
      // The port's rate for this kernel's mix of reads and writes.
      Bytes written = workload.memoryWrites(resource.id);
      perInstance = load.work /
                    nodeList[resource.id].memory.portCycles(it->second - written, written);
      break;
    }
    case Resource::Kind::Link: {
      auto it = workload.linkBytes().find(resource.id);
      if (it != workload.linkBytes().end())
        load.work = double(it->second.count());
      perInstance = double(linkList[resource.id].bandwidth.bytesPerCycle);
      break;
    }
    case Resource::Kind::Compute: {
      auto it = issueCycles.find(resource.id);
      if (it != issueCycles.end())
        load.work = it->second;
      perInstance = 1; // One issue cycle per cycle per instance.
      break;
    }
    }
    if (load.work <= 0)
      continue;
    load.throughput = perInstance * double(load.instances);
    if (load.instances == 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "workload uses " + resourceName(resource) + " but no instance of it is active");
    load.cycles = load.work / load.throughput;
    if (!bound.limiting || load.cycles > bound.cycles) {
      bound.cycles = load.cycles;
      bound.limiting = bound.loads.size();
    }
    bound.loads.push_back(load);
  }
  return bound;
}
