//===- Simulator.cpp - the event-driven device-code simulator -------------===//
//
// Strategy: one process per unit instance with a program, advanced by a
// priority queue of events ordered by (cycle, sequence number), so runs are
// deterministic. A process executes instructions until one takes time (it
// schedules its own resumption) or blocks (a FIFO or semaphore wakes it).
//
// Transfers follow ArchModel routes. Each link instance and each memory
// port with a bandwidth is a resource with a calendar of reserved
// intervals, in ticks (a fraction of a cycle such that a byte takes whole
// ticks on every resource). A transfer moves in chunks of the largest
// granule on its path; each chunk walks the resources in route order,
// cut-through: it takes the first bytes / bandwidth of free time on a
// resource (gaps shorter than that included) once its head has arrived,
// the previous chunk has left and the next resource has taken the previous
// chunk (back-pressure), and cannot finish there before its tail arrived.
// So one transfer alone costs sum(latency) + bytes / min(bandwidth), users
// of a shared resource are served first come, first served chunk by chunk,
// and a wide resource fed by a slow stream is free between the stream's
// chunks (a DMA trickling into a scratchpad does not lock its port). The issuing unit is free
// once its data has left the first resource of the path (a DMA engine
// queues descriptors, a load unit pipelines reads); the rest of the path
// proceeds on its own and the data lands (memory write, FIFO arrival) when
// its tail arrives. A signal leaves after the unit's writes
// have landed and travels the route's latency.
//
// Everything hardware-specific comes from the ArchModel; this file names
// no unit, memory or number of a device.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Sim/Simulator.h"
#include "ktflow/Sim/StaticChecks.h"

#include "SimMemory.h"
#include "VectorOps.h"

#include "mlir/IR/Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <deque>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <unordered_map>

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

namespace {

/// Simulated time in ticks, a fraction of a cycle fine enough that every
/// resource's time per byte is a whole number of ticks (see ticksPerCycle).
using Ticks = int64_t;

/// A link instance or a memory port: what transfers reserve. Its calendar
/// holds the busy intervals [start, end) in ticks that transfers reserved,
/// so a later transfer can use the gaps an earlier, slower stream leaves.
struct Reservable {
  std::string name;
  Bandwidth bandwidth;
  Cycles latency;
  Bytes granule{1};
  std::map<Ticks, Ticks> calendar;
  Bytes bytes;
  Ticks busyTicks = 0;
};

struct Message {
  std::vector<uint8_t> data;
  Bytes size;
  int64_t granules = 0;
  Cycles arrival;
};

/// The logical channel of one producer/consumer pair over a FIFO link.
struct Fifo {
  std::string linkName;
  int64_t depth = 0; ///< Granules.
  Bytes granule{1};
  int64_t used = 0;
  std::deque<Message> queue;
  int producer = -1, consumer = -1; ///< Unit indices, -1 if unknown yet.
  int blockedProducer = -1, blockedConsumer = -1;
};

enum class State { Ready, Scheduled, Blocked, Done };

struct LoopFrame {
  size_t start; ///< Index of the Loop instruction.
  int64_t iteration = 0;
};

struct Unit {
  NodeInstance instance;
  std::string name;
  const Program *program = nullptr;
  const std::vector<int64_t> *row = nullptr;
  std::vector<size_t> loopMatch;
  size_t pc = 0;
  llvm::SmallVector<LoopFrame, 4> loops;
  /// Sized from the unit's description (checkUnitResources bounds every use).
  std::vector<VectorValue> regs;
  std::vector<int64_t> sems;
  State state = State::Ready;
  Cycles blockedSince;
  std::string blockReason;
  int waitingOn = -1; ///< Unit it waits for (wait-for graph), if known.
  int waitingSem = -1; ///< Semaphore it waits on, if any.
  Cycles lastWriteLanded;
  UnitStats stats;
};

struct Event {
  Cycles time;
  uint64_t seq;
  enum Kind : uint8_t { Resume, SemIncrement, Write } kind;
  unsigned unit;
  uint32_t sem;
  size_t write;
  bool operator>(const Event &o) const {
    return time != o.time ? time > o.time : seq > o.seq;
  }
};

struct PendingWrite {
  unsigned memory; ///< Flat memory-instance key.
  std::vector<std::pair<Bytes, Bytes>> runs; ///< (address, size) in order.
  std::vector<uint8_t> data;
};

constexpr Bytes kMaxStagedBytes(int64_t(1) << 32);

class Engine {
public:
  Engine(const Bundle &bundle, const ArchModel &model, const SimOptions &options)
      : bundle(bundle), model(model), options(options) {}

  SimResult run(const SymbolData &inputs);
  /// The first problem found; once set, the run stops.
  std::optional<std::string> error;

private:
  // --- Setup ---------------------------------------------------------------
  bool createUnits();
  bool placeSymbols(const SymbolData &inputs);
  bool setupError(const llvm::Twine &message) {
    if (!error)
      error = message.str();
    return false;
  }

  // --- Helpers ---------------------------------------------------------------
  /// Records a problem of the running instruction; returns false so that
  /// callers can `return fail(...)` and stop.
  bool fail(const Unit &u, const llvm::Twine &message) {
    if (!error)
      error = llvm::formatv("{0} instruction {1} ({2}): {3}", u.name, u.pc,
                            opcodeName(u.program->body[u.pc].op), message.str())
                  .str();
    return false;
  }
  std::optional<NodeId> nodeNamed(const Unit &u, StringRef name);
  int64_t tableValue(const Unit &u, uint32_t column) { return (*u.row)[column]; }
  std::optional<NodeInstance> select(Unit &u, const NodeRef &ref, bool towards);
  const Route *routeBetween(Unit &u, NodeInstance from, NodeInstance to);
  unsigned memoryKey(NodeInstance m) {
    return unsigned(memoryBase.at(m.node) + m.index);
  }
  SimMemory &memoryOf(NodeInstance m) { return memories[memoryKey(m)]; }
  struct Place {
    NodeInstance memory;
    Bytes address;
  };
  std::optional<Place> resolve(Unit &u, const Address &a);
  bool checkAccess(Unit &u, const Place &p, Bytes runBytes, llvm::ArrayRef<Bytes> strides,
                   Bytes extent);
  Reservable &linkResource(const LinkInstance &l);
  Reservable *portResource(NodeInstance memory);
  void appendRoute(std::vector<Reservable *> &path, const Route &route);
  /// Appends the route between two instances; false if there is none.
  bool appendRouteBetween(Unit &u, std::vector<Reservable *> &path, NodeInstance from,
                          NodeInstance to) {
    const Route *route = routeBetween(u, from, to);
    if (!route)
      return false;
    appendRoute(path, *route);
    return true;
  }
  /// Reserves `path` for `bytes` starting at `now`; returns when the data
  /// has left the first resource (the issuing unit is free again) and when
  /// its tail arrives at the end of the path.
  std::pair<Cycles, Cycles> reserve(llvm::ArrayRef<Reservable *> path, Bytes bytes);
  /// Ticks `bytes` occupy `r` (rounded up to its granule).
  Ticks occupancyTicks(const Reservable &r, Bytes bytes) const;
  /// Books `length` ticks of `r`'s free time from `earliest` on, in as
  /// many pieces as the calendar's gaps need; returns when the first piece
  /// starts and the last ends.
  std::pair<Ticks, Ticks> book(Reservable &r, Ticks earliest, Ticks length);
  /// Picks the tick: the least common multiple of every bandwidth in the
  /// model, so a byte takes a whole number of ticks on every resource.
  void chooseTicksPerCycle();
  Fifo *fifoBetween(Unit &u, NodeInstance producer, NodeInstance consumer);
  int unitAt(NodeInstance instance) {
    auto it = unitIndex.find(flat(instance));
    return it == unitIndex.end() ? -1 : int(it->second);
  }
  uint64_t flat(NodeInstance n) { return (uint64_t(n.node) << 40) | uint64_t(n.index); }

  // --- Execution -----------------------------------------------------------
  void schedule(Event e) {
    e.seq = nextSeq++;
    events.push(e);
  }
  void resumeAt(unsigned unit, Cycles t) {
    Unit &u = units[unit];
    u.state = State::Scheduled;
    schedule(Event{t, 0, Event::Resume, unit, 0, 0});
  }
  void wake(int unit, Cycles t) {
    if (unit < 0 || units[unit].state != State::Blocked)
      return;
    Unit &u = units[unit];
    u.stats.stall += t - u.blockedSince;
    if (options.trace && t > u.blockedSince)
      result.trace.push_back({unsigned(unit), "stall: " + u.blockReason, u.blockedSince,
                              t - u.blockedSince});
    resumeAt(unsigned(unit), t);
  }
  void block(unsigned unit, std::string reason, int waitingOn, int waitingSem = -1) {
    Unit &u = units[unit];
    u.waitingSem = waitingSem;
    u.state = State::Blocked;
    u.blockedSince = now;
    u.blockReason = std::move(reason);
    u.waitingOn = waitingOn;
  }
  void busy(unsigned unit, Cycles until) {
    Unit &u = units[unit];
    Cycles d = until - now;
    u.stats.busy += d;
    if (options.trace && d.count() > 0)
      result.trace.push_back(
          {unit, opcodeName(u.program->body[u.pc].op).str(), now, d});
  }
  Cycles cost(Cycles c) { return options.timing ? c : Cycles(0); }
  void step(unsigned unit);
  /// Executes u.program->body[u.pc]; returns false if the unit must stop
  /// stepping (it blocked or scheduled its resumption).
  bool execute(unsigned unit);
  bool executeVector(unsigned unit, const Instruction &inst);
  void landWrite(size_t index);
  size_t newWrite(unsigned memory) {
    size_t index;
    if (!freeWrites.empty()) {
      index = freeWrites.back();
      freeWrites.pop_back();
    } else {
      index = writes.size();
      writes.emplace_back();
    }
    writes[index].memory = memory;
    writes[index].runs.clear();
    writes[index].data.clear();
    return index;
  }
  std::string deadlockReport();

  const Bundle &bundle;
  const ArchModel &model;
  SimOptions options;
  SimResult result;
  std::vector<Unit> units;
  std::unordered_map<uint64_t, unsigned> unitIndex;
  llvm::StringMap<NodeId> nodeCache;
  std::map<std::pair<uint64_t, uint64_t>, Route> routes;
  std::map<std::pair<uint64_t, uint64_t>, Cycles> signalLatency;
  std::map<std::pair<uint64_t, NodeId>, NodeInstance> nearest;
  std::map<std::pair<LinkId, int64_t>, Reservable> links;
  std::map<uint64_t, Reservable> ports;
  std::map<std::tuple<LinkId, int64_t, uint64_t, uint64_t>, Fifo> fifos;
  std::vector<int64_t> memoryBase;
  std::vector<SimMemory> memories;
  std::optional<NodeId> globalMemory;
  std::vector<PendingWrite> writes;
  std::vector<size_t> freeWrites;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  uint64_t nextSeq = 0;
  /// Instructions started by all units, checked against the limit.
  uint64_t executed = 0;
  Cycles now;
  Ticks ticksPerCycle = 1;
};

} // namespace

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

Reservable &Engine::linkResource(const LinkInstance &l) {
  auto key = std::make_pair(l.link, l.index);
  auto it = links.find(key);
  if (it != links.end())
    return it->second;
  const Link &link = model.link(l.link);
  Reservable r;
  r.name = "@" + link.name;
  if (link.scope != kDeviceGroup) {
    llvm::SmallVector<GroupId, 4> chain = model.groupChain(link.scope);
    llvm::SmallVector<int64_t, 4> path = model.instancePath(link.scope, l.index);
    r.name += "[";
    for (size_t i = 1; i < chain.size(); ++i)
      r.name += (i > 1 ? "," : "") + model.group(chain[i]).name + "=" +
                std::to_string(path[i - 1]);
    r.name += "]";
  }
  r.bandwidth = link.bandwidth;
  r.latency = link.latency;
  r.granule = link.granule;
  return links.emplace(key, std::move(r)).first->second;
}

Reservable *Engine::portResource(NodeInstance memory) {
  const Node &node = model.node(memory.node);
  if (!node.memory.bandwidth)
    return nullptr;
  auto it = ports.find(flat(memory));
  if (it != ports.end())
    return &it->second;
  Reservable r;
  r.name = model.instanceName(memory) + " port";
  r.bandwidth = *node.memory.bandwidth;
  return &ports.emplace(flat(memory), std::move(r)).first->second;
}

void Engine::appendRoute(std::vector<Reservable *> &path, const Route &route) {
  for (const Hop &hop : route.hops) {
    // An intermediate memory is written and read again: its port twice.
    if (hop.from != route.source && model.node(hop.from.node).isMemory())
      if (Reservable *port = portResource(hop.from)) {
        path.push_back(port);
        path.push_back(port);
      }
    path.push_back(&linkResource(hop.link));
  }
}

Ticks Engine::occupancyTicks(const Reservable &r, Bytes bytes) const {
  __int128 scaled = __int128(bytes.alignTo(r.granule).count()) * ticksPerCycle;
  int64_t rate = r.bandwidth.bytesPerCycle;
  return Ticks((scaled + rate - 1) / rate);
}

std::pair<Ticks, Ticks> Engine::book(Reservable &r, Ticks earliest, Ticks length) {
  std::map<Ticks, Ticks> &cal = r.calendar;
  // Intervals over before the present can no longer matter: every
  // reservation starts at the present or later.
  Ticks present = now.count() * ticksPerCycle;
  while (!cal.empty() && cal.begin()->second <= present)
    cal.erase(cal.begin());
  // Collect the free pieces from `earliest` on until they add up to
  // `length`: a resource serves whatever is waiting whenever it is free,
  // so a transfer also uses gaps shorter than itself.
  llvm::SmallVector<std::pair<Ticks, Ticks>, 4> pieces;
  Ticks t = earliest, remaining = length;
  auto next = cal.upper_bound(t);
  if (next != cal.begin())
    t = std::max(t, std::prev(next)->second);
  while (remaining > 0) {
    Ticks gapEnd = next == cal.end() ? std::numeric_limits<Ticks>::max() : next->first;
    if (gapEnd > t) {
      Ticks take = std::min(gapEnd - t, remaining);
      pieces.push_back({t, t + take});
      remaining -= take;
      t += take;
    }
    if (remaining > 0) {
      t = std::max(t, next->second);
      ++next;
    }
  }
  for (auto [from, to] : pieces) {
    // Insert [from, to), merged with touching neighbours so a saturated
    // resource keeps a single interval.
    Ticks first = from, last = to;
    auto after = cal.lower_bound(from);
    if (after != cal.begin()) {
      auto before = std::prev(after);
      if (before->second == from) {
        first = before->first;
        cal.erase(before);
      }
    }
    if (after != cal.end() && after->first == to) {
      last = after->second;
      cal.erase(after);
    }
    cal[first] = last;
  }
  r.busyTicks += length;
  if (pieces.empty())
    return {earliest, earliest};
  return {pieces.front().first, pieces.back().second};
}

std::pair<Cycles, Cycles> Engine::reserve(llvm::ArrayRef<Reservable *> path, Bytes bytes) {
  for (Reservable *r : path)
    r->bytes += bytes;
  if (!options.timing || path.empty())
    return {now, now};
  // The transfer moves in chunks of the largest granule on its path, each
  // chunk cut-through from resource to resource: a chunk starts on a
  // resource when its head has arrived, the previous chunk has left it and
  // the next resource has taken the previous chunk (one chunk of buffering
  // between hops besides the link's latency in flight, so the stream runs
  // at its slowest resource's pace all along the path) and
  // the resource has a free slot; it holds the resource only for its own
  // bytes / bandwidth, so a fast resource fed by a slow stream stays free
  // for other transfers in between; it cannot finish before its tail
  // arrived.
  Bytes chunk(1);
  for (Reservable *r : path)
    chunk = std::max(chunk, r->granule);
  int64_t chunks = std::max<int64_t>(1, (bytes.count() + chunk.count() - 1) / chunk.count());
  const Ticks present = now.count() * ticksPerCycle;
  llvm::SmallVector<Ticks, 8> previousEnd(path.size(), present),
      previousStart(path.size(), present);
  Ticks firstStart = present, tail = present;
  for (int64_t c = 0; c < chunks; ++c) {
    Bytes size = c + 1 < chunks ? chunk : bytes - chunk * (chunks - 1);
    Ticks head = present;
    tail = present;
    for (size_t i = 0; i < path.size(); ++i) {
      Reservable *r = path[i];
      Ticks occupancy = occupancyTicks(*r, size);
      Ticks latency = r->latency.count() * ticksPerCycle;
      Ticks earliest = std::max(head, previousEnd[i]);
      if (i + 1 < path.size())
        earliest = std::max(earliest, previousStart[i + 1] - latency);
      auto [start, end] = book(*r, earliest, occupancy);
      Ticks sendEnd = std::max(end, tail);
      previousEnd[i] = end;
      previousStart[i] = start;
      head = start + latency;
      tail = sendEnd + latency;
      if (c == 0 && i == 0)
        firstStart = start;
    }
  }
  // The issuing unit hands the bytes to the first resource at that
  // resource's rate (a DMA engine queues the rest of the transfer, a load
  // unit pipelines its reads); the pace of the rest of the path is not its
  // own.
  Ticks issued = firstStart + occupancyTicks(*path.front(), bytes);
  auto toCycles = [&](Ticks t) { return Cycles((t + ticksPerCycle - 1) / ticksPerCycle); };
  return {toCycles(issued), toCycles(tail)};
}

Fifo *Engine::fifoBetween(Unit &u, NodeInstance producer, NodeInstance consumer) {
  const Route *route = routeBetween(u, producer, consumer);
  if (!route)
    return nullptr;
  if (route->hops.empty() || !model.link(route->hops.back().link.link).isFifo()) {
    fail(u, "the route from " + model.instanceName(producer) + " to " +
                model.instanceName(consumer) + " does not end in a FIFO link");
    return nullptr;
  }
  const Hop &last = route->hops.back();
  auto key = std::make_tuple(last.link.link, last.link.index, flat(producer), flat(consumer));
  auto it = fifos.find(key);
  if (it != fifos.end())
    return &it->second;
  const Link &link = model.link(last.link.link);
  Fifo f;
  f.linkName = linkResource(last.link).name;
  f.depth = *link.fifoDepth;
  f.granule = link.granule;
  f.producer = unitAt(producer);
  f.consumer = unitAt(consumer);
  return &fifos.emplace(key, std::move(f)).first->second;
}

void Engine::chooseTicksPerCycle() {
  // Bounded so that tick counts of long runs stay far from overflow; past
  // the bound occupancies round up to the tick (a simulator resolution,
  // not a property of the device).
  constexpr int64_t kMaxTicksPerCycle = int64_t(1) << 24;
  int64_t ticks = 1;
  auto include = [&](int64_t bandwidth) {
    if (bandwidth <= 0)
      return;
    int64_t next = std::lcm(ticks, bandwidth);
    if (next <= kMaxTicksPerCycle)
      ticks = next;
  };
  for (const Link &l : model.links())
    include(l.bandwidth.bytesPerCycle);
  for (NodeId m : model.memories())
    if (model.node(m).memory.bandwidth)
      include(model.node(m).memory.bandwidth->bytesPerCycle);
  ticksPerCycle = ticks;
}

//===----------------------------------------------------------------------===//
// Execution
//===----------------------------------------------------------------------===//

void Engine::landWrite(size_t index) {
  PendingWrite &w = writes[index];
  size_t offset = 0;
  for (auto [address, size] : w.runs) {
    memories[w.memory].write(address, w.data.data() + offset, size);
    offset += size.count();
  }
  freeWrites.push_back(index);
}

void Engine::step(unsigned unit) {
  Unit &u = units[unit];
  u.state = State::Ready;
  while (true) {
    if (u.pc >= u.program->body.size()) {
      u.state = State::Done;
      u.stats.finished = true;
      u.stats.finish = now;
      return;
    }
    // The bound sits here, not per event: a loop of instructions that take
    // no time (or a run without timing) never returns to the event queue.
    uint64_t limit = options.limits.maxInstructions;
    if (limit && ++executed > limit) {
      error = llvm::formatv("simulation stopped at cycle {0}: the instruction limit ({1}, "
                            "all units together) is reached; the code would run "
                            "practically forever ({2} is at instruction {3})",
                            now.count(), limit, u.name, u.pc)
                  .str();
      return;
    }
    if (!execute(unit))
      return;
  }
}

bool Engine::execute(unsigned unit) {
  Unit &u = units[unit];
  const Instruction &inst = u.program->body[u.pc];
  ++u.stats.instructions;
  switch (inst.op) {
  case Opcode::Loop:
    if (inst.count == 0) {
      u.pc = u.loopMatch[u.pc] + 1;
      return true;
    }
    u.loops.push_back(LoopFrame{u.pc, 0});
    ++u.pc;
    return true;
  case Opcode::End: {
    LoopFrame &f = u.loops.back();
    if (++f.iteration < u.program->body[f.start].count) {
      u.pc = f.start + 1;
    } else {
      u.loops.pop_back();
      ++u.pc;
    }
    return true;
  }
  case Opcode::Wait:
    if (u.sems[inst.sem] >= inst.count) {
      u.sems[inst.sem] -= inst.count;
      ++u.pc;
      return true;
    }
    --u.stats.instructions;
    block(unit,
          llvm::formatv("semaphore {0} (has {1}, needs {2})", inst.sem, u.sems[inst.sem],
                        inst.count)
              .str(),
          -1, int(inst.sem));
    return false;
  case Opcode::Credit:
    // Local and immediate: the initial credits of a slot ring.
    u.sems[inst.sem] += inst.count;
    ++u.pc;
    return true;
  case Opcode::Signal: {
    std::optional<NodeInstance> peerOr = select(u, inst.peer, /*towards=*/true);
    if (!peerOr)
      return false;
    NodeInstance peer = *peerOr;
    int target = unitAt(peer);
    Cycles latency(0);
    if (peer != u.instance) {
      // A signal travels the route to the peer; units that only receive
      // data from their peer (a load unit signalling its DMA) use the route
      // the other way.
      auto key = std::make_pair(flat(u.instance), flat(peer));
      auto cached = signalLatency.find(key);
      if (cached != signalLatency.end()) {
        latency = cached->second;
      } else {
        std::optional<Route> r = model.route(u.instance, peer);
        if (!r)
          r = model.route(peer, u.instance);
        if (!r)
          return fail(u, "no route between " + u.name + " and " + model.instanceName(peer));
        for (const Hop &h : r->hops)
          latency += model.link(h.link.link).latency;
        signalLatency[key] = latency;
      }
    }
    if (target >= 0) {
      Cycles at = options.timing ? std::max(now, u.lastWriteLanded) + latency : now;
      schedule(Event{at, 0, Event::SemIncrement, unsigned(target), inst.sem, 0});
    }
    ++u.pc;
    return true;
  }
  case Opcode::Copy: {
    std::optional<Place> dstOr = resolve(u, inst.dst), srcOr = resolve(u, inst.src);
    if (!dstOr || !srcOr)
      return false;
    Place dst = *dstOr, src = *srcOr;
    llvm::SmallVector<Bytes, 4> srcStrides, dstStrides;
    Bytes srcExtent = inst.bytes, dstExtent = inst.bytes;
    int64_t runs = 1;
    for (const CopyDim &d : inst.dims)
      if (d.srcStride < Bytes(0) || d.dstStride < Bytes(0))
        return fail(u, "negative strides are not supported");
    for (const CopyDim &d : inst.dims) {
      srcStrides.push_back(d.srcStride);
      dstStrides.push_back(d.dstStride);
      // Loaded code can name any count and stride: an extent past int64
      // is an error, not an overflow.
      int64_t srcSpan, dstSpan, src, dst;
      if (llvm::MulOverflow(d.srcStride.count(), d.count - 1, srcSpan) ||
          llvm::MulOverflow(d.dstStride.count(), d.count - 1, dstSpan) ||
          llvm::AddOverflow(srcExtent.count(), srcSpan, src) ||
          llvm::AddOverflow(dstExtent.count(), dstSpan, dst) ||
          llvm::MulOverflow(runs, d.count, runs))
        return fail(u, "the copy's extent overflows");
      srcExtent = Bytes(src);
      dstExtent = Bytes(dst);
    }
    if (!checkAccess(u, src, inst.bytes, srcStrides, srcExtent) ||
        !checkAccess(u, dst, inst.bytes, dstStrides, dstExtent))
      return false;
    Bytes total = inst.bytes * runs;
    // The simulator stages a copy's bytes in host memory; a bound keeps a
    // corrupt descriptor from exhausting it (a host limit, not a device one).
    if (options.computeValues && total > kMaxStagedBytes)
      return fail(u, llvm::formatv("copies {0} bytes at once; the simulator stages at most {1}",
                                   total.count(), kMaxStagedBytes.count()));
    std::vector<Reservable *> path;
    if (Reservable *p = portResource(src.memory))
      path.push_back(p);
    if (!appendRouteBetween(u, path, src.memory, u.instance))
      return false;
    if (!appendRouteBetween(u, path, u.instance, dst.memory))
      return false;
    if (Reservable *p = portResource(dst.memory))
      path.push_back(p);
    auto [sendEnd, tail] = reserve(path, total);
    size_t w = newWrite(memoryKey(dst.memory));
    if (options.computeValues) {
      PendingWrite &pw = writes[w];
      pw.data.resize(total.count());
      SimMemory &from = memoryOf(src.memory);
      // Walk the runs in row-major order of the dimensions.
      llvm::SmallVector<int64_t, 4> idx(inst.dims.size(), 0);
      for (int64_t r = 0; r < runs; ++r) {
        Bytes so = src.address, dof = dst.address;
        for (size_t d = 0; d < idx.size(); ++d) {
          so += inst.dims[d].srcStride * idx[d];
          dof += inst.dims[d].dstStride * idx[d];
        }
        from.read(so, pw.data.data() + r * inst.bytes.count(), inst.bytes);
        pw.runs.push_back({dof, inst.bytes});
        for (size_t d = idx.size(); d-- > 0;) {
          if (++idx[d] < inst.dims[d].count)
            break;
          idx[d] = 0;
        }
      }
    }
    schedule(Event{tail, 0, Event::Write, 0, 0, w});
    u.lastWriteLanded = std::max(u.lastWriteLanded, tail);
    busy(unit, sendEnd);
    ++u.pc;
    resumeAt(unit, sendEnd);
    return false;
  }
  case Opcode::Push:
  case Opcode::Send: {
    std::optional<NodeInstance> peerOr = select(u, inst.peer, /*towards=*/true);
    if (!peerOr)
      return false;
    NodeInstance peer = *peerOr;
    Fifo *fifoOr = fifoBetween(u, u.instance, peer);
    if (!fifoOr)
      return false;
    Fifo &fifo = *fifoOr;
    Bytes size = inst.op == Opcode::Push
                     ? inst.bytes
                     : toBytes(Elements(u.regs[inst.va].count), elemTypeSize(u.regs[inst.va].type));
    if (inst.op == Opcode::Send && u.regs[inst.va].count == 0)
      return fail(u, llvm::formatv("register v{0} holds no value", unsigned(inst.va)));
    int64_t granules = (size.count() + fifo.granule.count() - 1) / fifo.granule.count();
    if (granules > fifo.depth)
      return fail(u, llvm::formatv("{0} bytes never fit FIFO {1} ({2} granules of {3} bytes)",
                            size.count(), fifo.linkName, fifo.depth, fifo.granule.count()));
    if (fifo.used + granules > fifo.depth) {
      --u.stats.instructions;
      fifo.blockedProducer = int(unit);
      block(unit,
            "space in FIFO " + fifo.linkName + " to " + model.instanceName(peer) +
                (fifo.consumer < 0 ? " (which runs no program)" : ""),
            fifo.consumer);
      return false;
    }
    std::vector<Reservable *> path;
    Message m;
    m.size = size;
    m.granules = granules;
    if (inst.op == Opcode::Push) {
      std::optional<Place> srcOr = resolve(u, inst.src);
      if (!srcOr || !checkAccess(u, *srcOr, size, {}, size))
        return false;
      Place src = *srcOr;
      if (Reservable *p = portResource(src.memory))
        path.push_back(p);
      if (!appendRouteBetween(u, path, src.memory, u.instance))
      return false;
      if (options.computeValues) {
        m.data.resize(size.count());
        memoryOf(src.memory).read(src.address, m.data.data(), size);
      }
    } else if (options.computeValues) {
      m.data.resize(size.count());
      storeVector(u.regs[inst.va], m.data.data());
    }
    if (!appendRouteBetween(u, path, u.instance, peer))
      return false;
    auto [sendEnd, tail] = reserve(path, size);
    m.arrival = tail;
    fifo.used += granules;
    fifo.queue.push_back(std::move(m));
    wake(fifo.blockedConsumer, std::max(now, tail));
    fifo.blockedConsumer = -1;
    busy(unit, sendEnd);
    ++u.pc;
    if (sendEnd == now)
      return true;
    resumeAt(unit, sendEnd);
    return false;
  }
  case Opcode::Pop:
  case Opcode::Recv: {
    std::optional<NodeInstance> peerOr = select(u, inst.peer, /*towards=*/false);
    if (!peerOr)
      return false;
    NodeInstance peer = *peerOr;
    Fifo *fifoOr = fifoBetween(u, peer, u.instance);
    if (!fifoOr)
      return false;
    Fifo &fifo = *fifoOr;
    if (fifo.queue.empty() || fifo.queue.front().arrival > now) {
      --u.stats.instructions;
      block(unit,
            "data in FIFO " + fifo.linkName + " from " + model.instanceName(peer) +
                (fifo.producer < 0 ? " (which runs no program)" : ""),
            fifo.producer);
      if (fifo.queue.empty())
        fifo.blockedConsumer = int(unit);
      else
        wake(int(unit), fifo.queue.front().arrival);
      return false;
    }
    Message m = std::move(fifo.queue.front());
    fifo.queue.pop_front();
    fifo.used -= m.granules;
    wake(fifo.blockedProducer, now);
    fifo.blockedProducer = -1;
    Bytes expected = inst.op == Opcode::Pop
                         ? inst.bytes
                         : toBytes(Elements(inst.count), elemTypeSize(inst.type));
    if (m.size != expected)
      return fail(u, llvm::formatv("expects {0} bytes from FIFO {1} but the message has {2}",
                            expected.count(), fifo.linkName, m.size.count()));
    if (inst.op == Opcode::Recv) {
      VectorValue &v = u.regs[inst.vd];
      v.type = inst.type;
      v.count = inst.count;
      if (options.computeValues)
        loadVector(v, m.data.data());
      ++u.pc;
      return true;
    }
    std::optional<Place> dstOr = resolve(u, inst.dst);
    if (!dstOr || !checkAccess(u, *dstOr, expected, {}, expected))
      return false;
    Place dst = *dstOr;
    std::vector<Reservable *> path;
    if (!appendRouteBetween(u, path, u.instance, dst.memory))
      return false;
    if (Reservable *p = portResource(dst.memory))
      path.push_back(p);
    auto [sendEnd, tail] = reserve(path, expected);
    size_t w = newWrite(memoryKey(dst.memory));
    writes[w].runs.push_back({dst.address, expected});
    writes[w].data = std::move(m.data);
    if (!options.computeValues)
      writes[w].runs.clear();
    schedule(Event{tail, 0, Event::Write, 0, 0, w});
    u.lastWriteLanded = std::max(u.lastWriteLanded, tail);
    busy(unit, sendEnd);
    ++u.pc;
    resumeAt(unit, sendEnd);
    return false;
  }
  case Opcode::VLoad: {
    std::optional<Place> srcOr = resolve(u, inst.src);
    if (!srcOr)
      return false;
    Place src = *srcOr;
    Bytes size = toBytes(Elements(inst.count), elemTypeSize(inst.type));
    if (!checkAccess(u, src, size, {}, size))
      return false;
    std::vector<Reservable *> path;
    if (Reservable *p = portResource(src.memory))
      path.push_back(p);
    if (!appendRouteBetween(u, path, src.memory, u.instance))
      return false;
    auto [sendEnd, tail] = reserve(path, size);
    VectorValue &v = u.regs[inst.vd];
    v.type = inst.type;
    v.count = inst.count;
    if (options.computeValues) {
      std::vector<uint8_t> bytes(size.count());
      memoryOf(src.memory).read(src.address, bytes.data(), size);
      loadVector(v, bytes.data());
    }
    busy(unit, tail);
    ++u.pc;
    resumeAt(unit, tail);
    return false;
  }
  case Opcode::VStore: {
    const VectorValue &v = u.regs[inst.va];
    if (v.count == 0)
      return fail(u, llvm::formatv("register v{0} holds no value", unsigned(inst.va)));
    std::optional<Place> dstOr = resolve(u, inst.dst);
    if (!dstOr)
      return false;
    Place dst = *dstOr;
    Bytes size = toBytes(Elements(v.count), elemTypeSize(v.type));
    if (!checkAccess(u, dst, size, {}, size))
      return false;
    std::vector<Reservable *> path;
    if (!appendRouteBetween(u, path, u.instance, dst.memory))
      return false;
    if (Reservable *p = portResource(dst.memory))
      path.push_back(p);
    auto [sendEnd, tail] = reserve(path, size);
    size_t w = newWrite(memoryKey(dst.memory));
    if (options.computeValues) {
      writes[w].data.resize(size.count());
      storeVector(v, writes[w].data.data());
      writes[w].runs.push_back({dst.address, size});
    }
    schedule(Event{tail, 0, Event::Write, 0, 0, w});
    u.lastWriteLanded = std::max(u.lastWriteLanded, tail);
    busy(unit, sendEnd);
    ++u.pc;
    resumeAt(unit, sendEnd);
    return false;
  }
  default:
    return executeVector(unit, inst);
  }
}

bool Engine::executeVector(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  const Node &node = model.node(u.instance.node);
  if (!node.isCompute())
    return fail(u, "@" + node.name + " is not a compute unit");
  StringRef opClass = opClassOf(inst.op, inst.combiner);
  std::optional<Cycles> issue = node.compute.issueCost(opClass);
  if (!issue)
    return fail(u, "@" + node.name + " has no op class '" + opClass.str() + "'");
  // Every register the instruction reads must hold a value.
  llvm::SmallVector<uint8_t, 3> reads;
  switch (inst.op) {
  case Opcode::VConst:
    break;
  case Opcode::Slide:
    reads = {inst.vd, inst.va};
    break;
  case Opcode::Ext:
  case Opcode::Concat:
    reads = {inst.va, inst.vb};
    break;
  case Opcode::Select:
    reads = {inst.vc, inst.va, inst.vb};
    break;
  default:
    reads = {inst.va};
    if (isBinaryArith(inst.op) || inst.op == Opcode::Cmp)
      reads.push_back(inst.vb);
    break;
  }
  for (uint8_t r : reads)
    if (u.regs[r].count == 0)
      return fail(u, llvm::formatv("register v{0} holds no value", unsigned(r)));
  auto operand = [&](uint8_t r) -> const VectorValue & { return u.regs[r]; };
  // The vectors the instruction processes decide the issues it needs.
  int64_t issues = 0;
  auto issuesFor = [&](ElemType t, int64_t count) {
    for (const auto &[type, lanes] : node.compute.lanes)
      if ((t == ElemType::F16 && type.isF16()) || (t == ElemType::BF16 && type.isBF16()) ||
          (t == ElemType::F32 && type.isF32())) {
        issues = std::max(issues, (count + lanes - 1) / lanes);
        return true;
      }
    return fail(u, "@" + node.name + " has no lanes for " + elemTypeName(t).str());
  };
  std::string error;
  VectorValue out;
  switch (inst.op) {
  case Opcode::VConst:
    if (!issuesFor(inst.type, inst.count))
      return false;
    out = splat(inst.type, inst.count, inst.imm, options.computeValues);
    break;
  case Opcode::Cast: {
    const VectorValue &a = operand(inst.va);
    if (!issuesFor(a.type, a.count))
      return false;
    if (!issuesFor(inst.type, a.count))
      return false;
    out = castVector(a, inst.type, options.computeValues);
    break;
  }
  case Opcode::Bcast: {
    const VectorValue &a = operand(inst.va);
    if (inst.lane >= a.count)
      return fail(u, llvm::formatv("lane {0} of a {1}-element register", inst.lane, a.count));
    if (!issuesFor(a.type, inst.count))
      return false;
    out = splat(a.type, inst.count, options.computeValues ? a.values[inst.lane] : 0,
                options.computeValues);
    break;
  }
  case Opcode::Reduce: {
    const VectorValue &a = operand(inst.va);
    if (!issuesFor(a.type, a.count))
      return false;
    out = reduceVector(a, inst.combiner, options.computeValues);
    break;
  }
  case Opcode::Select: {
    const VectorValue &m = operand(inst.vc), &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(m, a) || !sameShape(a, b))
      return fail(u, "select operands differ in type or element count");
    if (!issuesFor(a.type, a.count))
      return false;
    out = selectVector(m, a, b, options.computeValues);
    break;
  }
  case Opcode::Slide: {
    const VectorValue &d = operand(inst.vd), &a = operand(inst.va);
    if (d.type != a.type)
      return fail(u, "slide operands differ in element type");
    if (!issuesFor(d.type, d.count))
      return false;
    out = d;
    if (options.computeValues) {
      std::rotate(out.values.begin(), out.values.begin() + 1, out.values.end());
      out.values.back() = a.values[0];
    }
    break;
  }
  case Opcode::Ext: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(a, b))
      return fail(u, "ext operands differ in type or element count");
    int64_t lane = inst.laneFromTable ? tableValue(u, uint32_t(inst.lane)) : inst.lane;
    if (lane < 0 || lane >= a.count)
      return fail(u, llvm::formatv("lane {0} of a {1}-element register", lane, a.count));
    if (!issuesFor(a.type, a.count))
      return false;
    out = extractVector(a, b, lane, options.computeValues);
    break;
  }
  case Opcode::Concat: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (a.type != b.type)
      return fail(u, "concat operands differ in element type");
    if (a.count + b.count > dc::kMaxVectorElements)
      return fail(u, llvm::formatv("concat of {0} and {1} elements exceeds {2}", a.count,
                                   b.count, dc::kMaxVectorElements));
    if (!issuesFor(a.type, a.count + b.count))
      return false;
    out = concatVectors(a, b, options.computeValues);
    break;
  }
  case Opcode::Slice: {
    const VectorValue &a = operand(inst.va);
    if (inst.lane + inst.count > a.count)
      return fail(u, llvm::formatv("lanes {0}..{1} of a {2}-element register", inst.lane,
                                   inst.lane + inst.count - 1, a.count));
    if (!issuesFor(a.type, inst.count))
      return false;
    out = sliceVector(a, inst.lane, inst.count, options.computeValues);
    break;
  }
  case Opcode::Cmp: {
    const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
    if (!sameShape(a, b))
      return fail(u, "cmp operands differ in type or element count");
    if (!issuesFor(a.type, a.count))
      return false;
    out = compareVector(inst.predicate, a, b, options.computeValues);
    break;
  }
  default:
    if (isBinaryArith(inst.op)) {
      const VectorValue &a = operand(inst.va), &b = operand(inst.vb);
      if (!sameShape(a, b))
        return fail(u, llvm::formatv("operands v{0} ({1} x {2}) and v{3} ({4} x {5}) differ",
                              unsigned(inst.va), a.count, elemTypeName(a.type),
                              unsigned(inst.vb), b.count, elemTypeName(b.type)));
      if (!issuesFor(a.type, a.count))
        return false;
      out = binaryVector(inst.op, a, b, options.computeValues);
    } else {
      const VectorValue &a = operand(inst.va);
      if (!issuesFor(a.type, a.count))
        return false;
      out = unaryVector(inst.op, a, options.computeValues);
    }
    break;
  }
  u.regs[inst.vd] = std::move(out);
  Cycles until = now + cost(*issue * issues);
  busy(unit, until);
  ++u.pc;
  if (until == now)
    return true;
  resumeAt(unit, until);
  return false;
}

std::string Engine::deadlockReport() {
  std::string report;
  llvm::raw_string_ostream os(report);
  os << "deadlock at cycle " << now.count() << ": every unfinished unit is blocked\n";
  for (const Unit &u : units)
    if (u.state == State::Blocked)
      os << "  " << u.name << " at instruction " << u.pc << " ("
         << opcodeName(u.program->body[u.pc].op) << ") waits for " << u.blockReason << "\n";
  // Semaphore waits point at every unfinished unit whose remaining program
  // signals the waiting unit: a conservative wait-for edge.
  auto waitsFor = [&](unsigned i) {
    std::vector<unsigned> targets;
    const Unit &u = units[i];
    if (u.waitingOn >= 0) {
      targets.push_back(unsigned(u.waitingOn));
      return targets;
    }
    // The instance a signal of unit `src` reaches, as execution would
    // resolve it (absent if it cannot be told without running).
    auto peerOf = [&](const Unit &src, const NodeRef &ref) -> std::optional<NodeInstance> {
      std::optional<NodeId> id = model.lookupNode(ref.name);
      if (!id)
        return std::nullopt;
      switch (ref.instance.kind) {
      case InstanceSelector::Kind::Absolute:
        return NodeInstance{*id, ref.instance.value};
      case InstanceSelector::Kind::TableColumn:
        if (!src.row)
          return std::nullopt;
        return NodeInstance{*id, (*src.row)[ref.instance.value]};
      case InstanceSelector::Kind::Nearest:
        break;
      }
      if (std::optional<Route> r = model.routeTo(src.instance, *id))
        return r->dest;
      if (std::optional<Route> r = model.routeFrom(*id, src.instance))
        return r->source;
      return std::nullopt;
    };
    for (unsigned j = 0; j < units.size(); ++j) {
      if (units[j].state == State::Done || j == i)
        continue;
      for (size_t pc = 0; pc < units[j].program->body.size(); ++pc) {
        const Instruction &in = units[j].program->body[pc];
        if (in.op != Opcode::Signal || int(in.sem) != u.waitingSem)
          continue;
        std::optional<NodeInstance> target = peerOf(units[j], in.peer);
        if (!target || *target == u.instance) {
          targets.push_back(j);
          break;
        }
      }
    }
    return targets;
  };
  // Depth-first search for a cycle among blocked units.
  std::vector<int> color(units.size(), 0);
  std::vector<unsigned> stack;
  std::vector<unsigned> cycle;
  std::function<bool(unsigned)> dfs = [&](unsigned i) {
    color[i] = 1;
    stack.push_back(i);
    for (unsigned j : waitsFor(i)) {
      if (units[j].state != State::Blocked)
        continue;
      if (color[j] == 1) {
        auto it = std::find(stack.begin(), stack.end(), j);
        cycle.assign(it, stack.end());
        cycle.push_back(j);
        return true;
      }
      if (color[j] == 0 && dfs(j))
        return true;
    }
    stack.pop_back();
    color[i] = 2;
    return false;
  };
  for (unsigned i = 0; i < units.size() && cycle.empty(); ++i)
    if (units[i].state == State::Blocked && color[i] == 0)
      dfs(i);
  if (!cycle.empty()) {
    os << "  cycle of waits:";
    for (size_t k = 0; k < cycle.size(); ++k)
      os << (k ? " -> " : " ") << units[cycle[k]].name;
    os << "\n";
  } else {
    for (const Unit &u : units)
      if (u.state == State::Blocked && u.waitingOn >= 0 &&
          units[u.waitingOn].state == State::Done)
        os << "  " << u.name << " waits on " << units[u.waitingOn].name
           << ", which has finished\n";
  }
  return report;
}

SimResult Engine::run(const SymbolData &inputs) {
  if (!createUnits() || !placeSymbols(inputs))
    return {};
  chooseTicksPerCycle();
  for (unsigned i = 0; i < units.size(); ++i)
    resumeAt(i, Cycles(0));
  while (!events.empty()) {
    Event e = events.top();
    events.pop();
    now = e.time;
    if (options.limits.maxCycles.count() && now > options.limits.maxCycles) {
      error = llvm::formatv("simulation stopped: the cycle limit ({0}) is reached; the code "
                            "would run practically forever",
                            options.limits.maxCycles.count())
                  .str();
      return {};
    }
    switch (e.kind) {
    case Event::Resume:
      step(e.unit);
      if (error)
        return {};
      break;
    case Event::SemIncrement: {
      Unit &target = units[e.unit];
      target.sems[e.sem] += 1;
      wake(int(e.unit), now);
      break;
    }
    case Event::Write:
      landWrite(e.write);
      break;
    }
  }
  result.totalCycles = now;
  bool stuck = false;
  for (Unit &u : units) {
    if (u.state != State::Done) {
      stuck = true;
      u.stats.stall += now - u.blockedSince;
    }
    result.units.push_back(u.stats);
  }
  if (stuck)
    result.deadlock = deadlockReport();
  auto busyCycles = [&](const Reservable &r) {
    return Cycles((r.busyTicks + ticksPerCycle - 1) / ticksPerCycle);
  };
  for (auto &[key, r] : links)
    result.links.push_back({r.name, r.bytes, busyCycles(r)});
  for (auto &[key, r] : ports)
    result.ports.push_back({r.name, r.bytes, busyCycles(r)});
  if (options.computeValues)
    for (size_t s = 0; s < bundle.symbols.size(); ++s) {
      const Symbol &sym = bundle.symbols[s];
      std::vector<uint8_t> data(sym.size.count());
      memoryOf({*globalMemory, 0}).read(result.symbolAddresses[s], data.data(), sym.size);
      result.buffers[sym.name] = std::move(data);
    }
  return std::move(result);
}

llvm::Expected<SimResult> sim::simulate(const Bundle &bundle, const ArchModel &model,
                                        const SymbolData &inputs, const SimOptions &options) {
  if (llvm::Error e = verifyBundle(bundle, "bundle"))
    return std::move(e);
  if (llvm::Error e = checkUnitResources(bundle, model))
    return std::move(e);
  Engine engine(bundle, model, options);
  SimResult result = engine.run(inputs);
  if (engine.error)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *engine.error);
  return result;
}
