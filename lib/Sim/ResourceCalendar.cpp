//===- ResourceCalendar.cpp - link and memory-port bandwidth sharing ===//
//
// Each link instance and each memory port with a bandwidth is a
// Reservable with a calendar of reserved intervals, in ticks (a fraction
// of a cycle such that a byte takes whole ticks on every resource). A
// transfer moves in chunks of the largest granule on its path; each chunk
// walks the resources in route order, cut-through: it takes the first
// bytes / bandwidth of free time on a resource (gaps shorter than that
// included) once its head has arrived, the previous chunk has left and
// the next resource has taken the previous chunk (back-pressure), and
// cannot finish there before its tail arrived. So one transfer alone
// costs sum(latency) + bytes / min(bandwidth), users of a shared resource
// are served first come, first served chunk by chunk, and a wide resource
// fed by a slow stream is free between the stream's chunks.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"

#include "llvm/Support/FormatVariadic.h"

#include <limits>
#include <numeric>

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

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
  r.mixedBandwidth = node.memory.mixedBandwidth;
  return &ports.emplace(flat(memory), std::move(r)).first->second;
}

void Engine::appendRoute(std::vector<PathStep> &path, const Route &route) {
  for (const Hop &hop : route.hops) {
    // An intermediate memory is written and read again: its port twice.
    if (hop.from != route.source && model.node(hop.from.node).isMemory())
      if (Reservable *port = portResource(hop.from)) {
        path.push_back({port, /*write=*/true});
        path.push_back({port, /*write=*/false});
      }
    path.push_back(&linkResource(hop.link));
  }
}

Ticks Engine::occupancyTicks(const Reservable &r, Bytes bytes) const {
  __int128 scaled = __int128(bytes.alignTo(r.granule).count()) * ticksPerCycle;
  int64_t rate = r.bandwidth.bytesPerCycle;
  return Ticks((scaled + rate - 1) / rate);
}

Ticks Engine::stepTicks(const PathStep &step, Bytes bytes) {
  Reservable &r = *step.resource;
  if (!r.mixedBandwidth)
    return occupancyTicks(r, bytes);
  // Over a whole run the port is busy |R - W| / B + 2 min(R, W) / B_mix
  // (MemoryInfo::portCycles, what the roofline charges): each transfer
  // pays b / B plus, for the bytes by which it raises min(R, W), the extra
  // 2 (1 / B_mix - 1 / B), so the sum of the increments is exactly the
  // whole run's cost.
  int64_t pairedBefore = std::min(r.readSoFar, r.writtenSoFar).count();
  (step.write ? r.writtenSoFar : r.readSoFar) += bytes;
  int64_t paired = std::min(r.readSoFar, r.writtenSoFar).count() - pairedBefore;
  int64_t rate = r.bandwidth.bytesPerCycle, mixed = r.mixedBandwidth->bytesPerCycle;
  __int128 numerator =
      (__int128(bytes.count()) * mixed + __int128(2) * paired * (rate - mixed)) * ticksPerCycle;
  __int128 denominator = __int128(rate) * mixed;
  return Ticks((numerator + denominator - 1) / denominator);
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

std::pair<Cycles, Cycles> Engine::reserve(llvm::ArrayRef<PathStep> path, Bytes bytes) {
  for (const PathStep &step : path)
    step.resource->bytes += bytes;
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
  for (const PathStep &step : path)
    chunk = std::max(chunk, step.resource->granule);
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
      Reservable *r = path[i].resource;
      Ticks occupancy = stepTicks(path[i], size);
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
  Ticks issued = firstStart + occupancyTicks(*path.front().resource, bytes);
  auto toCycles = [&](Ticks t) { return Cycles((t + ticksPerCycle - 1) / ticksPerCycle); };
  return {toCycles(issued), toCycles(tail)};
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
    if (model.node(m).memory.bandwidth) {
      include(model.node(m).memory.bandwidth->bytesPerCycle);
      if (model.node(m).memory.mixedBandwidth)
        include(model.node(m).memory.mixedBandwidth->bytesPerCycle);
    }
  ticksPerCycle = ticks;
}
