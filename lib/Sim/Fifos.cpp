//===- Fifos.cpp - FIFO channels and the instructions that use them ===//
//
// A FIFO is the logical channel of one producer/consumer pair over a FIFO
// link, found from the route between them (it must end in a FIFO link),
// with the link's depth in granules. Push (from memory) and Send (from a
// register) block while the message would not fit and otherwise reserve
// the path like any transfer; the message arrives when its tail does. Pop
// (to memory) and Recv (to a register) block until the oldest message has
// arrived, and free its granules, waking a blocked producer.
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

bool Engine::executeFifoPut(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  if (!payIssueCost(unit))
    return false;
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
  std::vector<PathStep> path;
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
  issued(u);
  ++u.pc;
  if (sendEnd == now)
    return true;
  resumeAt(unit, sendEnd);
  return false;
}

bool Engine::executeFifoGet(unsigned unit, const Instruction &inst) {
  Unit &u = units[unit];
  if (!payIssueCost(unit))
    return false;
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
    issued(u);
    ++u.pc;
    return true;
  }
  std::optional<Place> dstOr = resolve(u, inst.dst);
  if (!dstOr || !checkAccess(u, *dstOr, expected, {}, expected))
    return false;
  Place dst = *dstOr;
  std::vector<PathStep> path;
  if (!appendRouteBetween(u, path, u.instance, dst.memory))
    return false;
  if (Reservable *p = portResource(dst.memory))
    path.push_back({p, /*write=*/true});
  auto [sendEnd, tail] = reserve(path, expected);
  size_t w = newWrite(memoryKey(dst.memory));
  writes[w].runs.push_back({dst.address, expected});
  writes[w].data = std::move(m.data);
  if (!options.computeValues)
    writes[w].runs.clear();
  issued(u);
  return awaitWrite(unit, w, sendEnd, tail);
}
