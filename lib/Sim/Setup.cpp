//===- Setup.cpp - loading a bundle against the model ===//
//
// Setup binds a bundle to an architecture model: one Unit per program
// instance (checked against the instance counts the model gives, sorted so
// runs are deterministic), the symbols placed in the memory backing the
// global space with their initial contents, and the resolution a running
// instruction needs: node names, instance selectors (absolute, table
// column, nearest along the route's direction), routes (cached) and
// addresses with their access-rule checks.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

bool Engine::createUnits() {
  for (const Program &p : bundle.programs) {
    std::optional<NodeId> node = model.lookupNode(p.unit);
    if (!node)
      return setupError("program for @" + p.unit + ": the architecture '" +
                     model.name().str() + "' has no unit @" + p.unit);
    if (model.node(*node).isMemory())
      return setupError("program for @" + p.unit + ": @" + p.unit +
                     " is a memory, not an execution unit");
    int64_t count = model.nodeInstanceCount(*node);
    std::vector<int64_t> instances = p.instances;
    if (instances.empty())
      for (int64_t i = 0; i < count; ++i)
        instances.push_back(i);
    if (p.tableColumns > 0 && p.table.size() != instances.size())
      return setupError(llvm::formatv("program for @{0}: {1} table rows for {2} instances",
                                   p.unit, p.table.size(), instances.size())
                         .str());
    for (size_t k = 0; k < instances.size(); ++k) {
      int64_t i = instances[k];
      if (i >= count)
        return setupError(llvm::formatv("program for @{0}: instance {1} does not exist "
                                     "(@{0} has {2})",
                                     p.unit, i, count)
                           .str());
      NodeInstance inst{*node, i};
      if (unitIndex.count(flat(inst)))
        return setupError("two programs for " + model.instanceName(inst));
      Unit u;
      u.instance = inst;
      u.name = model.instanceName(inst);
      u.program = &p;
      u.row = p.tableColumns ? &p.table[k] : nullptr;
      u.loopMatch = matchLoops(p);
      u.regs.resize(model.vectorRegisterCount(*node));
      u.sems.assign(model.semaphoreCount(*node), 0);
      u.stats.name = u.name;
      unitIndex[flat(inst)] = units.size();
      units.push_back(std::move(u));
    }
  }
  // Deterministic unit order: by node, then instance (keys are unique).
  std::vector<unsigned> order(units.size());
  for (unsigned i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    const NodeInstance &x = units[a].instance, &y = units[b].instance;
    return x.node != y.node ? x.node < y.node : x.index < y.index;
  });
  std::vector<Unit> sorted;
  for (unsigned i : order)
    sorted.push_back(std::move(units[i]));
  units = std::move(sorted);
  unitIndex.clear();
  for (unsigned i = 0; i < units.size(); ++i)
    unitIndex[flat(units[i].instance)] = i;
  return true;
}

bool Engine::placeSymbols(const SymbolData &inputs) {
  memoryBase.assign(model.nodes().size(), -1);
  int64_t total = 0;
  for (NodeId m : model.memories()) {
    memoryBase[m] = total;
    total += model.nodeInstanceCount(m);
  }
  memories.resize(total);
  llvm::SmallVector<NodeId, 2> global = model.memoriesBacking(KtirSpace::Global);
  if (!global.empty())
    globalMemory = global.front();
  if (!bundle.symbols.empty() && !globalMemory)
    return setupError("the architecture has no memory backing the global space");
  Bytes cursor(0);
  for (const Symbol &s : bundle.symbols) {
    const MemoryInfo &info = model.node(*globalMemory).memory;
    cursor = cursor.alignTo(info.alignment);
    if (cursor + s.size > info.usable())
      return setupError(llvm::formatv("symbol ${0} ({1} bytes) does not fit the usable {2} "
                                   "bytes of @{3}",
                                   s.name, s.size.count(), info.usable().count(),
                                   model.node(*globalMemory).name)
                         .str());
    result.symbolAddresses.push_back(cursor);
    auto it = inputs.find(s.name);
    if (it != inputs.end()) {
      if (int64_t(it->second.size()) != s.size.count())
        return setupError(llvm::formatv("input for ${0} has {1} bytes, the symbol has {2}",
                                     s.name, it->second.size(), s.size.count())
                           .str());
      if (options.computeValues)
        memoryOf({*globalMemory, 0}).write(cursor, it->second.data(), s.size);
    }
    cursor += s.size.alignTo(Bytes(1));
  }
  for (const auto &input : inputs)
    if (llvm::none_of(bundle.symbols,
                      [&](const Symbol &s) { return s.name == input.first; }))
      return setupError("input given for unknown symbol $" + input.first);
  return true;
}

//===----------------------------------------------------------------------===//
// Resolution of names, instances, routes and addresses
//===----------------------------------------------------------------------===//

std::optional<NodeId> Engine::nodeNamed(const Unit &u, StringRef name) {
  auto it = nodeCache.find(name);
  if (it != nodeCache.end())
    return it->second;
  std::optional<NodeId> id = model.lookupNode(name);
  if (!id) {
    fail(u, "the architecture has no node @" + name);
    return std::nullopt;
  }
  nodeCache[name] = *id;
  return *id;
}

std::optional<NodeInstance> Engine::select(Unit &u, const NodeRef &ref, bool towards) {
  std::optional<NodeId> named = nodeNamed(u, ref.name);
  if (!named)
    return std::nullopt;
  NodeId node = *named;
  int64_t count = model.nodeInstanceCount(node);
  switch (ref.instance.kind) {
  case InstanceSelector::Kind::Absolute:
  case InstanceSelector::Kind::TableColumn: {
    int64_t index = ref.instance.kind == InstanceSelector::Kind::Absolute
                        ? ref.instance.value
                        : tableValue(u, uint32_t(ref.instance.value));
    if (index < 0 || index >= count) {
      fail(u, llvm::formatv("@{0} has no instance {1}", ref.name, index));
      return std::nullopt;
    }
    return NodeInstance{node, index};
  }
  case InstanceSelector::Kind::Nearest:
    break;
  }
  auto key = std::make_pair(flat(u.instance), node);
  auto it = nearest.find(key);
  if (it != nearest.end())
    return it->second;
  // Prefer the route in the direction the data flows; a memory the unit
  // only reads (or only writes) has a route one way only.
  std::optional<Route> to = model.routeTo(u.instance, node);
  std::optional<Route> from = model.routeFrom(node, u.instance);
  std::optional<NodeInstance> chosen;
  if (towards ? bool(to) : !from)
    chosen = to ? std::optional<NodeInstance>(to->dest) : std::nullopt;
  else
    chosen = from ? std::optional<NodeInstance>(from->source) : std::nullopt;
  if (!chosen) {
    fail(u, "no route between " + u.name + " and any instance of @" + ref.name);
    return std::nullopt;
  }
  nearest[key] = *chosen;
  return *chosen;
}

const Route *Engine::routeBetween(Unit &u, NodeInstance from, NodeInstance to) {
  auto key = std::make_pair(flat(from), flat(to));
  auto it = routes.find(key);
  if (it != routes.end())
    return &it->second;
  std::optional<Route> r = model.route(from, to);
  if (!r) {
    fail(u, "no route from " + model.instanceName(from) + " to " + model.instanceName(to));
    return nullptr;
  }
  return &routes.emplace(key, std::move(*r)).first->second;
}

std::optional<Engine::Place> Engine::resolve(Unit &u, const Address &a) {
  Place p;
  if (a.base == Address::Base::Symbol) {
    p.memory = NodeInstance{*globalMemory, 0};
    p.address = result.symbolAddresses[a.symbol];
  } else {
    std::optional<NodeInstance> memory = select(u, a.memory, /*towards=*/true);
    if (!memory)
      return std::nullopt;
    p.memory = *memory;
    if (!model.node(p.memory.node).isMemory()) {
      fail(u, "@" + a.memory.name + " is not a memory");
      return std::nullopt;
    }
  }
  p.address += a.offset;
  if (a.tableColumn)
    p.address += Bytes(tableValue(u, *a.tableColumn));
  for (const LoopTerm &t : a.terms) {
    int64_t i = u.loops[t.depth].iteration;
    if (t.modulus)
      i %= t.modulus;
    p.address += t.stride * i;
  }
  return p;
}

bool Engine::checkAccess(Unit &u, const Place &p, Bytes runBytes,
                         llvm::ArrayRef<Bytes> strides, Bytes extent) {
  const Node &unitNode = model.node(u.instance.node);
  const Node &memNode = model.node(p.memory.node);
  const AccessRule *rule = unitNode.accessTo(p.memory.node);
  if (!rule)
    return fail(u, "@" + unitNode.name + " has no access rule for memory @" + memNode.name);
  if (!rule->allowsSize(runBytes))
    return fail(u, llvm::formatv("@{0} cannot access {1} bytes of @{2} at once (sizes {3}..{4}, "
                          "multiples of {5})",
                          unitNode.name, runBytes.count(), memNode.name,
                          rule->minSize.count(), rule->maxSize.count(),
                          rule->sizeMultiple.count()));
  if (!rule->allowsAddress(p.address))
    return fail(u, llvm::formatv("address {0} of @{1} is not aligned to {2}", p.address.count(),
                          memNode.name, rule->alignment.count()));
  for (Bytes s : strides)
    if (!rule->allowsAddress(s))
      return fail(u, llvm::formatv("stride {0} in @{1} is not aligned to {2}", s.count(),
                            memNode.name, rule->alignment.count()));
  if (p.address < Bytes(0) || p.address + extent > memNode.memory.capacity)
    return fail(u, llvm::formatv("access [{0}, {1}) is outside @{2} ({3} bytes)",
                          p.address.count(), (p.address + extent).count(), memNode.name,
                          memNode.memory.capacity.count()));
  return true;
}
