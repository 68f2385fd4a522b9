//===- PhaseValues.cpp - what each phase of a group of phases computes ----===//
//
// Strategy. Levels first, in body order: a body argument is per vector
// unless it is a splat scalar; an op takes the highest level of its
// operands; a reduction's result is per row, and its phase is one more
// than the latest reduction its operand reads (the schedule's `phase`).
// A phase's per-vector ops are the backward slice of its roots (its
// reductions' operands; the yielded values for the final phase) through
// per-vector and uniform values, stopping at per-row values and
// arguments. The resident form stops also at a per-vector value an earlier
// phase already computed: that value is carried in a register per vector
// of the row from the phase that computed it to the last phase reading it,
// and the phase reads it instead of recomputing it (softmax's final phase
// divides the carried exp(x - max) instead of computing extf, sub and exp
// again; layernorm's reads x - mean).
//
// The register demand of the resident form is measured on the order the
// lowering emits one row in (phase by phase, vector by vector, the body's
// ops in body order, the folds, then the per-row ops): each value instance
// is live from its definition to its last use, the carried ones across
// phases; the peak of live instances, plus the registers that live for the
// whole program, is what the row needs at once. `phase_values = registers`
// is decided where some phase carries a value and that peak fits the
// compute unit's vector registers. Where it does not, the carried values
// can go through scratchpad instead (`phase_values = scratchpad`): the
// compute unit sends each carried vector to the store unit, which writes
// it to a slot of the row's carried values, and the load unit pushes it
// back in the phase that reads it. That form needs a load unit (one
// scratchpad level), one slot per row (every phase carrying a value out
// before every phase reading one back) and is taken only where its
// transfers (a slice and a send per piece out, a concat back in) cost the
// compute unit fewer issue cycles than the ops it saves, priced with the
// description's op costs (softmax saves cast, sub and exp; layernorm's
// x - mean is cheaper to recompute). Elsewhere (and in a streamed group,
// whose row is never whole at once) each phase recomputes. A plan's
// `phase_values` is kept as replayed.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/PhaseValues.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {
/// Emits an error when diagnosing, else stays silent; either way fails.
struct Reporter {
  bool diagnose;
  template <typename T> LogicalResult operator()(Operation *op, const T &message) {
    if (diagnose)
      op->emitError(message);
    return failure();
  }
};
} // namespace

FailureOr<PhaseSplit> ktsched::splitPhases(Operation *computeStage, ArrayRef<bool> uniformArgs,
                                           bool diagnose, const DenseSet<Value> *carryOnly) {
  Reporter report{diagnose};
  PhaseSplit split;
  Block &body = computeStage->getRegion(0).front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return report(computeStage, "compute body does not end in a yield");
  auto perVector = [&](BlockArgument arg) {
    return arg.getArgNumber() >= uniformArgs.size() || !uniformArgs[arg.getArgNumber()];
  };
  llvm::DenseMap<Value, PhaseLevel> &level = split.level;
  llvm::DenseMap<Value, int64_t> latest; // latest reduction phase a value reads
  for (BlockArgument arg : body.getArguments())
    level[arg] = perVector(arg) ? PhaseLevel::Vector : PhaseLevel::Uniform;
  SmallVector<PhaseSplit::Phase, 3> &phases = split.phases;
  for (Operation &op : body.without_terminator()) {
    auto vop = dyn_cast<VectorOp>(op);
    if (!vop)
      return report(&op, "unexpected op in a compute body");
    PhaseLevel l = PhaseLevel::Uniform;
    int64_t reads = 0;
    for (Value operand : vop->getOperands()) {
      l = std::max(l, level.lookup(operand));
      reads = std::max(reads, latest.lookup(operand));
    }
    if (vop.getKind() == "reduce") {
      auto phase = vop->getAttrOfType<IntegerAttr>("phase");
      if (!phase || vop.getNumOperands() != 2)
        return report(vop, "reduction of a group of phases without a phase");
      if (level.lookup(vop.getOperand(0)) != PhaseLevel::Vector)
        return report(vop, "a reduction of a value that is the same for every vector of a "
                           "row is not lowered");
      int64_t p = phase.getInt();
      if (p < 1 || p <= reads) {
        if (diagnose)
          vop.emitError("reduction of phase ") << p << " reads a result of phase " << reads;
        return failure();
      }
      if ((int64_t)phases.size() < p)
        phases.resize(p);
      phases[p - 1].reductions.push_back(vop);
      l = PhaseLevel::Row;
      reads = p;
    }
    level[vop.getResult()] = l;
    latest[vop.getResult()] = reads;
  }
  for (auto [p, phase] : llvm::enumerate(phases))
    if (phase.reductions.empty()) {
      if (diagnose)
        computeStage->emitError("a group of phases without a reduction in phase ") << p + 1;
      return failure();
    }
  for (Value v : yield.getValues())
    if (level.lookup(v) != PhaseLevel::Vector)
      return report(computeStage, "a group of phases that stores per-row results: only groups "
                                  "storing their rows in the final phase are lowered");
  phases.emplace_back(); // the final phase

  // The per-vector ops a phase's roots need; `computed` (the resident
  // form) stops at per-vector values an earlier phase computed.
  auto sliceOf = [&](ArrayRef<Value> roots, DenseSet<Operation *> &ops, SmallVector<bool, 4> &args,
                     const DenseSet<Operation *> *computed, llvm::SetVector<Value> *carriedIn) {
    args.assign(body.getNumArguments(), false);
    SmallVector<Value> work(roots.begin(), roots.end());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (perVector(arg))
          args[arg.getArgNumber()] = true;
        continue;
      }
      if (level.lookup(v) == PhaseLevel::Row)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def)
        continue;
      if (computed && level.lookup(v) == PhaseLevel::Vector && computed->contains(def) &&
          (!carryOnly || carryOnly->contains(v))) {
        carriedIn->insert(v);
        continue;
      }
      if (!ops.insert(def).second)
        continue;
      for (Value operand : def->getOperands())
        work.push_back(operand);
    }
  };
  DenseSet<Operation *> computed; // by the earlier phases, in the resident form
  DenseMap<Operation *, unsigned> computedIn;
  for (auto [q, phase] : llvm::enumerate(phases)) {
    SmallVector<Value> roots;
    if (q + 1 < phases.size())
      for (Operation *r : phase.reductions)
        roots.push_back(r->getOperand(0));
    else
      roots.append(yield.getValues().begin(), yield.getValues().end());
    sliceOf(roots, phase.vectorOps, phase.argsRead, nullptr, nullptr);
    sliceOf(roots, phase.residentOps, phase.residentArgsRead, &computed, &phase.carriedIn);
    for (Value v : phase.carriedIn)
      phases[computedIn.lookup(v.getDefiningOp())].carriedOut.insert(v);
    for (Operation *op : phase.residentOps)
      if (computed.insert(op).second)
        computedIn[op] = q;
  }
  phases.back().vectorOps.insert(yield);
  phases.back().residentOps.insert(yield);
  for (Operation &op : body.without_terminator())
    for (const PhaseSplit::Phase &phase : phases)
      if (phase.carriedOut.contains(op.getResult(0)))
        split.carried.insert(op.getResult(0));

  // Per-row ops go right after the phase of the latest reduction they read,
  // with the whole chains of uniform values they need (a constant's abs
  // plus one is two ops before the per-row op that reads it).
  for (Operation &op : body.without_terminator()) {
    auto vop = cast<VectorOp>(op);
    Value v = vop.getResult();
    if (vop.getKind() == "reduce" || level.lookup(v) != PhaseLevel::Row)
      continue;
    PhaseSplit::Phase &phase = phases[latest.lookup(v) - 1];
    phase.rowOps.insert(vop);
    SmallVector<Value> uniform(vop->getOperands());
    while (!uniform.empty()) {
      Value operand = uniform.pop_back_val();
      if (level.lookup(operand) != PhaseLevel::Uniform)
        continue;
      if (Operation *def = operand.getDefiningOp())
        if (phase.rowOps.insert(def).second)
          uniform.append(def->getOperands().begin(), def->getOperands().end());
    }
  }
  // In body order, so the lowering's registers come in a fixed order.
  for (Operation &op : body)
    for (const PhaseSplit::Phase &phase : phases) {
      if (phase.vectorOps.contains(&op) || phase.residentOps.contains(&op))
        for (Value operand : op.getOperands())
          if (level.lookup(operand) == PhaseLevel::Row)
            split.broadcastRowValues.insert(operand);
      if (phase.rowOps.contains(&op))
        for (Value operand : op.getOperands())
          if (auto arg = dyn_cast<BlockArgument>(operand))
            split.rowOpArguments.insert(arg);
    }
  return split;
}

int64_t PhaseSplit::residentRegisterDemand(Block &body, int64_t vectors) const {
  // A value instance: (value, phase, vector); phase -2 for a carried value
  // (one per vector across phases), vector -1 for a per-row or uniform one.
  using Key = std::tuple<void *, int64_t, int64_t>;
  std::map<Key, std::pair<int64_t, int64_t>> live;
  int64_t t = 0;
  auto keyOf = [&](Value v, int64_t q, int64_t k) -> std::optional<Key> {
    if (isa<BlockArgument>(v))
      return std::nullopt; // one register for the whole program
    PhaseLevel l = level.lookup(v);
    if (l == PhaseLevel::Row)
      return Key{v.getAsOpaquePointer(), -1, -1};
    if (l == PhaseLevel::Vector && carried.contains(v))
      return Key{v.getAsOpaquePointer(), -2, k};
    return Key{v.getAsOpaquePointer(), q, k};
  };
  auto touch = [&](std::optional<Key> key) {
    if (!key)
      return;
    auto [it, inserted] = live.try_emplace(*key, t, t);
    if (!inserted)
      it->second.second = t;
  };
  // A per-vector op reads a per-row value's broadcast register (counted
  // apart), not its one element.
  auto emit = [&](Operation *op, int64_t q, int64_t k) {
    ++t;
    for (Value operand : op->getOperands())
      if (k < 0 || level.lookup(operand) != PhaseLevel::Row)
        touch(keyOf(operand, q, k));
    for (Value result : op->getResults())
      touch(keyOf(result, q, k));
  };
  for (auto [q, phase] : llvm::enumerate(phases)) {
    for (int64_t k = 0; k < vectors; ++k) {
      for (Operation &op : body)
        if (phase.residentOps.contains(&op))
          emit(&op, q, k);
      for (Operation *r : phase.reductions) {
        ++t;
        touch(keyOf(r->getOperand(0), q, k));
        if (k == 1) // the first vector's value folds with the second's
          touch(keyOf(r->getOperand(0), q, 0));
      }
    }
    for (Operation *r : phase.reductions) {
      ++t;
      touch(keyOf(r->getResult(0), q, -1));
    }
    // The lowering sets every per-row constant of the phase first, then
    // computes the per-row ops in body order.
    auto isConstant = [](Operation &op) {
      auto vop = dyn_cast<VectorOp>(op);
      return vop && vop.getKind() == "const";
    };
    ++t;
    for (Operation &op : body)
      if (phase.rowOps.contains(&op) && isConstant(op))
        touch(keyOf(op.getResult(0), q, -1));
    for (Operation &op : body)
      if (phase.rowOps.contains(&op) && !isConstant(op))
        emit(&op, q, -1);
  }
  std::vector<std::pair<int64_t, int>> events;
  for (auto &[key, range] : live) {
    events.push_back({range.first, +1});
    events.push_back({range.second + 1, -1});
  }
  llvm::sort(events);
  int64_t now = 0, peak = 0;
  for (auto [time, delta] : events) {
    now += delta;
    peak = std::max(peak, now);
  }
  // Registers for the whole program: the arguments', each reduction's
  // accumulator and one-element result (its broadcast where a per-vector
  // op reads it, its init unless the combiner's identity), the other
  // per-row values' broadcasts, the one-element splat arguments, and the
  // lowering's scratch and two piece registers.
  int64_t whole = body.getNumArguments() + broadcastRowValues.size() + rowOpArguments.size() + 3;
  for (const Phase &phase : phases)
    for (Operation *r : phase.reductions) {
      whole += 2;
      auto init = r->getOperand(1).getDefiningOp<VectorOp>();
      auto value = init ? dyn_cast_or_null<FloatAttr>(init->getAttr("value")) : nullptr;
      auto combiner = r->getAttrOfType<StringAttr>("combiner");
      double x = value ? value.getValueAsDouble() : 1.0;
      bool identity = value && combiner &&
                      ((combiner.getValue() == "add" && x == 0.0) ||
                       (combiner.getValue() == "max" && std::isinf(x) && x < 0) ||
                       (combiner.getValue() == "min" && std::isinf(x) && x > 0));
      if (!identity)
        ++whole;
    }
  return peak + whole;
}

bool PhaseSplit::scratchpadOrdered() const {
  int64_t lastOut = -1, firstIn = std::numeric_limits<int64_t>::max();
  for (auto [q, phase] : llvm::enumerate(phases)) {
    if (!phase.carriedOut.empty())
      lastOut = int64_t(q);
    if (!phase.carriedIn.empty())
      firstIn = std::min(firstIn, int64_t(q));
  }
  return !carried.empty() && lastOut < firstIn;
}

int64_t ktsched::phaseScratchBytes(const PhaseSplit &split, int64_t step, int64_t vectors) {
  int64_t bytes = 0;
  for (Value v : split.carried)
    bytes += toBytes(Elements(step * vectors), elementSize(v.getType())).count();
  return bytes;
}

double ktsched::phaseVectorCycles(const PhaseSplit &split, Block &body,
                                  const arch::ComputeInfo &info, StringRef form, int64_t step,
                                  int64_t vectors, int64_t pieceBytes,
                                  int64_t sendBytesPerCycle) {
  auto cost = [&](StringRef opClass) -> double {
    std::optional<Cycles> c = info.issueCost(opClass);
    return c ? double(c->count()) : 0.0;
  };
  auto issues = [&](Type type, int64_t count) -> double {
    std::optional<int64_t> l = info.lanesFor(getElementTypeOrSelf(type));
    return l && *l > 0 ? double((count + *l - 1) / *l) : double(count);
  };
  auto opCycles = [&](Operation *op) -> double {
    auto vop = dyn_cast<VectorOp>(op);
    if (!vop)
      return 0;
    StringRef kind = vop.getKind();
    if (kind == "copy" && op->getNumOperands() == 1)
      return 0; // forwarded, no instruction
    double n = 0;
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      n = std::max(n, issues(t, step));
    return cost(kind == "const" ? "copy" : kind) * n;
  };
  bool resident = form != kPhaseValuesRecomputed;
  double perVector = 0;
  for (const PhaseSplit::Phase &phase : split.phases)
    for (Operation &op : body)
      if ((resident ? phase.residentOps : phase.vectorOps).contains(&op))
        perVector += opCycles(&op);
  if (form == kPhaseValuesInScratchpad)
    for (Value v : split.carried) {
      int64_t bytes = toBytes(Elements(step), elementSize(v.getType())).count();
      int64_t pieces = pieceBytes > 0 ? (bytes + pieceBytes - 1) / pieceBytes : 1;
      double send = sendBytesPerCycle > 0
                        ? double((std::min(bytes, pieceBytes) + sendBytesPerCycle - 1) /
                                 sendBytesPerCycle)
                        : 1.0;
      double piece = pieces > 1 ? cost("copy") * issues(v.getType(), step / pieces) : 0.0;
      // Out: a slice and a send per piece; back: the pieces concatenated.
      perVector += pieces * (piece + send);
      if (pieces > 1)
        perVector += (pieces - 1) * cost("copy") * issues(v.getType(), step);
    }
  return perVector * vectors;
}

DenseSet<Value> ktsched::phaseScratchValues(GroupOp group, Block &body) {
  DenseSet<Value> values;
  auto ops = group->getAttrOfType<DenseI64ArrayAttr>(kPhaseScratchValues);
  if (!ops)
    return values;
  int64_t i = 0;
  for (Operation &op : body) {
    if (llvm::is_contained(ops.asArrayRef(), i) && op.getNumResults() == 1)
      values.insert(op.getResult(0));
    ++i;
  }
  return values;
}

FailureOr<ScratchpadForm> ktsched::scratchpadForm(GroupOp group, const arch::ArchModel &model,
                                                  bool forced) {
  StageOp compute = computeStage(group);
  std::optional<arch::NodeId> unit = boundComputeUnit(group, model);
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  if (!compute || !unit || !lanes || streamColumns(group))
    return failure();
  // The slot is written by the store unit and read by the load unit.
  bool loadUnit = false;
  group.walk([&](StageOp stage) { loadUnit |= stage.getRole() == "load"; });
  SmallVector<bool> uniform = uniformComputeArguments(compute);
  FailureOr<PhaseSplit> full = splitPhases(compute, uniform, /*diagnose=*/false);
  SmallVector<int64_t> tile = groupTile(group);
  int64_t step = vectorStep(group, *lanes);
  if (!loadUnit || failed(full) || full->carried.empty() || tile.empty() || step < 1)
    return failure();
  int64_t vectors = (tile.back() + step - 1) / step;
  Block &body = compute->getRegion(0).front();
  const arch::ComputeInfo &info = model.node(*unit).compute;
  // One load/store unit access: a vector of the narrowest type.
  int64_t narrowest = std::numeric_limits<int64_t>::max();
  for (Operation &op : body)
    for (Type t : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
      narrowest = std::min(narrowest, elementSize(t).bytes.count());
  for (BlockArgument arg : body.getArguments())
    narrowest = std::min(narrowest, elementSize(arg.getType()).bytes.count());
  int64_t pieceBytes = step * narrowest;
  int64_t sendBytesPerCycle = 0;
  for (const arch::Link &link : model.links())
    if (link.from == *unit && model.node(link.to).kind == arch::NodeKind::StoreUnit &&
        !sendBytesPerCycle)
      sendBytesPerCycle = link.bandwidth.bytesPerCycle;
  // A value is worth carrying where its per-vector slice (recomputed from
  // the row) costs more than its transfers out and back.
  PhaseSplit one;
  auto worth = [&](Value v) {
    one.carried.clear();
    one.carried.insert(v);
    double transfers = phaseVectorCycles(one, body, info, kPhaseValuesInScratchpad, step, 1,
                                         pieceBytes, sendBytesPerCycle);
    PhaseSplit::Phase slice;
    SmallVector<Value> work{v};
    while (!work.empty()) {
      Value w = work.pop_back_val();
      Operation *def = w.getDefiningOp();
      if (!def || full->level.lookup(w) != PhaseLevel::Vector ||
          !slice.vectorOps.insert(def).second)
        continue;
      work.append(def->operand_begin(), def->operand_end());
    }
    PhaseSplit just;
    just.phases.push_back(std::move(slice));
    double recompute = phaseVectorCycles(just, body, info, kPhaseValuesRecomputed, step, 1,
                                         pieceBytes, sendBytesPerCycle);
    return recompute > transfers;
  };
  DenseSet<Value> carryOnly;
  for (Value v : full->carried)
    if (worth(v))
      carryOnly.insert(v);
  // A plan's choice where none is worth it: the values of the latest
  // phase carrying any out (so one slot per row still serves them).
  if (carryOnly.empty() && forced)
    for (const PhaseSplit::Phase &phase : llvm::reverse(full->phases))
      if (!phase.carriedOut.empty()) {
        carryOnly.insert(phase.carriedOut.begin(), phase.carriedOut.end());
        break;
      }
  if (carryOnly.empty())
    return failure();
  FailureOr<PhaseSplit> split = splitPhases(compute, uniform, /*diagnose=*/false, &carryOnly);
  if (failed(split) || !split->scratchpadOrdered())
    return failure();
  ScratchpadForm form;
  int64_t i = 0;
  for (Operation &op : body) {
    if (op.getNumResults() == 1 && split->carried.contains(op.getResult(0)))
      form.ops.push_back(i);
    ++i;
  }
  form.bytes = phaseScratchBytes(*split, step, vectors);
  form.cycles = phaseVectorCycles(*split, body, info, kPhaseValuesInScratchpad, step, vectors,
                                  pieceBytes, sendBytesPerCycle);
  form.recomputeCycles = phaseVectorCycles(*split, body, info, kPhaseValuesRecomputed, step,
                                           vectors, pieceBytes, sendBytesPerCycle);
  return form;
}

SmallVector<bool> ktsched::uniformComputeArguments(StageOp compute) {
  SmallVector<bool> uniform;
  for (Value input : compute->getOperands()) {
    if (auto fifo = input.getDefiningOp<FifoOp>())
      input = fifo.getSource();
    else if (auto buffer = input.getDefiningOp<BufferOp>())
      input = buffer.getSource();
    uniform.push_back(input.getDefiningOp<ScalarArgOp>() != nullptr);
  }
  return uniform;
}

void ktsched::decidePhaseValues(GroupOp group, const arch::ArchModel &model) {
  if (!group->hasAttr("phases"))
    return;
  Builder b(group.getContext());
  // A plan's choice stands: `registers` that do not fit is the register
  // allocator's diagnostic at the compute unit.
  if (auto replayed = group->getAttrOfType<DecisionAttr>(kPhaseValues);
      replayed && replayed.getSource() == kPlan)
    return;
  auto decideAs = [&](StringRef value) {
    group->setAttr(kPhaseValues, decide(b.getStringAttr(value), kHeuristic));
  };
  StageOp compute = computeStage(group);
  std::optional<arch::NodeId> unit = boundComputeUnit(group, model);
  std::optional<int64_t> lanes = compute ? decisionInt(compute, "vector") : std::nullopt;
  if (!compute || !unit || !lanes)
    return decideAs(kPhaseValuesRecomputed);
  // A streamed row is never whole in registers: each phase recomputes.
  if (streamColumns(group))
    return decideAs(kPhaseValuesRecomputed);
  FailureOr<PhaseSplit> split =
      splitPhases(compute, uniformComputeArguments(compute), /*diagnose=*/false);
  SmallVector<int64_t> tile = groupTile(group);
  int64_t step = vectorStep(group, *lanes);
  if (failed(split) || split->carried.empty() || tile.empty() || step < 1)
    return decideAs(kPhaseValuesRecomputed);
  int64_t vectors = (tile.back() + step - 1) / step;
  // Every vector of the row is its own unrolled step: past this many the
  // program grows more than carrying saves.
  constexpr int64_t kMaxUnrolledVectors = 64;
  Block &body = compute->getRegion(0).front();
  bool fits = vectors <= kMaxUnrolledVectors &&
              split->residentRegisterDemand(body, vectors) <= model.vectorRegisterCount(*unit);
  if (fits)
    return decideAs(kPhaseValuesInRegisters);
  // Through scratchpad: cheaper on the compute unit than recomputing.
  FailureOr<ScratchpadForm> form = scratchpadForm(group, model, /*forced=*/false);
  if (succeeded(form) && form->cycles < form->recomputeCycles)
    return decideAs(kPhaseValuesInScratchpad);
  decideAs(kPhaseValuesRecomputed);
}
