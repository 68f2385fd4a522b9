//===- PredictContraction.cpp - a contraction's cycles from its decisions ===//
//
// Strategy. A contraction on a matrix unit runs, per grid tile on its core,
// the phases its lowering issues (docs/run.md, "Matrix units"), and the
// phases of one K step hand over through a single scratchpad slot, so they
// follow each other; within a phase the units stream through FIFOs and the
// slowest sets the pace. With the blocks in two slots (`block_buffers`)
// a step's relayout but a panel's first runs inside the previous step's
// products, a unit per group of accumulator blocks, the group taking the
// slowest of the load unit, the matrix unit and the vector unit's cut of
// its own unit (A's or B's, after the unit's rows came in); where the
// panels lie in one row or column, a panel's first step is relaid
// in the previous panel's last.
// Per K step of each M x N panel of the `step` decision:
//
//  * the relayout: the load unit streams the step's A and B rows to the
//    vector unit, which cuts each bm x bk (bk x bn) block out of its rows
//    (a slice per row, a concat per row after the first) and sends it to
//    the store unit: the slowest of the three, the vector unit waiting for
//    the rows of each unit that do not fit the FIFO from the load unit;
//  * the products: per group of `reuse` accumulator blocks along N, their
//    starts (init or carried value) and per K block one A block and the
//    group's B blocks pushed by the load unit, one mma per B block on the
//    matrix unit, the blocks sent on: the slower of the load unit and the
//    matrix unit, plus the group's round trip where a unit waits on
//    another (the vector unit's inits or carries, the results back to it:
//    the links' latencies and the vector unit's own work per block; the
//    starts from the load unit that do not fit the FIFO to the matrix
//    unit), since the next group starts only after;
//  * the epilogue, at a panel's last step: per block its cast (or the
//    epilogue body's ops), and per stored access the join of its rows from
//    the blocks (a slice per block, a concat per block after the first, a
//    send per row), on the vector unit; interleaved with the products
//    where the accumulator goes there over a FIFO, after them through
//    scratchpad otherwise.
//
// The DMA moves a step's rows (one copy per operand, at least the issue
// cost, at the narrowest of its links, the device's links and global
// memory's port shared by the round's cores) ahead of the compute where the
// rows have two or more slots (`buffers`), but its program stores a
// panel's results before it fills the next panel's first step (unless the
// panels lie in one row or column and hand over ahead) and the next
// round's, so each of those waits for the store and its rows; with one
// slot the next step's rows come in once the relayout has cut this step's,
// during the products. The stores of the panels' results overlap the next
// panel but the last. Grid tiles beyond the cores run in
// rounds; the shared memory's roofline bound is a floor. The vector unit's
// contraction (`compute = vector`) is priced at its roofline.
//
//===----------------------------------------------------------------------===//
#include "PredictContraction.h"

#include "ktflow/Cost/Workload.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "llvm/Support/Error.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::cost;
namespace ks = ktflow::ktsched;

namespace {

std::optional<arch::NodeId> nodeOf(ks::ContractionOp op, const arch::ArchModel &model,
                                   StringRef attr) {
  Attribute value = op->getAttr(attr);
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
    value = decision.getValue();
  auto text = llvm::dyn_cast_or_null<StringAttr>(value);
  return text ? model.lookupNode(text.getValue()) : std::nullopt;
}

StringRef textOf(ks::ContractionOp op, StringRef attr) {
  Attribute value = op->getAttr(attr);
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
    value = decision.getValue();
  auto text = llvm::dyn_cast_or_null<StringAttr>(value);
  return text ? text.getValue() : StringRef();
}

SmallVector<int64_t> arrayOf(ks::ContractionOp op, StringRef attr) {
  Attribute value = op->getAttr(attr);
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
    value = decision.getValue();
  if (auto array = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(value))
    return SmallVector<int64_t>(array.asArrayRef());
  return {};
}

int64_t intOf(ks::ContractionOp op, StringRef attr, int64_t otherwise) {
  Attribute value = op->getAttr(attr);
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
    value = decision.getValue();
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(value))
    return i.getInt();
  return otherwise;
}

const arch::Link *linkBetween(const arch::ArchModel &model, arch::NodeId from, arch::NodeId to) {
  for (const arch::Link &link : model.links())
    if (link.from == from && link.to == to)
      return &link;
  return nullptr;
}

double ceilDiv(double a, double b) { return b > 0 ? std::ceil(a / b) : a; }

} // namespace

FailureOr<GroupPrediction> cost::detail::predictContraction(ks::KernelOp kernel,
                                                            ks::ContractionOp op,
                                                            const arch::ArchModel &model) {
  GroupPrediction p;
  p.group = op.getSymName().str();
  FailureOr<arch::Workload> workload = computeContractionWorkload(kernel, op, model);
  if (failed(workload))
    return failure();
  llvm::Expected<arch::RooflineBound> bound = model.roofline(*workload);
  if (!bound)
    return op.emitError("no roofline bound: ") << llvm::toString(bound.takeError());
  p.bound = bound->cycles;
  if (bound->limiting)
    p.limiting = model.resourceName(bound->loads[*bound->limiting].resource);

  std::optional<arch::NodeId> mxu = nodeOf(op, model, "matrix_unit"),
                              vec = nodeOf(op, model, "vector_unit"),
                              ld = nodeOf(op, model, "load_unit"),
                              st = nodeOf(op, model, "store_unit"),
                              spad = nodeOf(op, model, "memory");
  auto globals = model.memoriesBacking(arch::KtirSpace::Global);
  SmallVector<int64_t> block = arrayOf(op, "block"), step = arrayOf(op, "step");
  auto grid = op->getAttrOfType<DenseI64ArrayAttr>("grid");
  if (textOf(op, "compute") == "vector" || !mxu || !vec || !ld || !st || !spad ||
      block.size() != 3 || !grid || globals.empty()) {
    // Not modelled phase by phase: the roofline.
    p.steady = p.cycles = p.bound;
    return p;
  }
  auto shape = [](DictionaryAttr t) { return llvm::cast<DenseI64ArrayAttr>(t.get("shape")); };
  auto tensorOf = [&](DictionaryAttr t) {
    return llvm::cast<ks::TensorOp>(SymbolTable::lookupSymbolIn(
        kernel, llvm::cast<FlatSymbolRefAttr>(t.get("tensor")).getValue()));
  };
  Type inType = tensorOf(op.getA()).getElementType();
  Type outType = tensorOf(op.getC()).getElementType();
  Type accType = op.getAccumulatorType();
  double es = ks::elementSize(inType).bytes.count(), eo = ks::elementSize(outType).bytes.count(),
         ea = ks::elementSize(accType).bytes.count();
  int64_t m = shape(op.getA())[0], k = shape(op.getA())[1], n = shape(op.getB())[1];
  if (step.size() != 3)
    step = {m, n, k};
  int64_t tm = step[0], tn = step[1], tk = step[2];
  int64_t bm = block[0], bn = block[1], bk = block[2];
  if (tm < bm || tn < bn || tk < bk || bm < 1 || bn < 1 || bk < 1) {
    p.steady = p.cycles = p.bound;
    return p;
  }
  int64_t panels = (m / tm) * (n / tn), ksteps = k / tk;
  // The sub-core instances of `split` share each panel by block rows: each
  // relays its own rows of A and a share of B's blocks, multiplies and
  // stores its own rows, at the same time as the others.
  int64_t split = std::max<int64_t>(1, intOf(op, "split", 1));
  int64_t rowsPerInstance = std::max<int64_t>(bm, tm / split);
  const arch::ComputeInfo &vinfo = model.node(*vec).compute, &minfo = model.node(*mxu).compute;
  auto cost = [](const arch::ComputeInfo &info, StringRef opClass) {
    std::optional<Cycles> c = info.issueCost(opClass);
    return c ? double(c->count()) : 1.0;
  };
  auto issues = [](const arch::ComputeInfo &info, Type type, double count) {
    std::optional<int64_t> lanes = info.lanesFor(type);
    return lanes && *lanes > 0 ? ceilDiv(count, double(*lanes)) : count;
  };
  // A transfer's cycles over a link, its latency.
  auto over = [&](arch::NodeId from, arch::NodeId to, double bytes) {
    const arch::Link *link = linkBetween(model, from, to);
    return link ? ceilDiv(bytes, double(link->bandwidth.bytesPerCycle)) : 0.0;
  };
  auto latency = [&](arch::NodeId from, arch::NodeId to) {
    const arch::Link *link = linkBetween(model, from, to);
    return link ? double(link->latency.count()) : 0.0;
  };
  // One access of the load and store units (a stick).
  double msg = 0;
  if (const arch::AccessRule *rule = model.node(*ld).accessTo(*spad))
    msg = double(rule->maxSize.count());
  if (msg <= 0)
    msg = es * bm * bk;
  // The load unit pushes at the slower of its two links.
  auto push = [&](arch::NodeId to, double bytes) {
    return std::max(over(*spad, *ld, bytes), over(*ld, to, bytes));
  };
  double copy = cost(vinfo, "copy");
  double accBlock = ea * bm * bn;

  // The relayout of one step.
  // B's blocks are relayed once per core, a share of its K blocks by each
  // instance of the split, into the one copy all of them read.
  double bShare = double(split);
  double aBlocks = double(rowsPerInstance / bm) * double(tk / bk),
         bBlocks = double(tk / bk) * double(tn / bn) / bShare;
  double ldRelayout =
      ceilDiv((rowsPerInstance * tk + tk * tn / bShare) * es, msg) * push(*vec, msg);
  double cutA = aBlocks * ((bm * issues(vinfo, inType, bk) + (bm - 1) * issues(vinfo, inType, bm * bk)) * copy +
                           over(*vec, *st, es * bm * bk));
  double cutB = bBlocks * ((bk * issues(vinfo, inType, bn) + (bk - 1) * issues(vinfo, inType, bk * bn)) * copy +
                           over(*vec, *st, es * bk * bn));
  // The vector unit cuts a unit's blocks only once it holds all the
  // unit's rows (bm of A's, bk of B's: a slice of each per block), but the
  // FIFO from the load unit holds only its depth of them, so the load unit
  // is blocked until the vector unit takes those and pushes the rest while
  // the vector unit waits: the first after the route's latency, one stick
  // per push after it (spyre: 8 rows, a FIFO of 4, 7-8 cycles per unit of
  // 8 blocks cut in 128).
  double fifoSticks = 0;
  if (const arch::Link *toVec = linkBetween(model, *ld, *vec); toVec && toVec->fifoDepth)
    fifoSticks = double(*toVec->fifoDepth) * double(toVec->granule.count()) / msg;
  auto unitStall = [&](double rows) {
    if (fifoSticks <= 0 || rows <= fifoSticks)
      return 0.0;
    return latency(*spad, *ld) + latency(*ld, *vec) + (rows - fifoSticks) * push(*vec, msg);
  };
  // A relay unit is one access column of a block row: A's bm rows of it,
  // B's bk rows (a 1 / split share of B's units per instance).
  double aUnits = double(rowsPerInstance / bm) * ceilDiv(tk * es, msg),
         bUnits = double(tk / bk) * ceilDiv(tn * es, msg) / bShare;
  cutA += aUnits * unitStall(double(bm));
  cutB += bUnits * unitStall(double(bk));
  double cut = cutA + cutB;
  double stRelayout = aBlocks * over(*st, *spad, es * bm * bk) + bBlocks * over(*st, *spad, es * bk * bn);
  double relayout = std::max({ldRelayout, cut, stRelayout}) + latency(*spad, *ld) +
                    latency(*ld, *vec) + latency(*vec, *st) + latency(*st, *spad);

  // The epilogue's work per block on the vector unit: the cast, or the
  // epilogue body's ops.
  double perBlockEpilogue = 0;
  if (!op.getEpilogue().empty()) {
    for (Operation &body : op.getEpilogue().front())
      if (auto vop = llvm::dyn_cast<ks::VectorOp>(&body)) {
        StringRef kind = vop.getKind();
        perBlockEpilogue += cost(vinfo, kind == "const" ? "copy" : kind) *
                            issues(vinfo, accType, double(bm * bn));
      }
  }
  if (outType != accType)
    perBlockEpilogue += cost(vinfo, "cast") * issues(vinfo, accType, double(bm * bn));
  // Per stored access of the result rows: its blocks' rows joined.
  double perAccess = std::max(1.0, std::floor(msg / eo / bn));
  double accesses = double(rowsPerInstance / bm) * ceilDiv(tn * eo, msg);
  double join = bm * (((2 * perAccess - 1) * issues(vinfo, outType, bn * perAccess)) * copy +
                      over(*vec, *st, eo * bn * perAccess));

  // The products of one step, per accumulator block.
  StringRef path = textOf(op, "accumulator_path"), init = textOf(op, "accumulator_init"),
            carry = textOf(op, "carry");
  double mma = cost(minfo, "matmul");
  if (std::optional<int64_t> work = minfo.workPerIssue(inType); work && *work > 0)
    mma *= ceilDiv(double(bm * bn * bk), double(*work));
  double kb = double(tk / bk);
  double accSticks = std::max(1.0, ceilDiv(accBlock, msg));
  double blocks = double(rowsPerInstance / bm) * double(tn / bn);
  // Groups of `reuse` accumulator blocks along N share each A block: it
  // stays in the matrix unit while the group's B blocks stream through.
  double reuse = double(std::max<int64_t>(1, intOf(op, "reuse", 1)));
  // With `block_buffers = 2` each step but a panel's last relays the next
  // step inside its products: per block row, its relay units (A's accesses
  // of the step, a share of B's) one per group of accumulator blocks, the
  // vector unit cutting a unit's blocks while the matrix unit folds the
  // group's K blocks (the load unit pushes the unit's rows between).
  bool overlap = intOf(op, "block_buffers", 1) == 2;
  double rowsOfBlocks = double(rowsPerInstance / bm);
  double groupsPerRow = std::max(1.0, double(tn / bn) / reuse);
  double unitsPerRow = ceilDiv(tk * es, msg) + ceilDiv(double(tk / bk) / bShare * ceilDiv(tn * es, msg),
                                                       rowsOfBlocks);
  double relayGroups = rowsOfBlocks * std::min(groupsPerRow, unitsPerRow);
  double mxuFifoGranules = 0, mxuGranule = 0;
  if (const arch::Link *toMxu = linkBetween(model, *ld, *mxu); toMxu && toMxu->fifoDepth) {
    mxuFifoGranules = double(*toMxu->fifoDepth);
    mxuGranule = double(toMxu->granule.count());
  }
  auto productsOf = [&](bool first, bool last, bool relaying = false) {
    double ldGroup = kb * (push(*mxu, es * bm * bk) + reuse * push(*mxu, es * bk * bn));
    double mxuGroup = kb * reuse * mma;
    bool toVector = last ? path == "fifo" : carry == "vector";
    mxuGroup += reuse * (toVector ? over(*mxu, *vec, accBlock) : over(*mxu, *st, accBlock));
    // The group's round trip: where its blocks start and where they go.
    double trip = 0, ldBlocks = ldGroup;
    bool startsFromLoadUnit = false;
    if (first) {
      if (init == "vector")
        trip += reuse * over(*vec, *mxu, accBlock) + latency(*vec, *mxu);
      else if (init != "constant") {
        ldGroup += reuse * push(*mxu, accBlock);
        trip += latency(*spad, *ld) + latency(*ld, *mxu);
        startsFromLoadUnit = true;
      }
    } else if (carry == "vector") {
      ldGroup += reuse * accSticks * push(*vec, msg);
      trip += reuse * ((accSticks - 1) * copy + over(*vec, *mxu, accBlock)) + latency(*vec, *mxu);
    } else {
      // Carried through scratchpad: the matrix unit waits for it to come
      // back through the load unit.
      ldGroup += reuse * push(*mxu, accBlock);
      trip += latency(*spad, *ld) + latency(*ld, *mxu);
      startsFromLoadUnit = true;
    }
    // The load unit's pushes of the group's starts, ahead of its K blocks.
    double ldStarts = ldGroup - ldBlocks;
    // Where the starts come through the load unit, the matrix unit takes
    // all `reuse` of them, then the first A and B blocks, before its first
    // mma, but the FIFO holds only its depth of them while the matrix unit
    // still sends the previous group's results: the rest cross after the
    // matrix unit starts taking them.
    if (startsFromLoadUnit && mxuFifoGranules > 0) {
      auto granules = [&](double bytes) { return ceilDiv(bytes, mxuGranule); };
      double pending = reuse * granules(accBlock) + granules(es * bm * bk) +
                       granules(es * bk * bn) - mxuFifoGranules;
      if (pending > 0)
        trip += pending * push(*mxu, mxuGranule);
    }
    if (toVector) {
      trip += latency(*mxu, *vec);
      trip += reuse * (last ? perBlockEpilogue : accSticks * (copy + over(*vec, *st, msg)));
    } else if (last) {
      trip += latency(*mxu, *st) + latency(*st, *spad);
    }
    double phase = blocks / reuse * (std::max(ldGroup, mxuGroup) + trip);
    if (relaying) {
      // A group's relay unit is A's or B's, whose cuts differ (B's bk rows
      // give bk x bn blocks, A's bm rows bm x bk ones), so each kind of
      // group is paced by its own unit, not by the average. The vector
      // unit cuts only after the load unit pushed the group's starts and
      // the unit's rows (it pushes them in that order, before the group's
      // K blocks), and the group ends only after the cut: the store unit
      // writes the unit's blocks before the group's results.
      double units = std::max(1.0, aUnits + bUnits);
      double rows = ldRelayout / relayGroups;
      double relayPhase = 0;
      for (auto [share, cutOfKind] : {std::pair(aUnits / units, cutA), std::pair(bUnits / units, cutB)}) {
        double groups = relayGroups * share;
        if (groups <= 0)
          continue;
        relayPhase += groups * (std::max({ldGroup + rows, mxuGroup, ldStarts + rows + cutOfKind / groups}) +
                                trip);
      }
      phase = relayPhase + (blocks / reuse - relayGroups) * (std::max(ldGroup, mxuGroup) + trip);
    }
    // The fifo epilogue joins the rows of each stored access in between.
    if (last && path == "fifo")
      phase += accesses * join;
    return phase;
  };
  // Through scratchpad, the epilogue after the products.
  double epilogue = 0;
  if (path != "fifo")
    epilogue = std::max(blocks * push(*vec, accBlock),
                        blocks * perBlockEpilogue + accesses * join) +
               latency(*spad, *ld) + latency(*ld, *vec) + latency(*vec, *st);

  // The DMA: a step's rows, a panel's results.
  SmallVector<const arch::Link *> inLinks, outLinks;
  double issue = 0;
  arch::NodeId global = globals.front();
  auto routeOf = [&](arch::NodeId from, arch::NodeId to, SmallVector<const arch::Link *> &links) {
    std::optional<arch::Route> route = model.route({from, 0}, {to, 0});
    if (!route)
      return;
    for (const arch::Hop &hop : route->hops) {
      links.push_back(&model.link(hop.link.link));
      for (arch::NodeId end : {links.back()->from, links.back()->to})
        if (model.node(end).kind == arch::NodeKind::Dma)
          issue = std::max(issue, double(model.node(end).issueCost.count()));
    }
  };
  routeOf(global, *spad, inLinks);
  routeOf(*spad, global, outLinks);
  // Grid tiles run on the cores of the matrix unit's core group, in rounds;
  // the cores of a round share the device's links and global memory's port.
  int64_t tiles = grid[0] * grid[1] * grid[2];
  int64_t cores = 1;
  llvm::SmallVector<arch::GroupId, 4> chain = model.groupChain(model.node(*mxu).group);
  if (chain.size() > 1)
    cores = std::max<int64_t>(1, model.group(chain[1]).count);
  int64_t rounds = (tiles + cores - 1) / cores;
  double active = double(std::min(tiles, cores));
  const arch::Node &globalNode = model.node(global);
  // `cores` at once: the first step's rows, which every core of a round
  // fetches together; later steps drift apart and the roofline floors them.
  auto transfer = [&](ArrayRef<const arch::Link *> links, double bytes, double copies,
                      double cores) {
    double rate = globalNode.memory.bandwidth
                      ? double(globalNode.memory.bandwidth->bytesPerCycle) / cores
                      : 0.0;
    double lat = 0;
    for (const arch::Link *link : links) {
      lat += link->latency.count();
      double share = double(link->bandwidth.bytesPerCycle) /
                     (link->scope == arch::kDeviceGroup ? cores : 1.0);
      if (share > 0)
        rate = rate > 0 ? std::min(rate, share) : share;
    }
    return std::max(copies * issue, rate > 0 ? bytes / rate : 0.0) + lat;
  };
  // A step's A and B rows; the epilogue's row operands come with a panel's
  // first step only.
  double rows = 2 + double(op.getEpilogueOperands() ? op.getEpilogueOperands()->size() : 0);
  double first = transfer(inLinks, (tm * tk + tk * tn) * es, rows, active);
  double load = transfer(inLinks, (tm * tk + tk * tn) * es, 2, 1);
  double store = transfer(outLinks, tm * tn * eo, 1, active);
  int64_t buffers = intOf(op, "buffers", 1);

  // Where the panels lie in one row or one column, each but the last also
  // relays the next panel's first step in its last step, so the grid tile
  // pays one relayout alone.
  bool crossPanels = overlap && panels > 1 && (m / tm == 1 || n / tn == 1);
  auto panelOf = [&](bool relayNext) {
    double cycles = 0, previous = 0;
    for (int64_t s = 0; s < ksteps; ++s) {
      bool last = s + 1 == ksteps;
      double products = productsOf(s == 0, last, overlap && (!last || relayNext));
      double stepCycles = (overlap && (s > 0 || crossPanels) ? 0.0 : relayout) + products;
      // With one slot for the rows the DMA refills it once the relayout
      // has cut the rows into blocks, so a step's rows come in during the
      // previous step's products, which the next relayout (writing the
      // blocks' one slot) waits for anyway; a panel's first step waits for
      // the previous panel's store before its rows.
      if (buffers < 2)
        stepCycles += s == 0 ? first : (overlap ? load : std::max(0.0, load - previous));
      previous = products;
      cycles += stepCycles;
    }
    return cycles;
  };
  double perTile = crossPanels ? relayout + (panels - 1) * panelOf(true) + panelOf(false)
                               : panelOf(false) * panels;
  perTile += epilogue * panels;
  if (buffers < 2)
    perTile += (panels - 1) * store;
  else if (!crossPanels)
    // The DMA's program fills a panel's steps, then waits for the panel's
    // results and stores them (MatrixRound.cpp): only then does it fill
    // the next panel's first step, so the slots hide the later steps' rows
    // but not a panel's first, which waits for the store and its own load
    // after the previous panel's epilogue.
    perTile += (panels - 1) * (store + first);
  p.steps = rounds * panels * ksteps;
  p.fill = (buffers < 2 ? 0 : first) + store;
  double cycles = rounds * perTile;
  // The next round's grid tile follows in the same DMA program, after the
  // last panel's store: its first step waits for the store and its rows as
  // a panel's does, even where the panels of a tile hand over ahead.
  if (buffers >= 2)
    cycles += (rounds - 1) * (store + first);
  p.steady = std::max(cycles, p.bound);
  if (p.steady > p.bound)
    p.limiting = "contraction phases";
  p.cycles = p.steady + p.fill;
  return p;
}
