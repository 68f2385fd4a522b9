//===- Predict.cpp - a schedule's cycles from the schedule IR -------------===//
//
// Strategy. Groups run one after the other, so a kernel's cycles are the
// sum of its groups'. A group is a pipeline that runs `steps` times per
// instance (tiles per instance x loop trips x rounds of grid tiles), and
// a pipeline's time is its steady state plus its fill and drain:
//
//   steady = max(memory, compute, round trips / depth, the DMA engine)
//   fill   = in + out latency + min(memory, compute) / steps
//
// `memory` and `compute` are the slowest memory-side and compute-side
// resources of the group's own roofline (Workload.h), the compute unit's
// with the `send` the lowering issues per result vector, which the
// roofline (the body's ops) does not count: in the steady state
// data movement and compute overlap, and the smaller is paid once more
// for the first or last step. A slot is refilled only after its data came
// in, was drained and its results left: its round trip is both routes'
// latencies, its own copies' link time and its compute, and `depth` slots
// are in flight per round trip. The DMA engine runs its copies one after
// another, each at least its set-up (the issue cost) long; loads and
// stores cross their own links, but where global memory's port cannot
// feed both directions at once (spyre's DDR at its mixed read/write rate)
// they take turns, so the engine's time is their sum. With depth 1
// nothing overlaps: each instance's own link time + compute + (steps - 1)
// x (in + out latency), at least the shared memory's and the engine's.
// A group of phases computes more than its roofline charges (each body op
// once per element): its compute is priced as the lowering issues it, per
// row from the schedule's phase split (Schedule/PhaseValues.h): every
// phase's per-vector ops (all of them again where `phase_values =
// recompute`, only those no earlier phase computed where `registers`),
// the folds, the per-row ops on one element and their broadcasts, and a
// send per result vector.
// Contractions follow the groups, priced phase by phase from their own
// decisions (PredictContraction.cpp).
// The model reads the recorded decisions (tile counts, split, depth,
// routes), never the lowering or the simulator. docs/cost.md gives its
// measured error (`ktflow cost eval`).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Cost/Predict.h"
#include "PredictContraction.h"

#include "ktflow/Cost/Workload.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/PhaseValues.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "llvm/ADT/StringExtras.h"

#include <limits>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::cost;
namespace ks = ktflow::ktsched;

namespace {

/// The links along a route attribute "@a -> @b -> @c", in order.
SmallVector<const arch::Link *> linksOf(const arch::ArchModel &model, StringRef route) {
  SmallVector<StringRef> names;
  route.split(names, "->", -1, false);
  SmallVector<std::optional<arch::NodeId>> nodes;
  for (StringRef n : names)
    nodes.push_back(model.lookupNode(n.trim().ltrim('@')));
  SmallVector<const arch::Link *> links;
  for (size_t i = 0; i + 1 < nodes.size(); ++i) {
    if (!nodes[i] || !nodes[i + 1])
      continue;
    for (const arch::Link &link : model.links())
      if (link.from == *nodes[i] && link.to == *nodes[i + 1]) {
        links.push_back(&link);
        break;
      }
  }
  return links;
}

/// The latency of a route's links, in cycles.
double routeLatency(ArrayRef<const arch::Link *> links) {
  double latency = 0;
  for (const arch::Link *link : links)
    latency += link->latency.count();
  return latency;
}

/// The part of a route from its first node to the first memory after it
/// (global memory to the outer scratchpad, or back).
SmallVector<const arch::Link *> outerHops(const arch::ArchModel &model,
                                          ArrayRef<const arch::Link *> links, bool fromStart) {
  SmallVector<const arch::Link *> hops;
  if (fromStart) {
    for (const arch::Link *link : links) {
      hops.push_back(link);
      if (model.node(link->to).isMemory())
        break;
    }
  } else {
    for (const arch::Link *link : llvm::reverse(links)) {
      hops.insert(hops.begin(), link);
      if (model.node(link->from).isMemory())
        break;
    }
  }
  return hops;
}

int64_t gridTilesOf(ks::KernelOp kernel) {
  int64_t n = 1;
  for (int64_t g : kernel.getGrid())
    n *= g;
  return n;
}

/// Loop trips of the group's busiest grid tile (1 without a loop).
int64_t maxTrips(ks::KernelOp kernel, ks::GroupOp group) {
  std::optional<SmallVector<int64_t>> trips = loopTripsPerGridTile(kernel, group);
  if (!trips || trips->empty())
    return 1;
  return std::max<int64_t>(1, *llvm::max_element(*trips));
}

/// The issue cycles the lowering spends on a group of phases, over all its
/// rows (std::nullopt for any other group, or one it cannot price).
std::optional<double> phaseIssueCycles(ks::KernelOp kernel, ks::GroupOp group,
                                       const arch::ArchModel &model) {
  if (!group->hasAttr("phases"))
    return std::nullopt;
  ks::StageOp compute = ks::computeStage(group);
  std::optional<arch::NodeId> unit = ks::boundComputeUnit(group, model);
  std::optional<int64_t> lanes = compute ? ks::decisionInt(compute, "vector") : std::nullopt;
  if (!compute || !unit || !lanes)
    return std::nullopt;
  // The scratchpad form carries only the values allocation chose.
  llvm::DenseSet<Value> scratchValues =
      ks::phaseScratchValues(group, compute->getRegion(0).front());
  FailureOr<ks::PhaseSplit> split =
      ks::splitPhases(compute, ks::uniformComputeArguments(compute), /*diagnose=*/false,
                      scratchValues.empty() ? nullptr : &scratchValues);
  SmallVector<int64_t> tile = ks::groupTile(group);
  int64_t step = ks::vectorStep(group, *lanes);
  if (failed(split) || tile.empty() || step < 1)
    return std::nullopt;
  const arch::ComputeInfo &info = model.node(*unit).compute;
  auto cost = [&](StringRef opClass) -> double {
    std::optional<Cycles> c = info.issueCost(opClass);
    return c ? double(c->count()) : 0.0;
  };
  auto issues = [&](Type type, int64_t count) -> double {
    std::optional<int64_t> l = info.lanesFor(type);
    return l && *l > 0 ? double((count + *l - 1) / *l) : double(count);
  };
  // One instruction over `count` elements: the issues of its widest type.
  auto opCycles = [&](Operation *op, int64_t count) -> double {
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (!vop)
      return 0;
    StringRef kind = vop.getKind();
    if (kind == "copy" && op->getNumOperands() == 1)
      return 0; // forwarded, no instruction
    double n = 0;
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      n = std::max(n, issues(t, count));
    return cost(kind == "const" ? "copy" : kind) * n;
  };
  bool carried = false, throughScratchpad = false;
  if (auto v = llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(group, ks::kPhaseValues))) {
    carried = v.getValue() != ks::kPhaseValuesRecomputed;
    throughScratchpad = v.getValue() == ks::kPhaseValuesInScratchpad;
  }
  int64_t rowLength = tile.back();
  int64_t vectors = (rowLength + step - 1) / step;
  bool partial = rowLength % step != 0;
  Block &body = compute->getRegion(0).front();
  double perRow = 0;
  for (const ks::PhaseSplit::Phase &phase : split->phases) {
    const DenseSet<Operation *> &ops = carried ? phase.residentOps : phase.vectorOps;
    for (Operation &op : body)
      if (ops.contains(&op))
        perRow += vectors * opCycles(&op, step);
    for (Operation *r : phase.reductions) {
      Type type = r->getResult(0).getType();
      auto combiner = r->getAttrOfType<StringAttr>("combiner");
      double combine = cost(combiner ? combiner.getValue() : "add") * issues(type, step);
      perRow += (vectors - 1) * combine + cost("reduce") * issues(type, step);
      if (partial) // the padding lanes replaced by the identity
        perRow += 2 * cost("copy") * issues(type, step);
    }
    for (Operation &op : body)
      if (phase.rowOps.contains(&op))
        perRow += opCycles(&op, 1);
  }
  for (Value v : split->broadcastRowValues)
    perRow += cost("copy") * issues(v.getType(), step);
  // A send per result vector, at the link from the compute unit to a
  // store unit.
  int64_t bandwidth = 0;
  for (const arch::Link &link : model.links())
    if (link.from == *unit && model.node(link.to).kind == arch::NodeKind::StoreUnit && !bandwidth)
      bandwidth = link.bandwidth.bytesPerCycle;
  // The scratchpad form's transfers of the carried values: the same
  // pricing as the decision (the body ops are counted above).
  if (throughScratchpad) {
    int64_t narrowest = std::numeric_limits<int64_t>::max();
    for (Operation &op : body)
      for (Type t : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
        narrowest = std::min(narrowest, ks::elementSize(t).bytes.count());
    for (BlockArgument arg : body.getArguments())
      narrowest = std::min(narrowest, ks::elementSize(arg.getType()).bytes.count());
    double withTransfers = ks::phaseVectorCycles(*split, body, info, ks::kPhaseValuesInScratchpad,
                                                 step, vectors, step * narrowest, bandwidth);
    double without = ks::phaseVectorCycles(*split, body, info, ks::kPhaseValuesInRegisters, step,
                                           vectors, step * narrowest, bandwidth);
    perRow += withTransfers - without;
  }
  if (auto yield = llvm::dyn_cast<ks::YieldOp>(body.getTerminator()))
    for (Value v : yield.getValues()) {
      Bytes bytes = toBytes(Elements(step), ks::elementSize(v.getType()));
      perRow += vectors * (bandwidth > 0 ? double((bytes.count() + bandwidth - 1) / bandwidth)
                                         : 1.0);
    }
  int64_t rows = 1;
  ArrayRef<int64_t> space = group.getSpace();
  for (int64_t d : space.drop_back())
    rows *= d;
  return perRow * rows * gridTilesOf(kernel) * maxTrips(kernel, group);
}

/// The issue cycles the compute unit spends sending a group's results to
/// the store unit, over all its instances: the lowering sends each result
/// vector (a vector step of the stored type, a partial one for a
/// reduction's results) with a `send` of its own, one issue per beat of
/// the unit's outgoing link, which the roofline's compute (the body's ops)
/// does not count. std::nullopt where it cannot tell.
std::optional<double> sendIssueCycles(ks::GroupOp group, const arch::ArchModel &model,
                                      const arch::RooflineBound &bound) {
  ks::StageOp compute = ks::computeStage(group);
  std::optional<arch::NodeId> unit = ks::boundComputeUnit(group, model);
  std::optional<int64_t> lanes = compute ? ks::decisionInt(compute, "vector") : std::nullopt;
  if (!compute || !unit || !lanes)
    return std::nullopt;
  int64_t step = ks::vectorStep(group, *lanes);
  auto yield = llvm::dyn_cast<ks::YieldOp>(compute->getRegion(0).front().getTerminator());
  if (step < 1 || !yield || yield.getValues().empty())
    return std::nullopt;
  // The narrowest stored type: the most vectors for the link's bytes.
  int64_t elementBytes = std::numeric_limits<int64_t>::max();
  for (Value v : yield.getValues())
    elementBytes = std::min(elementBytes, ks::elementSize(v.getType()).bytes.count());
  double vectorBytes = double(step * elementBytes);
  double sends = 0;
  for (const arch::Link &link : model.links()) {
    if (link.from != *unit || model.node(link.to).kind != arch::NodeKind::StoreUnit ||
        link.bandwidth.bytesPerCycle <= 0)
      continue;
    unsigned id = unsigned(&link - model.links().data());
    for (const arch::ResourceLoad &load : bound.loads)
      if (load.resource.kind == arch::Resource::Kind::Link && load.resource.id == id)
        sends += std::ceil(load.work / vectorBytes) *
                 std::ceil(vectorBytes / double(link.bandwidth.bytesPerCycle));
  }
  return sends;
}

FailureOr<GroupPrediction> predictGroup(ks::KernelOp kernel, ks::GroupOp group,
                                        const arch::ArchModel &model) {
  GroupPrediction p;
  p.group = group.getSymName().str();
  FailureOr<arch::Workload> workload = computeGroupWorkload(kernel, group, model);
  if (failed(workload))
    return failure();
  llvm::Expected<arch::RooflineBound> bound = model.roofline(*workload);
  if (!bound)
    return group.emitError("no roofline bound: ") << llvm::toString(bound.takeError());
  p.bound = bound->cycles;
  if (bound->limiting)
    p.limiting = model.resourceName(bound->loads[*bound->limiting].resource);

  ks::PipelineOp outer = ks::outerPipeline(group);
  if (!outer)
    return group.emitError("group holds no pipeline");
  int64_t tiles = 1;
  if (auto counts = outer->getAttrOfType<DenseI64ArrayAttr>("tile_counts"))
    for (int64_t c : counts.asArrayRef())
      tiles *= std::max<int64_t>(1, c);
  // Grid tiles beyond the cores run in rounds.
  int64_t cores = 1;
  ks::StageOp dmaLoad, dmaStore;
  for (ks::StageOp stage : outer.getBody().getOps<ks::StageOp>()) {
    if (stage.getRole() == "dma_load")
      dmaLoad = stage;
    else if (stage.getRole() == "dma_store")
      dmaStore = stage;
  }
  if (ks::StageOp dma = dmaLoad ? dmaLoad : dmaStore)
    if (auto unit = llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(dma, "unit")))
      if (std::optional<arch::NodeId> node = model.lookupNode(unit.getValue()))
        cores = std::max<int64_t>(1, model.nodeInstanceCount(*node));
  int64_t gridTiles = gridTilesOf(kernel);
  int64_t rounds = (gridTiles + cores - 1) / cores;
  p.steps = std::max<int64_t>(1, tiles * maxTrips(kernel, group) * rounds);

  // The DMA's time per step: each outer buffer's slot crosses its route
  // once, latency included, one transfer after the other.
  auto loadRoute = group->getAttrOfType<StringAttr>("load_route");
  auto storeRoute = group->getAttrOfType<StringAttr>("store_route");
  SmallVector<const arch::Link *> loadLinks, storeLinks;
  if (loadRoute)
    loadLinks = outerHops(model, linksOf(model, loadRoute.getValue()), /*fromStart=*/true);
  if (storeRoute)
    storeLinks = outerHops(model, linksOf(model, storeRoute.getValue()), /*fromStart=*/false);
  // The slowest buffer decides how many steps are in flight.
  int64_t depth = 0;
  for (ks::BufferOp buffer : ks::groupBuffers(group)) {
    auto level = buffer->getAttrOfType<IntegerAttr>("level");
    if (level && level.getInt() != 0)
      continue;
    if (auto d = llvm::dyn_cast_or_null<IntegerAttr>(ks::decisionValue(buffer, "depth")))
      depth = depth ? std::min<int64_t>(depth, d.getInt()) : d.getInt();
  }
  depth = std::max<int64_t>(1, depth);
  // Memory traffic and compute overlap in the steady state; the smaller of
  // the two is paid once more for the first (or last) step.
  double memory = 0, compute = 0;
  for (const arch::ResourceLoad &load : bound->loads)
    (load.resource.kind == arch::Resource::Kind::Compute ? compute : memory) =
        std::max(load.resource.kind == arch::Resource::Kind::Compute ? compute : memory,
                 load.cycles);
  // A group of phases issues what its lowering issues (its sends
  // included); any other group its body's ops and a send per result vector.
  if (std::optional<double> issued = phaseIssueCycles(kernel, group, model)) {
    for (const arch::ResourceLoad &load : bound->loads)
      if (load.resource.kind == arch::Resource::Kind::Compute && load.throughput > 0 &&
          load.cycles == compute)
        compute = std::max(compute, *issued / load.throughput);
  } else if (std::optional<double> sends = sendIssueCycles(group, model, *bound)) {
    std::optional<arch::NodeId> unit = ks::boundComputeUnit(group, model);
    for (const arch::ResourceLoad &load : bound->loads)
      if (load.resource.kind == arch::Resource::Kind::Compute && load.throughput > 0 &&
          unit && load.resource.id == unsigned(*unit))
        compute = std::max(compute, (load.work + *sends) / load.throughput);
  }
  double inLatency = routeLatency(loadLinks);
  double outLatency = routeLatency(storeLinks);
  // A slot is refilled only after its step's data came in, was drained and
  // its results went out: with `depth` slots, `depth` steps are in flight
  // per round trip of the routes' latencies.
  // The DMA engine's occupancy. It sets up one descriptor per issue cost
  // (the next starts no earlier than that after the previous one), so its
  // copies take at least the issue cost each; their bytes cross the
  // narrowest link of the engine's own route, loads and stores each on
  // their own. Where global memory's port pays a mixed rate for reads and
  // writes together (spyre's DDR: 70 B/cycle balanced against 100 one
  // way), interleaving a step's loads with its stores costs the port more
  // than it saves on the links: the simulator's port, serving chunks first
  // come first served, runs them one after the other, so the engine's
  // copies add up, each the longer of its set-up and its link time.
  // Elsewhere loads and stores overlap and only the set-up adds up. One
  // copy per outer buffer and step (a hoisted load once), for every
  // instance of the split the engine serves.
  double dmaBusy = 0, dmaIn = 0, dmaOut = 0;
  int64_t splitInstances = 1;
  if (ks::StageOp dma = dmaLoad ? dmaLoad : dmaStore)
    if (auto unit = llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(dma, "unit")))
      if (std::optional<arch::NodeId> node = model.lookupNode(unit.getValue())) {
        int64_t instances = 1;
        if (auto split = llvm::dyn_cast_or_null<DictionaryAttr>(ks::decisionValue(outer, "split")))
          if (auto n = split.getAs<IntegerAttr>("instances"))
            instances = std::max<int64_t>(1, n.getInt());
        double issue = double(model.node(*node).issueCost.count());
        splitInstances = instances;
        int64_t loadRate = 0, storeRate = 0;
        for (auto [links, rate] : {std::pair(&loadLinks, &loadRate), std::pair(&storeLinks, &storeRate)})
          for (const arch::Link *link : *links)
            if (link->scope != arch::kDeviceGroup && link->bandwidth.bytesPerCycle > 0)
              *rate = *rate ? std::min(*rate, link->bandwidth.bytesPerCycle)
                            : link->bandwidth.bytesPerCycle;
        // Global memory's port, at the start of the load route (or the end
        // of the store route): can it feed the engine's links in both
        // directions at once (at its mixed rate for reads and writes
        // together)?
        bool serialised = false;
        const arch::Link *outerLink =
            !loadLinks.empty() ? loadLinks.front() : (!storeLinks.empty() ? storeLinks.back() : nullptr);
        if (outerLink && loadRate > 0 && storeRate > 0) {
          const arch::Node &global =
              model.node(!loadLinks.empty() ? outerLink->from : outerLink->to);
          if (global.isMemory() && global.memory.bandwidth)
            serialised = global.memory.portCycles(Bytes(loadRate), Bytes(storeRate)) > 1.0;
        }
        // Each direction's link time per engine: the slowest of the
        // engine's own links on the route, from the group's roofline (valid
        // bytes only, per instance).
        auto linkCycles = [&](ArrayRef<const arch::Link *> links) {
          double cycles = 0;
          for (const arch::Link *link : links) {
            if (link->scope == arch::kDeviceGroup)
              continue;
            unsigned id = unsigned(link - model.links().data());
            for (const arch::ResourceLoad &load : bound->loads)
              if (load.resource.kind == arch::Resource::Kind::Link && load.resource.id == id)
                cycles = std::max(cycles, load.cycles);
          }
          return cycles;
        };
        double in = dmaIn = linkCycles(loadLinks), out = dmaOut = linkCycles(storeLinks);
        // Copies: one per outer buffer and step (a hoisted load once), for
        // every instance of the split the engine serves.
        double loads = 0, stores = 0;
        for (ks::BufferOp buffer : ks::groupBuffers(group)) {
          auto level = buffer->getAttrOfType<IntegerAttr>("level");
          if (level && level.getInt() != 0)
            continue;
          bool loaded = dmaLoad && buffer->getOperand(0).getDefiningOp() == dmaLoad.getOperation();
          auto hoist = llvm::dyn_cast_or_null<BoolAttr>(ks::decisionValue(buffer, "hoist"));
          double copies = instances * (hoist && hoist.getValue() ? 1 : p.steps);
          (loaded ? loads : stores) += copies;
        }
        double setUpIn = loads * issue, setUpOut = stores * issue;
        // Set-up and link time overlap, but not perfectly where they are
        // close: both then run at their limit and neither absorbs the
        // other's stalls (the simulator's 4 KiB copies on spyre, 64 cycles
        // of each, take 82). A smooth maximum, (a^4 + b^4)^(1/4): within
        // 1.5% of the larger where the other is under half of it, 2^(1/4)
        // of either where they are equal.
        auto overlap = [](double a, double b) {
          return std::sqrt(std::sqrt(a * a * a * a + b * b * b * b));
        };
        dmaBusy = serialised ? overlap(setUpIn, in) + overlap(setUpOut, out)
                            : std::max({setUpIn + setUpOut, in, out});
      }
  // One slot per buffer: a step's load, compute and store cannot overlap,
  // and every step pays the routes' latencies.
  if (depth == 1) {
    // Each instance waits on its own transfers (its links, the slowest
    // per-instance share of the traffic); a shared port still caps them all.
    double own = 0;
    for (const arch::ResourceLoad &load : bound->loads)
      if (load.resource.kind == arch::Resource::Kind::Link)
        own = std::max(own, load.cycles);
    p.steady = std::max({memory, own + compute + (inLatency + outLatency) * (p.steps - 1)});
    if (dmaBusy + compute > p.steady) {
      p.steady = dmaBusy + compute;
    }
    p.fill = inLatency + outLatency;
    p.limiting = "one slot per buffer";
    p.cycles = p.steady + p.fill;
    return p;
  }
  p.steady = std::max(memory, compute);
  // A slot's round trip: its load's latency and its own copy's link time,
  // the compute, its store's link time and latency; `depth` slots are in
  // flight.
  double roundTrips =
      ((inLatency + outLatency) * p.steps + (dmaIn + dmaOut) / splitInstances + compute) / depth;
  if (roundTrips > p.steady) {
    p.steady = roundTrips;
    p.limiting = "dma latency";
  }
  if (dmaBusy > p.steady) {
    p.steady = dmaBusy;
    p.limiting = "dma engine";
  }
  p.fill = inLatency + outLatency + std::min(memory, compute) / p.steps;
  p.cycles = p.steady + p.fill;
  return p;
}

} // namespace

FailureOr<Prediction> ktflow::cost::predictCycles(ModuleOp scheduledModule,
                                                  const arch::ArchModel &model) {
  FailureOr<ks::KernelOp> sole = cost::scheduledKernel(scheduledModule);
  if (failed(sole))
    return failure();
  ks::KernelOp kernel = *sole;
  Prediction prediction;
  for (ks::GroupOp group : kernel.getBody().getOps<ks::GroupOp>()) {
    FailureOr<GroupPrediction> g = predictGroup(kernel, group, model);
    if (failed(g))
      return failure();
    prediction.cycles += g->cycles;
    prediction.groups.push_back(std::move(*g));
  }
  // Contractions run after the groups, one after the other.
  for (ks::ContractionOp op : kernel.getBody().getOps<ks::ContractionOp>()) {
    FailureOr<GroupPrediction> g = detail::predictContraction(kernel, op, model);
    if (failed(g))
      return failure();
    prediction.cycles += g->cycles;
    prediction.groups.push_back(std::move(*g));
  }
  return prediction;
}
