//===- PhaseCompute.cpp - vector loop nests of a group of phases ----------===//
//
// Strategy. Every value of the body has a level: uniform (constants, splat
// scalars: the same for every vector), per row (a reduction's result and
// the ops on such values alone: one value per row, held broadcast across
// a register's lanes) or per vector (a loaded row and anything computed
// from it). A reduction's phase is one more than the latest reduction its
// operand reads (the schedule's `phase`); the final phase computes the
// stored rows.
//
// Per row of the tile (rows are the outer loop; the dimensions before the
// rows loop outside them), each reduction phase reads the row's vectors
// again from the slot that stays resident in scratchpad (the schedule's
// `phase_residency = resident`), computes the per-vector ops its
// reductions fold (recomputing those an earlier phase also computed: a
// vector op costs less than keeping a row in registers) and folds them as
// ReductionNest does: the first vector into the accumulator, the others
// combined lane-wise, a partial last vector's padding lanes replaced by the
// combiner's identity (`ext`), then one `reduce.*`, the init, and `bcast`
// of lane 0 into the reduction's row register. The per-row ops of the
// phase follow, once per row on those broadcast registers (a mean from a
// sum, rsqrt(var + eps)). The final phase reads the row once more,
// computes the stored values and writes them, vector by vector.
//
// Rows go one at a time, so a row's values need a register each and no
// more, whatever the tile's row count: the load unit pushes the row's
// vectors once per phase, in exactly this order, within one acquire of
// the slot (one fill, several drains: the channel's counts do not change).
//
//===----------------------------------------------------------------------===//
#include "PhaseCompute.h"

#include "ktflow/Schedule/KTSched.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
namespace ks = ktflow::ktsched;

namespace {
enum class Level { Uniform, Row, Vector };
} // namespace

FailureOr<PhaseNest> PhaseNest::analyze(Operation *computeStage, ArrayRef<int64_t> space,
                                        int64_t reduceDim, int64_t vectorWidth,
                                        ArrayRef<bool> splatArgs) {
  PhaseNest nest;
  nest.rank = space.size();
  nest.vectorWidth = vectorWidth;
  nest.rowDim = nest.rank - 2;
  nest.splatArgs.assign(splatArgs.begin(), splatArgs.end());
  if (reduceDim != nest.rank - 1)
    return computeStage->emitError("phases over a reduction of dimension ")
           << reduceDim << " of " << nest.rank
           << ": only reductions along the rows (the last dimension) run in phases";
  Block &body = computeStage->getRegion(0).front();
  auto yield = llvm::dyn_cast<ks::YieldOp>(body.getTerminator());
  if (!yield)
    return computeStage->emitError("compute body does not end in a yield");

  llvm::DenseMap<Value, Level> level;
  llvm::DenseMap<Value, int64_t> latest; // latest reduction phase a value reads
  for (BlockArgument arg : body.getArguments())
    level[arg] = nest.readEveryVector(arg) ? Level::Vector : Level::Uniform;
  int64_t lastPhase = 0;
  for (Operation &op : body.without_terminator()) {
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (!vop)
      return op.emitError("unexpected op in a compute body");
    Level l = Level::Uniform;
    int64_t reads = 0;
    for (Value operand : vop->getOperands()) {
      l = std::max(l, level.lookup(operand));
      reads = std::max(reads, latest.lookup(operand));
    }
    if (vop.getKind() == "reduce") {
      auto phase = vop->getAttrOfType<IntegerAttr>("phase");
      auto combiner = vop->getAttrOfType<StringAttr>("combiner");
      auto dim = vop->getAttrOfType<IntegerAttr>("dim");
      if (!phase || !combiner || !dim || dim.getInt() != reduceDim || vop.getNumOperands() != 2)
        return vop.emitError("reduction of a group of phases without a phase, a combiner or "
                             "the group's reduced dimension");
      if (level.lookup(vop.getOperand(0)) != Level::Vector)
        return vop.emitError("a reduction of a value that is the same for every vector of a "
                             "row is not lowered");
      PhaseReduction r;
      r.op = vop;
      r.operand = vop.getOperand(0);
      r.type = registerTypeOf(vop.getResult().getType()).value_or(dc::ElemType::F32);
      StringRef kind = combiner.getValue();
      if (kind == "add") {
        r.combiner = dc::Combiner::Add;
        r.combineOp = dc::Opcode::Add;
      } else if (kind == "max") {
        r.combiner = dc::Combiner::Max;
        r.combineOp = dc::Opcode::Max;
      } else if (kind == "min") {
        r.combiner = dc::Combiner::Min;
        r.combineOp = dc::Opcode::Min;
      } else {
        return vop.emitError("reduction combiner '") << kind << "' is not lowered";
      }
      std::optional<double> init = constantOf(vop.getOperand(1));
      if (!init)
        return vop.emitError("reduction init is not a constant: not lowered");
      bool identity = (r.combiner == dc::Combiner::Add && *init == 0.0) ||
                      (r.combiner == dc::Combiner::Max && std::isinf(*init) && *init < 0) ||
                      (r.combiner == dc::Combiner::Min && std::isinf(*init) && *init > 0);
      if (!identity)
        r.init = *init;
      int64_t p = phase.getInt();
      if (p < 1 || p <= reads)
        return vop.emitError("reduction of phase ") << p << " reads a result of phase " << reads;
      if ((int64_t)nest.phases.size() < p)
        nest.phases.resize(p);
      nest.phases[p - 1].reductions.push_back(nest.reductions.size());
      nest.reductions.push_back(r);
      lastPhase = std::max(lastPhase, p);
      l = Level::Row;
      reads = p;
    }
    level[vop.getResult()] = l;
    latest[vop.getResult()] = reads;
  }
  for (auto [p, phase] : llvm::enumerate(nest.phases))
    if (phase.reductions.empty())
      return computeStage->emitError("a group of phases without a reduction in phase ") << p + 1;
  for (Value v : yield.getValues())
    if (level.lookup(v) != Level::Vector)
      return computeStage->emitError("a group of phases that stores per-row results: only "
                                     "groups storing their rows in the final phase are lowered");

  // The ops a set of roots needs per vector: their backward slice up to
  // the per-row values (computed once per row, before) and the arguments.
  auto sliceOf = [&](ArrayRef<Value> roots, Phase &phase) {
    phase.argsRead.assign(body.getNumArguments(), false);
    SmallVector<Value> work(roots.begin(), roots.end());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (auto arg = llvm::dyn_cast<BlockArgument>(v)) {
        if (nest.readEveryVector(arg))
          phase.argsRead[arg.getArgNumber()] = true;
        continue;
      }
      if (level.lookup(v) == Level::Row)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !phase.vectorOps.insert(def).second)
        continue;
      for (Value operand : def->getOperands())
        work.push_back(operand);
    }
  };
  for (Phase &phase : nest.phases) {
    SmallVector<Value> roots;
    for (unsigned i : phase.reductions)
      roots.push_back(nest.reductions[i].operand);
    sliceOf(roots, phase);
  }
  sliceOf(SmallVector<Value>(yield.getValues().begin(), yield.getValues().end()), nest.final);
  nest.final.vectorOps.insert(yield);
  // Per-row ops go right after the phase of the latest reduction they read,
  // with the whole chains of uniform values they need (a constant's abs
  // plus one is two ops before the per-row op that reads it).
  for (Operation &op : body.without_terminator()) {
    auto vop = llvm::cast<ks::VectorOp>(op);
    Value v = vop.getResult();
    if (vop.getKind() == "reduce" || level.lookup(v) != Level::Row)
      continue;
    Phase &phase = nest.phases[latest.lookup(v) - 1];
    phase.rowOps.insert(vop);
    SmallVector<Value> uniform(vop->getOperands());
    while (!uniform.empty()) {
      Value operand = uniform.pop_back_val();
      if (level.lookup(operand) != Level::Uniform)
        continue;
      if (Operation *def = operand.getDefiningOp())
        if (phase.rowOps.insert(def).second)
          uniform.append(def->getOperands().begin(), def->getOperands().end());
    }
  }
  (void)lastPhase;
  return nest;
}

LogicalResult PhaseNest::allocate(ktunit::ProgramBuilder &vec,
                                  llvm::DenseMap<Value, ktunit::Reg> &reg) {
  for (PhaseReduction &r : reductions) {
    r.accumulator = vec.newReg();
    r.rowValue = vec.newReg();
    reg[r.op->getResult(0)] = r.rowValue;
    if (r.init) {
      r.initRegister = vec.newReg();
      vec.vconst(r.initRegister, r.type, Elements(1), *r.init);
    }
  }
  scratch = vec.newReg();
  return vec.status();
}

bool PhaseNest::open(ktunit::ProgramBuilder &b, int64_t count, int64_t dim, int64_t multiplier,
                     SpacePosition &pos) {
  return openNestLoop(b, depth, count, dim, multiplier, pos);
}

void PhaseNest::close(ktunit::ProgramBuilder &b, bool opened, int64_t dim, SpacePosition &pos) {
  closeNestLoop(b, depth, opened, dim, pos);
}

void PhaseNest::openRows(ktunit::ProgramBuilder &b, ArrayRef<int64_t> extent, SpacePosition &pos,
                         SmallVectorImpl<std::pair<bool, int64_t>> &loops) {
  for (int64_t d = 0; d < rank - 1; ++d)
    loops.push_back({open(b, extent[d], d, 1, pos), d});
}

LogicalResult PhaseNest::foldPhase(ktunit::ProgramBuilder &vec, const Phase &phase,
                                   ArrayRef<int64_t> extent,
                                   llvm::DenseMap<Value, ktunit::Reg> &reg, SpacePosition &pos,
                                   ReadFn read, BodyFn body) {
  int64_t last = rank - 1;
  int64_t count = (extent[last] + vectorWidth - 1) / vectorWidth;
  int64_t partial = extent[last] % vectorWidth;
  auto noSink = [](unsigned, ktunit::Reg) {};
  const llvm::DenseMap<Value, ktunit::Reg> none;
  // -0 is the exact identity of a sum, -inf never wins a max (nor +inf a
  // min) over a real value.
  auto masked = [&](const PhaseReduction &r, ktunit::Reg to, ktunit::Reg from) {
    double identity = r.combiner == dc::Combiner::Add   ? -0.0
                      : r.combiner == dc::Combiner::Max ? -std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::infinity();
    vec.vconst(scratch, r.type, Elements(vectorWidth), identity);
    vec.ext(to, scratch, from, partial);
  };
  // First vector: each reduction's operand straight into its accumulator.
  llvm::DenseMap<Value, ktunit::Reg> fixed;
  SmallVector<std::pair<Value, ktunit::Reg>> saved;
  SmallVector<std::pair<ktunit::Reg, ktunit::Reg>> copies;
  for (unsigned i : phase.reductions) {
    const PhaseReduction &r = reductions[i];
    Value v = r.operand;
    if (auto it = fixed.find(v); it != fixed.end()) {
      copies.push_back({r.accumulator, it->second});
      continue;
    }
    if (llvm::isa<BlockArgument>(v)) {
      saved.push_back({v, reg[v]});
      reg[v] = r.accumulator;
    }
    fixed[v] = r.accumulator;
  }
  pos.constant[last] = 0;
  LogicalResult ok = read(pos, phase.argsRead);
  if (succeeded(ok))
    ok = body(phase.vectorOps, fixed, noSink);
  for (auto [v, r] : saved)
    reg[v] = r;
  if (failed(ok))
    return failure();
  for (auto [to, from] : copies)
    vec.unary(dc::Opcode::Mov, to, from);
  if (count == 1 && partial > 0)
    for (unsigned i : phase.reductions)
      masked(reductions[i], reductions[i].accumulator, reductions[i].accumulator);
  int64_t whole = partial > 0 ? count - 2 : count - 1;
  if (whole > 0) {
    pos.constant[last] = vectorWidth;
    bool opened = open(vec, whole, last, vectorWidth, pos);
    if (failed(read(pos, phase.argsRead)) || failed(body(phase.vectorOps, none, noSink)))
      return failure();
    for (unsigned i : phase.reductions)
      vec.binary(reductions[i].combineOp, reductions[i].accumulator, reductions[i].accumulator,
                 reg[reductions[i].operand]);
    close(vec, opened, last, pos);
  }
  if (count > 1 && partial > 0) {
    pos.constant[last] = (count - 1) * vectorWidth;
    if (failed(read(pos, phase.argsRead)) || failed(body(phase.vectorOps, none, noSink)))
      return failure();
    for (unsigned i : phase.reductions) {
      const PhaseReduction &r = reductions[i];
      masked(r, scratch, reg[r.operand]);
      vec.binary(r.combineOp, r.accumulator, r.accumulator, scratch);
    }
  }
  pos.constant[last] = 0;
  // The row's results, broadcast for the later phases, then the per-row ops.
  for (unsigned i : phase.reductions) {
    const PhaseReduction &r = reductions[i];
    vec.reduce(r.combiner, scratch, r.accumulator);
    if (r.init)
      vec.binary(r.combineOp, scratch, scratch, r.initRegister);
    vec.bcast(r.rowValue, scratch, 0, Elements(vectorWidth));
    reg[r.op->getResult(0)] = r.rowValue;
  }
  if (phase.rowOps.empty())
    return success();
  return body(phase.rowOps, none, noSink);
}

LogicalResult PhaseNest::emitCompute(ktunit::ProgramBuilder &vec, ArrayRef<int64_t> extent,
                                     llvm::DenseMap<Value, ktunit::Reg> &reg, ReadFn read,
                                     BodyFn body, WriteFn write) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  SmallVector<std::pair<bool, int64_t>> loops;
  const llvm::DenseMap<Value, ktunit::Reg> none;
  openRows(vec, extent, pos, loops);
  for (const Phase &phase : phases)
    if (failed(foldPhase(vec, phase, extent, reg, pos, read, body)))
      return failure();
  bool opened = open(vec, (extent[last] + vectorWidth - 1) / vectorWidth, last, vectorWidth, pos);
  if (failed(read(pos, final.argsRead)) ||
      failed(body(final.vectorOps, none, [&](unsigned i, ktunit::Reg r) { write(i, r, pos); })))
    return failure();
  close(vec, opened, last, pos);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    close(vec, it->first, it->second, pos);
  return success();
}

void PhaseNest::emitInputOrder(ktunit::ProgramBuilder &b, ArrayRef<int64_t> extent,
                               VisitFn visit) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  int64_t vectors = (extent[last] + vectorWidth - 1) / vectorWidth;
  SmallVector<std::pair<bool, int64_t>> loops;
  openRows(b, extent, pos, loops);
  SmallVector<const Phase *, 4> order;
  for (const Phase &phase : phases)
    order.push_back(&phase);
  order.push_back(&final);
  for (const Phase *phase : order) {
    bool opened = open(b, vectors, last, vectorWidth, pos);
    visit(pos, phase->argsRead);
    close(b, opened, last, pos);
  }
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    close(b, it->first, it->second, pos);
}

void PhaseNest::emitOutputOrder(ktunit::ProgramBuilder &b, ArrayRef<int64_t> extent,
                                llvm::function_ref<void(const SpacePosition &)> visit) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  SmallVector<std::pair<bool, int64_t>> loops;
  openRows(b, extent, pos, loops);
  bool opened = open(b, (extent[last] + vectorWidth - 1) / vectorWidth, last, vectorWidth, pos);
  visit(pos);
  close(b, opened, last, pos);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    close(b, it->first, it->second, pos);
}
