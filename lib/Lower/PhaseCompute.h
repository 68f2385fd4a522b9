//===- PhaseCompute.h - vector loop nests of a group of phases --*- C++ -*-===//
//
// Internal to lib/Lower. A compute group of several phases (`phases` on the
// group: softmax, layernorm, rmsnorm) reduces each row, then computes on
// the row again with that per-row value, possibly reducing again. It is
// lowered like an element-wise group (same programs, buffers, stores and
// synchronisation) except for the order in which the row's vectors are
// visited: once per phase, from the slot that stays resident in
// scratchpad, each phase recomputing or (`phase_values = registers`)
// reading the earlier phases' per-vector results. This class owns that
// order; the caller supplies how an input vector is read (recv or vload),
// how a subset of the body is emitted, and how a result vector is written,
// each at a position in the iteration space.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_PHASECOMPUTE_H
#define KTFLOW_LIB_LOWER_PHASECOMPUTE_H

#include "ReductionNest.h"

#include "ktflow/Schedule/PhaseValues.h"

#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace ktflow::lower {

/// One reduction of a phase: the row value it folds and how.
struct PhaseReduction {
  mlir::Operation *op = nullptr;
  mlir::Value operand;
  dc::Combiner combiner = dc::Combiner::Add;
  dc::Opcode combineOp = dc::Opcode::Add;
  /// The init value, or none when it is the combiner's identity.
  std::optional<double> init;
  dc::ElemType type = dc::ElemType::F16;
  /// Accumulator of the row's vectors; the row's result as one element
  /// (what per-row ops read) and broadcast to every lane (what per-vector
  /// ops read); the init as one element.
  ktunit::Reg accumulator = 0, narrowValue = 0, rowValue = 0, initRegister = 0;
};

class PhaseNest {
public:
  /// Splits the body of `computeStage` into its phases: per reduction phase
  /// the body ops computed for every vector of a row (up to the operands of
  /// its reductions) and the per-row ops on their results; then the final
  /// phase's ops up to the stored values. Diagnoses the shapes not lowered.
  /// `carryInRegisters` is the schedule's `phase_values = registers`;
  /// `carryOnly` the values `phase_values = scratchpad` carries.
  static mlir::FailureOr<PhaseNest> analyze(mlir::Operation *computeStage,
                                            llvm::ArrayRef<int64_t> space, int64_t reduceDim,
                                            int64_t vectorWidth, llvm::ArrayRef<bool> splatArgs,
                                            bool carryInRegisters,
                                            const llvm::DenseSet<mlir::Value> *carryOnly = nullptr);

  /// Takes the accumulators, row values and inits; binds each reduction's
  /// result to its row value in `reg`.
  mlir::LogicalResult allocate(ktunit::ProgramBuilder &vec,
                               llvm::DenseMap<mlir::Value, ktunit::Reg> &reg);

  /// Reads the body arguments marked in `argsRead` for the vector at the
  /// position (recv, or vload from the resident slot).
  using ReadFn =
      llvm::function_ref<mlir::LogicalResult(const SpacePosition &, llvm::ArrayRef<bool>)>;
  using SinkFn = llvm::function_ref<void(unsigned, ktunit::Reg)>;
  /// Emits the body ops of `only` (in body order) with the fixed result
  /// registers; yielded values go to the sink.
  using BodyFn = llvm::function_ref<mlir::LogicalResult(
      const llvm::DenseSet<mlir::Operation *> &, const llvm::DenseMap<mlir::Value, ktunit::Reg> &,
      SinkFn)>;
  using WriteFn = llvm::function_ref<void(unsigned, ktunit::Reg, const SpacePosition &)>;
  using VisitFn = llvm::function_ref<void(const SpacePosition &, llvm::ArrayRef<bool>)>;

  /// The compute unit's work on one tile of `extent`: per row, every
  /// reduction phase folds the row's vectors, then the final phase
  /// computes and writes them.
  mlir::LogicalResult emitCompute(ktunit::ProgramBuilder &vec, llvm::ArrayRef<int64_t> extent,
                                  llvm::DenseMap<mlir::Value, ktunit::Reg> &reg, ReadFn read,
                                  BodyFn body, WriteFn write);
  /// Visits the input vectors (with the arguments each phase reads) in the
  /// order emitCompute consumes them.
  void emitInputOrder(ktunit::ProgramBuilder &b, llvm::ArrayRef<int64_t> extent, VisitFn visit);
  /// The arguments each phase reads that reads any, in phase order (the
  /// passes over a row that emitInputOrder visits).
  llvm::SmallVector<llvm::ArrayRef<bool>, 3> inputPhases() const {
    llvm::SmallVector<llvm::ArrayRef<bool>, 3> passes;
    for (const Phase &phase : split.phases)
      if (llvm::is_contained(argsOf(phase), true))
        passes.push_back(argsOf(phase));
    return passes;
  }
  /// A streamed row read by a compute unit that accesses its slots itself
  /// (two scratchpad levels, StreamedPhases.cpp): every phase visits the
  /// row's vectors in `count` parts of `vectorsPerPart`, `begin(phase,
  /// part)` before a part's first vector and `end(phase, part)` after its
  /// last; positions are then relative to the part's start. The row must
  /// be whole vectors and `phase_values = recompute`.
  struct Parts {
    int64_t vectorsPerPart = 0, count = 0;
    std::function<void(unsigned, int64_t)> begin, end;
  };
  void setParts(std::optional<Parts> p) { parts = std::move(p); }
  /// The schedule's `phase_values = scratchpad`: each phase computes what
  /// the carried form does, its carried-out values leave per vector
  /// (`send`, the compute unit to the store unit, which `pop`s them into
  /// the row's slot) and its carried-in values come back (`receive` from
  /// the load unit, which `push`es them from the slot before the vector's
  /// arguments). `storeSide`/`loadSide` bracket each row's writes and
  /// reads of the slot (acquire on true, release on false).
  struct Spill {
    std::function<void(mlir::Value, ktunit::Reg)> send;
    std::function<ktunit::Reg(mlir::Value)> receive;
    std::function<void(const SpacePosition &, mlir::Value)> push, pop;
    std::function<void(bool)> loadSide, storeSide;
  };
  void setSpill(std::optional<Spill> s) { spill = std::move(s); }
  bool carriesInScratchpad() const { return spill.has_value(); }
  /// Every value some phase carries to a later one (in body order).
  const llvm::SetVector<mlir::Value> &carriedValues() const { return split.carried; }
  /// The phases, the final one included.
  size_t phaseCount() const { return split.phases.size(); }
  /// Whether per-phase values are carried in registers (`phase_values`).
  bool carriesInRegisters() const { return carryInRegisters; }
  /// Visits the result vectors in the order emitCompute produces them.
  void emitOutputOrder(ktunit::ProgramBuilder &b, llvm::ArrayRef<int64_t> extent,
                       llvm::function_ref<void(const SpacePosition &)> visit);

private:
  using Phase = ktsched::PhaseSplit::Phase;
  /// The ops a phase computes per vector and the arguments it reads.
  const llvm::DenseSet<mlir::Operation *> &opsOf(const Phase &phase) const {
    return carryInRegisters || spill ? phase.residentOps : phase.vectorOps;
  }
  llvm::ArrayRef<bool> argsOf(const Phase &phase) const {
    return carryInRegisters || spill ? phase.residentArgsRead : phase.argsRead;
  }
  /// One vector of a phase in the loop form: its carried-in values back
  /// (scratchpad), its arguments, its ops, its carried-out values out.
  mlir::LogicalResult stepVector(const Phase &phase, const SpacePosition &pos,
                                 const llvm::DenseMap<mlir::Value, ktunit::Reg> &fixed,
                                 llvm::DenseMap<mlir::Value, ktunit::Reg> &reg, ReadFn read,
                                 BodyFn body, SinkFn sink);
  bool open(ktunit::ProgramBuilder &b, int64_t count, int64_t dim, int64_t multiplier,
            SpacePosition &pos);
  void close(ktunit::ProgramBuilder &b, bool opened, int64_t dim, SpacePosition &pos);
  /// Opens the loops of the dimensions before the rows and of the rows.
  void openRows(ktunit::ProgramBuilder &b, llvm::ArrayRef<int64_t> extent, SpacePosition &pos,
                llvm::SmallVectorImpl<std::pair<bool, int64_t>> &loops);
  mlir::LogicalResult foldPhase(ktunit::ProgramBuilder &vec, unsigned phase,
                                llvm::ArrayRef<int64_t> extent,
                                llvm::DenseMap<mlir::Value, ktunit::Reg> &reg, SpacePosition &pos,
                                ReadFn read, BodyFn body);
  /// The carried form of a phase's vectors: every vector its own step,
  /// reading and writing its registers in `carried`.
  mlir::LogicalResult foldCarried(ktunit::ProgramBuilder &vec, unsigned phase, int64_t count,
                                  int64_t partial, llvm::DenseMap<mlir::Value, ktunit::Reg> &reg,
                                  SpacePosition &pos, ReadFn read, BodyFn body);
  /// Points the carried-in values of `phase` at vector k's registers and
  /// returns the registers its carried-out values are written to.
  llvm::DenseMap<mlir::Value, ktunit::Reg> bindCarried(const Phase &phase, int64_t k,
                                                       llvm::DenseMap<mlir::Value, ktunit::Reg> &reg);
  /// The per-row tail of a reduction phase: each result reduced, its init
  /// folded in and broadcast, then the phase's per-row ops.
  mlir::LogicalResult finishRow(ktunit::ProgramBuilder &vec, unsigned phase,
                                llvm::DenseMap<mlir::Value, ktunit::Reg> &reg, BodyFn body);

  ktsched::PhaseSplit split;
  bool carryInRegisters = false;
  std::optional<Parts> parts;
  std::optional<Spill> spill;
  int64_t rank = 0, vectorWidth = 0, rowDim = -1;
  llvm::SmallVector<PhaseReduction, 2> reductions;
  /// Per reduction phase, its reductions (indices into `reductions`).
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>, 2> phaseReductions;
  /// Per carried value, its register for each vector of the current row.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<ktunit::Reg>> carried;
  /// The broadcast register of each per-row op result a per-vector op
  /// reads, and one element of each splat argument a per-row op reads.
  llvm::DenseMap<mlir::Value, ktunit::Reg> broadcastOf, narrowArgument;
  /// The one-element register of each per-row value computed so far.
  llvm::DenseMap<mlir::Value, ktunit::Reg> narrowOf;
  ktunit::Reg scratch = 0;
  uint32_t depth = 0;
};

} // namespace ktflow::lower

#endif // KTFLOW_LIB_LOWER_PHASECOMPUTE_H
