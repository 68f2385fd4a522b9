//===- ExecuteSync.cpp - instruction dispatch, loops and semaphores ===//
//
// step() runs a unit's instructions until one takes time or blocks;
// execute() dispatches one instruction to its class (this file for loops
// and synchronisation, ExecuteTransfers.cpp, Fifos.cpp, ExecuteVector.cpp).
// A counted loop keeps a frame per level; a wait blocks until its
// semaphore reaches the count; a signal leaves after the unit's writes
// have landed and travels the latency of the route to its peer.
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
    return executeLoop(unit, inst);
  case Opcode::End:
    return executeEnd(unit);
  case Opcode::Wait:
    return executeWait(unit, inst);
  case Opcode::Signal:
    return executeSignal(unit, inst);
  case Opcode::Credit:
    // Local and immediate: the initial credits of a slot ring.
    u.sems[inst.sem] += inst.count;
    ++u.pc;
    return true;
  case Opcode::Copy:
    return executeCopy(unit, inst);
  case Opcode::Gather:
  case Opcode::Scatter:
    return executeGather(unit, inst);
  case Opcode::Push:
  case Opcode::Send:
    return executeFifoPut(unit, inst);
  case Opcode::Pop:
  case Opcode::Recv:
    return executeFifoGet(unit, inst);
  case Opcode::VLoad:
    return executeVLoad(unit, inst);
  case Opcode::VStore:
    return executeVStore(unit, inst);
  default:
    return executeVector(unit, inst);
  }
}

bool Engine::executeLoop(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  if (loopCount(u, inst) == 0) {
    u.pc = u.loopMatch[u.pc] + 1;
    return true;
  }
  u.loops.push_back(LoopFrame{u.pc, 0});
  ++u.pc;
  return true;
}

bool Engine::executeEnd(unsigned unit) {
  Unit &u = units[unit];
  LoopFrame &f = u.loops.back();
  if (++f.iteration < loopCount(u, u.program->body[f.start])) {
    u.pc = f.start + 1;
  } else {
    u.loops.pop_back();
    ++u.pc;
  }
  return true;
}

bool Engine::executeWait(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
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
}

bool Engine::executeSignal(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
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

bool Engine::payIssueCost(unsigned unit) {
  Unit &u = units[unit];
  Cycles issue = model.node(u.instance.node).issueCost;
  if (u.issuePaid || !options.timing || issue.count() == 0)
    return true;
  // The engine sets up one descriptor at a time, while the previous one's
  // data moves: a transfer starts no earlier than one issue cost after the
  // previous one started. Large transfers hide the set-up; a stream of
  // small ones runs at one per issue cost.
  Cycles ready = u.lastIssue + issue;
  if (now >= ready)
    return true;
  // Busy with the set-up, then the same instruction again (counted once).
  u.issuePaid = true;
  --u.stats.instructions;
  busy(unit, ready);
  resumeAt(unit, ready);
  return false;
}
