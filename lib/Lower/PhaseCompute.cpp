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
// reductions fold and folds them as ReductionNest does: the first vector
// into the accumulator, the others combined lane-wise, a partial last
// vector's padding lanes replaced by the combiner's identity (`ext`), then
// one `reduce.*`, the init, and `bcast` of lane 0 into the reduction's row
// register. The per-row ops of the phase follow, once per row on those
// broadcast registers (a mean from a sum, rsqrt(var + eps)). The final
// phase reads the row once more, computes the stored values and writes
// them, vector by vector.
//
// What a phase computes per vector is the schedule's `phase_values`
// (Schedule/PhaseValues.cpp splits the body): `recompute` computes again
// the per-vector ops an earlier phase also computed, in a loop over the
// row's vectors; `registers` unrolls the row's vectors, each with a
// register per carried value (softmax's exp(x - max) from the sum's phase
// to the final one), so a phase computes only what no earlier phase did
// and reads from the slot only the arguments that still needs.
//
// `scratchpad` is the loop form over the carried form's ops: each carried
// value leaves to the store unit as it is computed (into a slot of one row
// of carried values) and comes back from the load unit, before the
// vector's arguments, in the phase that reads it; the slot is one channel
// of depth 1 from the store to the load unit, taken once per row.
//
// A streamed row read from the compute unit's own slots (two scratchpad
// levels: `Parts`) visits each phase's vectors in parts, a part's slots
// taken before its first vector and freed after its last; the fold's first
// vector is the first part's, and the accumulators run on across parts.
//
// Rows go one at a time, so a row's values need registers for one row,
// whatever the tile's row count: the load unit pushes the row's vectors
// once per phase, in exactly this order, within one acquire of the slot
// (one fill, several drains: the channel's counts do not change).
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
                                        ArrayRef<bool> splatArgs, bool carryInRegisters,
                                        const llvm::DenseSet<Value> *carryOnly) {
  PhaseNest nest;
  nest.rank = space.size();
  nest.vectorWidth = vectorWidth;
  nest.rowDim = nest.rank - 2;
  nest.carryInRegisters = carryInRegisters;
  if (reduceDim != nest.rank - 1)
    return computeStage->emitError("phases over a reduction of dimension ")
           << reduceDim << " of " << nest.rank
           << ": only reductions along the rows (the last dimension) run in phases";
  FailureOr<ks::PhaseSplit> split =
      ks::splitPhases(computeStage, splatArgs, /*diagnose=*/true, carryOnly);
  if (failed(split))
    return failure();
  nest.split = std::move(*split);
  for (const Phase &phase : ArrayRef(nest.split.phases).drop_back()) {
    SmallVector<unsigned, 2> &indices = nest.phaseReductions.emplace_back();
    for (Operation *op : phase.reductions) {
      auto vop = llvm::cast<ks::VectorOp>(op);
      auto combiner = vop->getAttrOfType<StringAttr>("combiner");
      auto dim = vop->getAttrOfType<IntegerAttr>("dim");
      if (!combiner || !dim || dim.getInt() != reduceDim)
        return vop.emitError("reduction of a group of phases without a phase, a combiner or "
                             "the group's reduced dimension");
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
      indices.push_back(nest.reductions.size());
      nest.reductions.push_back(r);
    }
  }
  return nest;
}

LogicalResult PhaseNest::allocate(ktunit::ProgramBuilder &vec,
                                  llvm::DenseMap<Value, ktunit::Reg> &reg) {
  // Registers of this program (one per sub-core instance).
  broadcastOf.clear();
  narrowArgument.clear();
  narrowOf.clear();
  for (PhaseReduction &r : reductions) {
    r.accumulator = vec.newReg();
    r.narrowValue = vec.newReg();
    r.rowValue = vec.newReg();
    reg[r.op->getResult(0)] = r.rowValue;
    broadcastOf[r.op->getResult(0)] = r.rowValue;
    if (r.init) {
      r.initRegister = vec.newReg();
      vec.vconst(r.initRegister, r.type, Elements(1), *r.init);
    }
  }
  for (Value v : split.broadcastRowValues)
    if (!broadcastOf.count(v))
      broadcastOf[v] = vec.newReg();
  for (BlockArgument arg : split.rowOpArguments) {
    narrowArgument[arg] = vec.newReg();
    vec.slice(narrowArgument[arg], reg[arg], 0, Elements(1));
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

/// The combiner's identity: -0 is the exact identity of a sum, -inf never
/// wins a max (nor +inf a min) over a real value.
static double identityOf(dc::Combiner combiner) {
  return combiner == dc::Combiner::Add   ? -0.0
         : combiner == dc::Combiner::Max ? -std::numeric_limits<double>::infinity()
                                         : std::numeric_limits<double>::infinity();
}

LogicalResult PhaseNest::foldPhase(ktunit::ProgramBuilder &vec, unsigned phaseIndex,
                                   ArrayRef<int64_t> extent,
                                   llvm::DenseMap<Value, ktunit::Reg> &reg, SpacePosition &pos,
                                   ReadFn read, BodyFn body) {
  const Phase &phase = split.phases[phaseIndex];
  ArrayRef<unsigned> indices = phaseReductions[phaseIndex];
  int64_t last = rank - 1;
  int64_t count = (extent[last] + vectorWidth - 1) / vectorWidth;
  int64_t partial = extent[last] % vectorWidth;
  if (carryInRegisters) {
    if (failed(foldCarried(vec, phaseIndex, count, partial, reg, pos, read, body)))
      return failure();
    return finishRow(vec, phaseIndex, reg, body);
  }
  auto noSink = [](unsigned, ktunit::Reg) {};
  const llvm::DenseMap<Value, ktunit::Reg> none;
  auto masked = [&](const PhaseReduction &r, ktunit::Reg to, ktunit::Reg from) {
    vec.vconst(scratch, r.type, Elements(vectorWidth), identityOf(r.combiner));
    vec.ext(to, scratch, from, partial);
  };
  if (parts)
    parts->begin(phaseIndex, 0);
  // First vector: each reduction's operand straight into its accumulator.
  llvm::DenseMap<Value, ktunit::Reg> fixed;
  SmallVector<std::pair<Value, ktunit::Reg>> saved;
  SmallVector<std::pair<ktunit::Reg, ktunit::Reg>> copies;
  for (unsigned i : indices) {
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
  LogicalResult ok = stepVector(phase, pos, fixed, reg, read, body, noSink);
  for (auto [v, r] : saved)
    reg[v] = r;
  if (failed(ok))
    return failure();
  for (auto [to, from] : copies)
    vec.unary(dc::Opcode::Mov, to, from);
  if (count == 1 && partial > 0)
    for (unsigned i : indices)
      masked(reductions[i], reductions[i].accumulator, reductions[i].accumulator);
  // The vectors from `start` on, `n` of them, folded in.
  auto foldRun = [&](int64_t start, int64_t n) -> LogicalResult {
    if (n <= 0)
      return success();
    pos.constant[last] = start;
    bool opened = open(vec, n, last, vectorWidth, pos);
    if (failed(stepVector(phase, pos, none, reg, read, body, noSink)))
      return failure();
    for (unsigned i : indices)
      vec.binary(reductions[i].combineOp, reductions[i].accumulator, reductions[i].accumulator,
                 reg[reductions[i].operand]);
    close(vec, opened, last, pos);
    return success();
  };
  if (parts) {
    // A streamed row: the rest of the first part, then every other part.
    if (failed(foldRun(vectorWidth, parts->vectorsPerPart - 1)))
      return failure();
    parts->end(phaseIndex, 0);
    for (int64_t q = 1; q < parts->count; ++q) {
      parts->begin(phaseIndex, q);
      if (failed(foldRun(0, parts->vectorsPerPart)))
        return failure();
      parts->end(phaseIndex, q);
    }
    pos.constant[last] = 0;
    return finishRow(vec, phaseIndex, reg, body);
  }
  int64_t whole = partial > 0 ? count - 2 : count - 1;
  if (failed(foldRun(vectorWidth, whole)))
    return failure();
  if (count > 1 && partial > 0) {
    pos.constant[last] = (count - 1) * vectorWidth;
    if (failed(stepVector(phase, pos, none, reg, read, body, noSink)))
      return failure();
    for (unsigned i : indices) {
      const PhaseReduction &r = reductions[i];
      masked(r, scratch, reg[r.operand]);
      vec.binary(r.combineOp, r.accumulator, r.accumulator, scratch);
    }
  }
  pos.constant[last] = 0;
  return finishRow(vec, phaseIndex, reg, body);
}

LogicalResult PhaseNest::stepVector(const Phase &phase, const SpacePosition &pos,
                                    const llvm::DenseMap<Value, ktunit::Reg> &fixed,
                                    llvm::DenseMap<Value, ktunit::Reg> &reg, ReadFn read,
                                    BodyFn body, SinkFn sink) {
  if (spill)
    for (Value v : phase.carriedIn)
      reg[v] = spill->receive(v);
  if (failed(read(pos, argsOf(phase))) || failed(body(opsOf(phase), fixed, sink)))
    return failure();
  if (spill)
    for (Value v : phase.carriedOut)
      spill->send(v, reg[v]);
  return success();
}

llvm::DenseMap<Value, ktunit::Reg>
PhaseNest::bindCarried(const Phase &phase, int64_t k, llvm::DenseMap<Value, ktunit::Reg> &reg) {
  for (Value v : phase.carriedIn)
    reg[v] = carried[v][k];
  llvm::DenseMap<Value, ktunit::Reg> fixed;
  for (Value v : phase.carriedOut)
    fixed[v] = carried[v][k];
  return fixed;
}

LogicalResult PhaseNest::foldCarried(ktunit::ProgramBuilder &vec, unsigned phaseIndex,
                                     int64_t count, int64_t partial,
                                     llvm::DenseMap<Value, ktunit::Reg> &reg, SpacePosition &pos,
                                     ReadFn read, BodyFn body) {
  const Phase &phase = split.phases[phaseIndex];
  int64_t last = rank - 1;
  auto noSink = [](unsigned, ktunit::Reg) {};
  // The first vector's value of each reduction, folded with the second's
  // straight into the accumulator (an argument's register is received
  // again, so it is copied first).
  llvm::DenseMap<unsigned, ktunit::Reg> first;
  for (int64_t k = 0; k < count; ++k) {
    pos.constant[last] = k * vectorWidth;
    llvm::DenseMap<Value, ktunit::Reg> fixed = bindCarried(phase, k, reg);
    if (failed(read(pos, phase.residentArgsRead)) || failed(body(phase.residentOps, fixed, noSink)))
      return failure();
    bool lastPartial = k == count - 1 && partial > 0;
    for (unsigned i : phaseReductions[phaseIndex]) {
      const PhaseReduction &r = reductions[i];
      ktunit::Reg value = reg[r.operand];
      ktunit::Reg folded = value;
      if (lastPartial) {
        vec.vconst(scratch, r.type, Elements(vectorWidth), identityOf(r.combiner));
        vec.ext(k == 0 ? r.accumulator : scratch, scratch, value, partial);
        folded = scratch;
      }
      if (k == 0 && !lastPartial) {
        if (count > 1 && !llvm::isa<BlockArgument>(r.operand)) {
          first[i] = value;
        } else {
          vec.unary(dc::Opcode::Mov, r.accumulator, value);
        }
      } else if (k == 1 && first.count(i)) {
        vec.binary(r.combineOp, r.accumulator, first[i], folded);
      } else if (k > 0) {
        vec.binary(r.combineOp, r.accumulator, r.accumulator, folded);
      }
    }
  }
  pos.constant[last] = 0;
  return success();
}

LogicalResult PhaseNest::finishRow(ktunit::ProgramBuilder &vec, unsigned phaseIndex,
                                   llvm::DenseMap<Value, ktunit::Reg> &reg, BodyFn body) {
  // The row's results as one element each; the per-row ops on one element
  // (what every lane would compute alike), then the values per-vector ops
  // read broadcast to every lane.
  const Phase &phase = split.phases[phaseIndex];
  SmallVector<Value> defined;
  for (unsigned i : phaseReductions[phaseIndex]) {
    const PhaseReduction &r = reductions[i];
    vec.reduce(r.combiner, r.narrowValue, r.accumulator);
    if (r.init)
      vec.binary(r.combineOp, r.narrowValue, r.narrowValue, r.initRegister);
    narrowOf[r.op->getResult(0)] = r.narrowValue;
    defined.push_back(r.op->getResult(0));
  }
  if (!phase.rowOps.empty()) {
    for (auto [v, narrow] : narrowOf)
      reg[v] = narrow;
    SmallVector<std::pair<Value, ktunit::Reg>> wideArguments;
    for (auto [arg, narrow] : narrowArgument) {
      wideArguments.push_back({arg, reg[arg]});
      reg[arg] = narrow;
    }
    Block &block = *(*phase.rowOps.begin())->getBlock();
    llvm::DenseSet<Operation *> computed;
    for (Operation &op : block) {
      if (!phase.rowOps.contains(&op))
        continue;
      auto vop = llvm::cast<ks::VectorOp>(op);
      std::optional<double> value = vop.getKind() == "const" ? constantOf(vop.getResult())
                                                             : std::nullopt;
      if (!value) {
        computed.insert(&op);
        continue;
      }
      ktunit::Reg r = vec.newReg();
      vec.vconst(r, registerTypeOf(vop.getResult().getType()).value_or(dc::ElemType::F32),
                 Elements(1), *value);
      reg[vop.getResult()] = r;
    }
    const llvm::DenseMap<Value, ktunit::Reg> none;
    if (failed(body(computed, none, [](unsigned, ktunit::Reg) {})))
      return failure();
    for (Operation &op : block)
      if (phase.rowOps.contains(&op)) {
        narrowOf[op.getResult(0)] = reg[op.getResult(0)];
        defined.push_back(op.getResult(0));
      }
    for (auto [arg, wide] : wideArguments)
      reg[arg] = wide;
  }
  for (Value v : defined)
    if (split.broadcastRowValues.contains(v))
      vec.bcast(broadcastOf[v], narrowOf[v], 0, Elements(vectorWidth));
  for (auto [v, wide] : broadcastOf)
    if (narrowOf.count(v))
      reg[v] = wide;
  return vec.status();
}

LogicalResult PhaseNest::emitCompute(ktunit::ProgramBuilder &vec, ArrayRef<int64_t> extent,
                                     llvm::DenseMap<Value, ktunit::Reg> &reg, ReadFn read,
                                     BodyFn body, WriteFn write) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  int64_t count = (extent[last] + vectorWidth - 1) / vectorWidth;
  SmallVector<std::pair<bool, int64_t>> loops;
  const llvm::DenseMap<Value, ktunit::Reg> none;
  // Fresh registers per tile: a carried value lives within one row.
  carried.clear();
  narrowOf.clear();
  if (carryInRegisters)
    for (Value v : split.carried)
      for (int64_t k = 0; k < count; ++k)
        carried[v].push_back(vec.newReg());
  openRows(vec, extent, pos, loops);
  for (unsigned p = 0; p + 1 < split.phases.size(); ++p)
    if (failed(foldPhase(vec, p, extent, reg, pos, read, body)))
      return failure();
  const Phase &final = split.final();
  if (carryInRegisters) {
    for (int64_t k = 0; k < count; ++k) {
      pos.constant[last] = k * vectorWidth;
      bindCarried(final, k, reg);
      if (failed(read(pos, final.residentArgsRead)) ||
          failed(body(final.residentOps, none,
                      [&](unsigned i, ktunit::Reg r) { write(i, r, pos); })))
        return failure();
    }
    pos.constant[last] = 0;
  } else {
    unsigned finalIndex = split.phases.size() - 1;
    for (int64_t q = 0; q < (parts ? parts->count : 1); ++q) {
      if (parts)
        parts->begin(finalIndex, q);
      bool opened = open(vec, parts ? parts->vectorsPerPart : count, last, vectorWidth, pos);
      if (failed(stepVector(final, pos, none, reg, read, body,
                            [&](unsigned i, ktunit::Reg r) { write(i, r, pos); })))
        return failure();
      close(vec, opened, last, pos);
      if (parts)
        parts->end(finalIndex, q);
    }
  }
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
  // Scratchpad: the row's slot is read from the first phase reading a
  // carried value on (every phase writing one came before it).
  bool reading = false;
  for (const Phase &phase : split.phases) {
    ArrayRef<bool> args = argsOf(phase);
    bool carriedIn = spill && !phase.carriedIn.empty();
    if (carriedIn && !reading) {
      spill->loadSide(true);
      reading = true;
    }
    if (llvm::none_of(args, [](bool read) { return read; }) && !carriedIn)
      continue;
    bool opened = open(b, vectors, last, vectorWidth, pos);
    if (carriedIn)
      for (Value v : phase.carriedIn)
        spill->push(pos, v);
    visit(pos, args);
    close(b, opened, last, pos);
  }
  if (reading)
    spill->loadSide(false);
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
  int64_t vectors = (extent[last] + vectorWidth - 1) / vectorWidth;
  // Scratchpad: the carried values the reduction phases send, per vector,
  // into the row's slot, before the final phase's results.
  if (spill) {
    spill->storeSide(true);
    for (const Phase &phase : split.phases) {
      if (phase.carriedOut.empty())
        continue;
      bool opened = open(b, vectors, last, vectorWidth, pos);
      for (Value v : phase.carriedOut)
        spill->pop(pos, v);
      close(b, opened, last, pos);
    }
    spill->storeSide(false);
  }
  bool opened = open(b, vectors, last, vectorWidth, pos);
  visit(pos);
  close(b, opened, last, pos);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    close(b, it->first, it->second, pos);
}
