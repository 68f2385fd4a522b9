//===- Engine.h - the simulator engine shared by lib/Sim --------*- C++ -*-===//
//
// The state of one simulation and the Engine that advances it, declared
// once for the files that implement it: Setup.cpp (loading a bundle
// against the model, resolving names, routes and addresses),
// ResourceCalendar.cpp (link and memory-port bandwidth sharing), Fifos.cpp
// (FIFO channels and push/pop/send/recv), ExecuteSync.cpp (the dispatch,
// loops, semaphores), ExecuteTransfers.cpp (copy, vector load and store),
// ExecuteVector.cpp (vector compute), DeadlockReport.cpp and Simulator.cpp
// (the event loop). Private to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_SIM_ENGINE_H
#define KTFLOW_LIB_SIM_ENGINE_H

#include "ktflow/Sim/Simulator.h"

#include "SimMemory.h"
#include "VectorOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <deque>
#include <map>
#include <queue>
#include <unordered_map>

namespace ktflow::sim::detail {

using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;


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
  /// Timing, for a memory port with a read/write mix cost: the rate of
  /// balanced traffic, and the bytes read and written so far (what decides
  /// how much of a transfer pairs with the other direction).
  std::optional<Bandwidth> mixedBandwidth;
  Bytes readSoFar, writtenSoFar;
};

/// One resource a transfer reserves, and for a memory port whether the
/// transfer writes it (a link has no direction of its own).
struct PathStep {
  PathStep(Reservable *resource, bool write = false) : resource(resource), write(write) {}
  Reservable *resource;
  bool write;
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
  /// The running transfer instruction has waited for its issue slot.
  bool issuePaid = false;
  /// A running gather has read its indices: they arrive then, and the
  /// rows they name are read from then on.
  std::optional<Cycles> gatherIndicesAt;
  std::vector<int64_t> gatherIndices;
  /// When the unit's previous transfer started (0 before the first, so the
  /// first descriptor's set-up is paid from the start of the run).
  Cycles lastIssue;
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
  /// A loop's trip count: its own, or a table column's (a launch-table entry).
  int64_t loopCount(const Unit &u, const Instruction &loop) {
    return loop.countFromTable ? tableValue(u, uint32_t(loop.count)) : loop.count;
  }
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
  void appendRoute(std::vector<PathStep> &path, const Route &route);
  /// Appends the route between two instances; false if there is none.
  bool appendRouteBetween(Unit &u, std::vector<PathStep> &path, NodeInstance from,
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
  std::pair<Cycles, Cycles> reserve(llvm::ArrayRef<PathStep> path, Bytes bytes);
  /// Ticks `bytes` occupy `r` (rounded up to its granule).
  Ticks occupancyTicks(const Reservable &r, Bytes bytes) const;
  /// Ticks the next `bytes` of a path step occupy its resource; on a port
  /// with a mix cost it counts them as read or written, and the bytes that
  /// pair with the other direction so far cost the balanced rate.
  Ticks stepTicks(const PathStep &step, Bytes bytes);
  /// Timing: a mover with an issue cost starts at most one transfer per
  /// issue cost (descriptor set-up overlaps the previous transfer's data);
  /// waits until the running transfer instruction may start. False if the
  /// unit stops stepping (it resumes then and executes again).
  bool payIssueCost(unsigned unit);
  /// Ends an instruction whose write `write` is under way: it lands at
  /// `tail`, the unit is free again at `sendEnd`.
  bool awaitWrite(unsigned unit, size_t write, Cycles sendEnd, Cycles tail) {
    Unit &u = units[unit];
    schedule(Event{tail, 0, Event::Write, 0, 0, write});
    u.lastWriteLanded = std::max(u.lastWriteLanded, tail);
    busy(unit, sendEnd);
    ++u.pc;
    resumeAt(unit, sendEnd);
    return false;
  }
  /// Records that the running transfer instruction started its data now.
  void issued(Unit &u) {
    u.issuePaid = false;
    u.lastIssue = now;
  }
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
  // One per instruction class; each returns what execute() returns.
  bool executeLoop(unsigned unit, const Instruction &inst);
  bool executeEnd(unsigned unit);
  bool executeWait(unsigned unit, const Instruction &inst);
  bool executeSignal(unsigned unit, const Instruction &inst);
  bool executeCopy(unsigned unit, const Instruction &inst);
  bool executeGather(unsigned unit, const Instruction &inst);
  bool executeVLoad(unsigned unit, const Instruction &inst);
  bool executeVStore(unsigned unit, const Instruction &inst);
  /// Push and Send: a message into the FIFO towards the peer.
  bool executeFifoPut(unsigned unit, const Instruction &inst);
  /// Pop and Recv: the oldest arrived message out of the FIFO from the peer.
  bool executeFifoGet(unsigned unit, const Instruction &inst);
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


} // namespace ktflow::sim::detail

#endif // KTFLOW_LIB_SIM_ENGINE_H
