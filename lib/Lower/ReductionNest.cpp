//===- ReductionNest.cpp - vector loop nests of a reducing group ----------===//
//
// Strategy. A fold over the last dimension (a row reduction) keeps one
// accumulator register per reduction: the first vector of a row is the
// accumulator (its inputs are read, or its element-wise result computed,
// straight into it), every further vector is folded in lane-wise with one
// add/max/min, then one `reduce.*` folds the accumulator to one element,
// the init value is combined in (skipped when it is the combiner's
// identity), and `slide` appends the row's result to a collector register.
// After every `lanes` rows the collector is one whole result vector and is
// written; a tile whose row count is not a multiple of the lanes ends with
// padding slides, so its last, partial result vector also starts at lane 0
// (the padding lanes land in the buffer's padding and are never stored to
// global memory). A row that is not whole vectors ends in a partial vector,
// read whole: before it is folded, its padding lanes are replaced by the
// combiner's identity (`ext` of an identity `vconst` and the vector from its
// count of valid lanes on), so the fold sees only valid values (rotated).
//
// A result may pass through an epilogue of element-wise ops with constants
// (a cast to the stored type): it is applied to each whole result vector,
// collector or accumulator, just before that vector is written — once per
// result, not once per input element.
//
// A fold over another dimension (a column reduction) visits the vectors of
// the last dimension outermost and the reduced dimension innermost: each
// result vector is accumulated lane-wise in one register and written whole,
// with no cross-lane step at all; a partial last vector's padding lanes are
// results nobody stores. Dense rows (RowRealign.cpp) are read in memory
// order instead: the reduced rows in periods of rows, each row of a period
// at its own shift, its vectors in turn into one accumulator per vector.
//
// A column operand (one value per row, broadcast across it) is never read
// an element per row: that would be a load-unit push or a vector access at
// every element's address, which the access rules rarely allow. The caller
// holds a block of `vectorWidth` rows' values in a register (HeldRows), and
// the nests visit the rows in such blocks: a row reduction's groups of rows
// are those blocks already; a column reduction's fold over the rows peels
// its first row from the first block, then runs whole blocks and a partial
// last one.
//
// Loops of one iteration are not emitted; positions are tracked as
// constants plus loop-index terms, so the caller turns them into addresses
// with its buffers' pitches (and the load and store units visit vectors in
// exactly the order the compute unit consumes and produces them).
//
//===----------------------------------------------------------------------===//
#include "ReductionNest.h"

#include "ktflow/Schedule/KTSched.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
namespace ks = ktflow::ktsched;

std::optional<double> lower::constantOf(Value value) {
  auto vop = value.getDefiningOp<ks::VectorOp>();
  if (!vop || vop.getKind() != "const")
    return std::nullopt;
  Attribute attr = vop->getAttr("value");
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto n = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return double(n.getInt());
  return std::nullopt;
}

bool ReductionNest::followsReduction(Value value) {
  auto vop = value.getDefiningOp<ks::VectorOp>();
  if (!vop)
    return false;
  if (vop.getKind() == "reduce")
    return true;
  return llvm::any_of(vop->getOperands(), [](Value v) { return followsReduction(v); });
}

bool ReductionNest::isReductionOnly(Operation *op) {
  auto vop = llvm::dyn_cast<ks::VectorOp>(op);
  if (!vop)
    return false;
  if (vop.getKind() == "reduce" || followsReduction(vop.getResult()))
    return true;
  if (vop.getKind() != "const" || vop->use_empty())
    return false;
  return llvm::all_of(vop->getUses(), [](OpOperand &use) {
    auto user = llvm::dyn_cast<ks::VectorOp>(use.getOwner());
    if (!user)
      return false;
    if (user.getKind() == "reduce")
      return use.getOperandNumber() == 1;
    return followsReduction(user.getResult());
  });
}

std::optional<dc::ElemType> lower::registerTypeOf(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  mlir::getElementTypeOrSelf(type).print(os);
  return dc::parseElemType(name);
}

ktunit::Reg ReductionNest::applyEpilogue(ktunit::ProgramBuilder &vec, const ReducedOutput &out,
                                         ktunit::Reg from) {
  ktunit::Reg current = from;
  Value previous = out.op->getResult(0);
  for (Operation *op : out.epilogue) {
    auto vop = llvm::cast<ks::VectorOp>(op);
    SmallVector<ktunit::Reg, 3> operands;
    for (Value v : vop->getOperands()) {
      if (v == previous) {
        operands.push_back(current);
        continue;
      }
      // analyze() admitted only constants beside the previous value.
      ktunit::Reg c = vec.newReg();
      vec.vconst(c, registerTypeOf(v.getType()).value_or(type), Elements(vectorWidth),
                 *constantOf(v));
      operands.push_back(c);
    }
    ktunit::Reg r = vec.newReg();
    dc::Opcode opcode = *dc::parseOpcode(vop.getKind());
    if (vop.getKind() == "cast")
      vec.cast(r, *registerTypeOf(vop.getResult().getType()), operands[0]);
    else if (operands.size() == 1)
      vec.unary(opcode, r, operands[0]);
    else if (operands.size() == 2)
      vec.binary(opcode, r, operands[0], operands[1]);
    else
      vec.ternary(opcode, r, operands[0], operands[1], operands[2]);
    current = r;
    previous = vop.getResult();
  }
  return current;
}

FailureOr<ReductionNest> ReductionNest::analyze(Operation *computeStage, ArrayRef<int64_t> space,
                                                int64_t reduceDim, int64_t vectorWidth,
                                                dc::ElemType type) {
  ReductionNest nest;
  nest.rank = space.size();
  nest.reduceDim = reduceDim;
  nest.vectorWidth = vectorWidth;
  nest.type = type;
  nest.rowReduction = reduceDim == nest.rank - 1;
  nest.rowDim = nest.rowReduction ? nest.rank - 2 : -1;
  Block &body = computeStage->getRegion(0).front();
  auto yield = llvm::dyn_cast<ks::YieldOp>(body.getTerminator());
  if (!yield)
    return computeStage->emitError("compute body does not end in a yield");
  for (Value value : yield.getValues()) {
    auto vop = value.getDefiningOp<ks::VectorOp>();
    // Walk back through the epilogue: element-wise ops with the reduced
    // value and constants as operands.
    SmallVector<Operation *, 2> epilogue;
    while (vop && vop.getKind() != "reduce" && followsReduction(vop.getResult())) {
      Value next;
      for (Value operand : vop->getOperands()) {
        if (followsReduction(operand) && !next) {
          next = operand;
          continue;
        }
        if (followsReduction(operand) || !constantOf(operand))
          return vop.emitError("an op on a reduction's result whose other operands are not "
                               "constants: computing on reduced values is not lowered");
      }
      auto opcode = dc::parseOpcode(vop.getKind());
      if (!opcode || !registerTypeOf(vop.getResult().getType()) ||
          (vop.getKind() != "cast" && !dc::isUnaryArith(*opcode) &&
           !dc::isBinaryArith(*opcode) && !dc::isTernaryArith(*opcode)))
        return vop.emitError("'") << vop.getKind()
                                  << "' on a reduction's result is not lowered";
      epilogue.push_back(vop);
      vop = next.getDefiningOp<ks::VectorOp>();
    }
    if (!vop || vop.getKind() != "reduce")
      return computeStage->emitError("a group with reduced dimensions stores a value that is "
                                     "not a reduction: mixed element-wise and reduced results "
                                     "are not lowered");
    auto dim = vop->getAttrOfType<IntegerAttr>("dim");
    auto combiner = vop->getAttrOfType<StringAttr>("combiner");
    if (!dim || dim.getInt() != reduceDim || !combiner || vop.getNumOperands() != 2)
      return vop.emitError("reduction without a combiner, an init or the group's reduced "
                           "dimension ")
             << reduceDim;
    ReducedOutput out;
    out.op = vop;
    out.operand = vop.getOperand(0);
    out.epilogue.assign(epilogue.rbegin(), epilogue.rend());
    std::string typeName;
    llvm::raw_string_ostream typeOs(typeName);
    mlir::getElementTypeOrSelf(vop.getResult().getType()).print(typeOs);
    out.type = dc::parseElemType(typeName).value_or(type);
    if (combiner.getValue() == "add") {
      out.combiner = dc::Combiner::Add;
      out.combineOp = dc::Opcode::Add;
    } else if (combiner.getValue() == "max") {
      out.combiner = dc::Combiner::Max;
      out.combineOp = dc::Opcode::Max;
    } else if (combiner.getValue() == "min") {
      out.combiner = dc::Combiner::Min;
      out.combineOp = dc::Opcode::Min;
    } else {
      return vop.emitError("reduction combiner '") << combiner.getValue() << "' is not lowered";
    }
    std::optional<double> init = constantOf(vop.getOperand(1));
    if (!init)
      return vop.emitError("reduction init is not a constant: not lowered");
    bool identity = (out.combiner == dc::Combiner::Add && *init == 0.0) ||
                    (out.combiner == dc::Combiner::Max && std::isinf(*init) && *init < 0) ||
                    (out.combiner == dc::Combiner::Min && std::isinf(*init) && *init > 0);
    if (!identity)
      out.init = *init;
    nest.reduced.push_back(out);
  }
  if (nest.reduced.empty())
    return computeStage->emitError("a group with reduced dimensions stores nothing");
  return nest;
}

LogicalResult ReductionNest::allocate(ktunit::ProgramBuilder &vec, Location loc) {
  (void)loc;
  // Virtual registers: ktunit-allocate-registers checks the unit's count.
  auto take = [&]() -> FailureOr<ktunit::Reg> { return vec.newReg(); };
  Elements lanes(vectorWidth);
  for (ReducedOutput &out : reduced) {
    auto acc = take();
    if (failed(acc))
      return failure();
    out.accumulator = *acc;
    if (rowReduction) {
      auto collector = take();
      if (failed(collector))
        return failure();
      out.collector = *collector;
      // `slide` reads its destination: start it defined.
      vec.vconst(out.collector, out.type, lanes, 0.0);
    }
    if (out.init) {
      auto init = take();
      if (failed(init))
        return failure();
      out.initRegister = *init;
      // A row's result is one element; a column result is a whole vector.
      vec.vconst(out.initRegister, out.type, rowReduction ? Elements(1) : lanes, *out.init);
    }
  }
  if (rowReduction) {
    auto s = take();
    if (failed(s))
      return failure();
    scratch = *s;
  }
  return success();
}

bool lower::openNestLoop(ktunit::ProgramBuilder &b, uint32_t &depth, int64_t count, int64_t dim,
                         int64_t multiplier, SpacePosition &pos) {
  if (count <= 1 || dim < 0)
    return false;
  b.loop(count);
  pos.terms[dim].push_back({depth, multiplier});
  ++depth;
  return true;
}

void lower::closeNestLoop(ktunit::ProgramBuilder &b, uint32_t &depth, bool opened, int64_t dim,
                          SpacePosition &pos) {
  if (!opened)
    return;
  b.end();
  pos.terms[dim].pop_back();
  --depth;
}

bool ReductionNest::open(ktunit::ProgramBuilder &b, int64_t count, int64_t dim, int64_t multiplier,
                         SpacePosition &pos) {
  return openNestLoop(b, depth, count, dim, multiplier, pos);
}

void ReductionNest::close(ktunit::ProgramBuilder &b, bool opened, int64_t dim, SpacePosition &pos) {
  closeNestLoop(b, depth, opened, dim, pos);
}

int64_t ReductionNest::resultElements(ArrayRef<int64_t> extent) const {
  if (!rowReduction)
    return extent.back();
  int64_t rows = rowDim >= 0 ? extent[rowDim] : 1;
  return (rows + vectorWidth - 1) / vectorWidth * vectorWidth;
}

LogicalResult ReductionNest::emitCompute(ktunit::ProgramBuilder &vec, ArrayRef<int64_t> extent,
                                         llvm::DenseMap<Value, ktunit::Reg> &reg, Block &body,
                                         ReadFn read, BodyFn emitBody, WriteFn write,
                                         const HeldRows *held) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;

  // A row's last vector of `partial` valid lanes (0: whole) is folded with
  // its padding lanes replaced by the combiner's identity: `ext` of an
  // identity vector and the data from lane `partial` on gives the identity's
  // lanes partial.. followed by the data's lanes 0..partial-1 (rotated, which
  // a lane-wise fold and `reduce.*` do not mind). -0 is the exact identity
  // of a sum, -inf never wins a max (nor +inf a min) over a real value.
  auto identityOf = [](const ReducedOutput &out) {
    switch (out.combiner) {
    case dc::Combiner::Add:
      return -0.0;
    case dc::Combiner::Max:
      return -std::numeric_limits<double>::infinity();
    case dc::Combiner::Min:
      return std::numeric_limits<double>::infinity();
    }
    return 0.0;
  };
  auto masked = [&](const ReducedOutput &out, ktunit::Reg to, ktunit::Reg from, int64_t partial) {
    vec.vconst(scratch, out.type, Elements(vectorWidth), identityOf(out));
    vec.ext(to, scratch, from, partial);
  };

  // One fold: the first vector straight into the accumulators, the others
  // combined lane-wise. `foldDim` is the dimension folded, `step` the
  // elements per vector along it; the last vector has `partial` valid
  // lanes (a row fold only; 0 when it is whole).
  // The first vector of a fold: each reduction's operand is redirected
  // into its accumulator (the first reduction of a value; later ones copy
  // it).
  auto readFirst = [&]() -> LogicalResult {
    llvm::DenseMap<Value, ktunit::Reg> fixed;
    SmallVector<std::pair<BlockArgument, ktunit::Reg>> saved;
    SmallVector<std::pair<ktunit::Reg, ktunit::Reg>> copies;
    for (ReducedOutput &out : reduced) {
      Value v = out.operand;
      if (auto it = fixed.find(v); it != fixed.end()) {
        copies.push_back({out.accumulator, it->second});
        continue;
      }
      if (auto arg = llvm::dyn_cast<BlockArgument>(v)) {
        // Inputs read every vector can land in the accumulator; an input
        // set once per program (a splat) is copied.
        if (!readEveryVector(arg)) {
          copies.push_back({out.accumulator, reg[v]});
          continue;
        }
        saved.push_back({arg, reg[v]});
        reg[v] = out.accumulator;
      }
      fixed[v] = out.accumulator;
    }
    LogicalResult ok = read(pos);
    if (succeeded(ok))
      ok = emitBody(fixed);
    for (auto [arg, r] : saved)
      reg[arg] = r;
    if (failed(ok))
      return failure();
    for (auto [to, from] : copies)
      vec.unary(dc::Opcode::Mov, to, from);
    return success();
  };
  // A further vector of a fold, combined lane-wise into the accumulators.
  auto readNext = [&]() -> LogicalResult {
    if (failed(read(pos)) || failed(emitBody(llvm::DenseMap<Value, ktunit::Reg>())))
      return failure();
    for (ReducedOutput &out : reduced)
      vec.binary(out.combineOp, out.accumulator, out.accumulator, reg[out.operand]);
    return success();
  };
  auto fold = [&](int64_t foldDim, int64_t count, int64_t step,
                  int64_t partial = 0) -> LogicalResult {
    pos.constant[foldDim] = 0;
    if (failed(readFirst()))
      return failure();
    if (count == 1 && partial > 0)
      for (ReducedOutput &out : reduced)
        masked(out, out.accumulator, out.accumulator, partial);
    // The whole vectors after the first, then a partial last one.
    int64_t whole = partial > 0 ? count - 2 : count - 1;
    if (whole > 0) {
      pos.constant[foldDim] = step;
      bool opened = open(vec, whole, foldDim, step, pos);
      if (failed(readNext()))
        return failure();
      close(vec, opened, foldDim, pos);
    }
    if (count > 1 && partial > 0) {
      pos.constant[foldDim] = (count - 1) * step;
      if (failed(read(pos)) || failed(emitBody(llvm::DenseMap<Value, ktunit::Reg>())))
        return failure();
      for (ReducedOutput &out : reduced) {
        masked(out, scratch, reg[out.operand], partial);
        vec.binary(out.combineOp, out.accumulator, out.accumulator, scratch);
      }
    }
    pos.constant[foldDim] = 0;
    return success();
  };

  SmallVector<std::pair<bool, int64_t>> outerLoops;
  for (int64_t d = 0; d < rank; ++d) {
    bool inner = rowReduction ? (d == rowDim || d == last) : (d == reduceDim || d == last);
    if (!inner)
      outerLoops.push_back({open(vec, extent[d], d, 1, pos), d});
  }
  (void)body;
  if (rowReduction) {
    int64_t rows = rowDim >= 0 ? extent[rowDim] : 1;
    int64_t vectors = (extent[last] + vectorWidth - 1) / vectorWidth;
    int64_t partial = extent[last] % vectorWidth;
    int64_t groups = rows / vectorWidth, rest = rows % vectorWidth;
    auto finishRow = [&]() {
      for (ReducedOutput &out : reduced) {
        vec.reduce(out.combiner, scratch, out.accumulator);
        if (out.init)
          vec.binary(out.combineOp, scratch, scratch, out.initRegister);
        vec.slide(out.collector, scratch);
      }
    };
    auto writeAll = [&]() {
      for (auto [i, out] : llvm::enumerate(reduced))
        write(i, applyEpilogue(vec, out, out.collector), pos);
    };
    // `count` rows from the current position: a loop over periods of
    // `rowPeriod` rows each emitted on its own, then the remaining rows.
    // Held column operands broadcast one value per row (HeldRows::row, the
    // next lane of the held block each time), so a period of rows emitted
    // one by one reads them in order too; the period divides the vector
    // width (RowRealign), so every block of held rows starts a period.
    auto foldRows = [&](int64_t count) -> LogicalResult {
      int64_t period = rowDim >= 0 ? rowPeriod : 1;
      int64_t periods = count / period, remaining = count % period;
      auto foldRowAt = [&](int64_t row) -> LogicalResult {
        if (rowDim >= 0)
          pos.constant[rowDim] += row;
        if (held)
          held->row();
        if (failed(fold(last, vectors, vectorWidth, partial)))
          return failure();
        finishRow();
        if (rowDim >= 0)
          pos.constant[rowDim] -= row;
        return success();
      };
      if (periods > 0) {
        bool rowLoop = open(vec, periods, rowDim, period, pos);
        for (int64_t row = 0; row < period; ++row)
          if (failed(foldRowAt(row)))
            return failure();
        close(vec, rowLoop, rowDim, pos);
      }
      for (int64_t row = 0; row < remaining; ++row)
        if (failed(foldRowAt(periods * period + row)))
          return failure();
      return success();
    };
    if (groups > 0) {
      bool groupLoop = open(vec, groups, rowDim, vectorWidth, pos);
      if (held && failed(held->block(pos, vectorWidth)))
        return failure();
      if (failed(foldRows(vectorWidth)))
        return failure();
      writeAll();
      close(vec, groupLoop, rowDim, pos);
    }
    if (rest > 0) {
      if (rowDim >= 0)
        pos.constant[rowDim] += groups * vectorWidth;
      if (held && failed(held->block(pos, rest)))
        return failure();
      if (failed(foldRows(rest)))
        return failure();
      // Padding slides: the first row's result moves down to lane 0. Each
      // collector rotates through itself (the scratch holds the last
      // reduction's type, which another reduction's collector may not).
      for (int64_t p = rest; p < vectorWidth; ++p)
        for (ReducedOutput &out : reduced)
          vec.slide(out.collector, out.collector);
      writeAll();
      if (rowDim >= 0)
        pos.constant[rowDim] -= groups * vectorWidth;
    }
  } else if (denseColumns) {
    // Dense rows: memory order, each reduced row of a period realigned on
    // its own and its vectors folded in turn, one accumulator per vector
    // (the first reduction's own for vector 0).
    int64_t vectors = (extent[last] + vectorWidth - 1) / vectorWidth;
    SmallVector<SmallVector<ktunit::Reg, 4>> accumulators;
    for (ReducedOutput &out : reduced) {
      SmallVector<ktunit::Reg, 4> regs = {out.accumulator};
      for (int64_t k = 1; k < vectors; ++k)
        regs.push_back(vec.newReg());
      accumulators.push_back(regs);
    }
    auto atVector = [&](int64_t k) {
      pos.constant[last] = k * vectorWidth;
      for (size_t i = 0; i < reduced.size(); ++i)
        reduced[i].accumulator = accumulators[i][k];
    };
    // Column operands beside them: a block of rows' values held, one
    // broadcast before each row.
    auto eachRow = [&](bool first) -> LogicalResult {
      if (held)
        held->row();
      for (int64_t k = 0; k < vectors; ++k) {
        atVector(k);
        if (failed(first ? readFirst() : readNext()))
          return failure();
      }
      return success();
    };
    LogicalResult folded =
        held ? walkHeldPeriodRows(vec, extent[reduceDim], reduceDim, pos, *held, eachRow)
             : walkPeriodRows(vec, extent[reduceDim], reduceDim, pos, eachRow);
    if (succeeded(folded))
      for (int64_t k = 0; k < vectors; ++k) {
        atVector(k);
        for (size_t i = 0; i < reduced.size(); ++i) {
          ReducedOutput &out = reduced[i];
          if (out.init)
            vec.binary(out.combineOp, out.accumulator, out.accumulator, out.initRegister);
          write(i, applyEpilogue(vec, out, out.accumulator), pos);
        }
      }
    atVector(0);
    pos.constant[last] = 0;
    if (failed(folded))
      return failure();
  } else {
    // A partial last vector's padding lanes are results nobody stores.
    bool vectorLoop = open(vec, (extent[last] + vectorWidth - 1) / vectorWidth, last,
                           vectorWidth, pos);
    if (held) {
      // The reduced rows in blocks, each row's column values broadcast
      // before it is read.
      if (failed(walkHeldRows(vec, extent[reduceDim], reduceDim, pos, *held, [&](bool first) {
            held->row();
            return first ? readFirst() : readNext();
          })))
        return failure();
    } else if (failed(fold(reduceDim, extent[reduceDim], 1))) {
      return failure();
    }
    for (auto [i, out] : llvm::enumerate(reduced)) {
      if (out.init)
        vec.binary(out.combineOp, out.accumulator, out.accumulator, out.initRegister);
      write(i, applyEpilogue(vec, out, out.accumulator), pos);
    }
    close(vec, vectorLoop, last, pos);
  }
  for (auto it = outerLoops.rbegin(); it != outerLoops.rend(); ++it)
    close(vec, it->first, it->second, pos);
  return success();
}

LogicalResult ReductionNest::walkHeldRows(ktunit::ProgramBuilder &b, int64_t rows, int64_t dim,
                                          SpacePosition &pos, const HeldRows &held,
                                          llvm::function_ref<LogicalResult(bool first)> each) {
  int64_t firstBlock = std::min(rows, vectorWidth);
  pos.constant[dim] = 0;
  if (failed(held.block(pos, firstBlock)) || failed(each(true)))
    return failure();
  if (firstBlock > 1) {
    pos.constant[dim] = 1;
    bool opened = open(b, firstBlock - 1, dim, 1, pos);
    if (failed(each(false)))
      return failure();
    close(b, opened, dim, pos);
  }
  int64_t after = rows - firstBlock, blocks = after / vectorWidth, rest = after % vectorWidth;
  if (blocks > 0) {
    pos.constant[dim] = vectorWidth;
    bool blockLoop = open(b, blocks, dim, vectorWidth, pos);
    if (failed(held.block(pos, vectorWidth)))
      return failure();
    bool rowLoop = open(b, vectorWidth, dim, 1, pos);
    if (failed(each(false)))
      return failure();
    close(b, rowLoop, dim, pos);
    close(b, blockLoop, dim, pos);
  }
  if (rest > 0) {
    pos.constant[dim] = vectorWidth * (1 + blocks);
    if (failed(held.block(pos, rest)))
      return failure();
    bool rowLoop = open(b, rest, dim, 1, pos);
    if (failed(each(false)))
      return failure();
    close(b, rowLoop, dim, pos);
  }
  pos.constant[dim] = 0;
  return success();
}

LogicalResult ReductionNest::walkPeriodRows(ktunit::ProgramBuilder &b, int64_t rows, int64_t dim,
                                            SpacePosition &pos,
                                            llvm::function_ref<LogicalResult(bool first)> each) {
  int64_t period = rowPeriod;
  int64_t head = std::min(period, rows);
  for (int64_t row = 0; row < head; ++row) {
    pos.constant[dim] = row;
    if (failed(each(row == 0)))
      return failure();
  }
  int64_t after = rows - head, periods = after / period, rest = after % period;
  if (periods > 0) {
    bool opened = open(b, periods, dim, period, pos);
    for (int64_t row = 0; row < period; ++row) {
      pos.constant[dim] = head + row;
      if (failed(each(false)))
        return failure();
    }
    close(b, opened, dim, pos);
  }
  for (int64_t row = 0; row < rest; ++row) {
    pos.constant[dim] = head + periods * period + row;
    if (failed(each(false)))
      return failure();
  }
  pos.constant[dim] = 0;
  return success();
}

LogicalResult ReductionNest::walkHeldPeriodRows(
    ktunit::ProgramBuilder &b, int64_t rows, int64_t dim, SpacePosition &pos,
    const HeldRows &held, llvm::function_ref<LogicalResult(bool first)> each) {
  int64_t period = rowPeriod;
  // `count` rows from row `start`; with `peel`, the first period row by
  // row (row 0 the fold's first step), then a loop over whole periods and
  // the remaining rows.
  auto visitRows = [&](int64_t start, int64_t count, bool peel) -> LogicalResult {
    int64_t head = peel ? std::min(period, count) : 0;
    for (int64_t row = 0; row < head; ++row) {
      pos.constant[dim] = start + row;
      if (failed(each(row == 0)))
        return failure();
    }
    int64_t after = count - head, periods = after / period, rest = after % period;
    if (periods > 0) {
      bool opened = open(b, periods, dim, period, pos);
      for (int64_t row = 0; row < period; ++row) {
        pos.constant[dim] = start + head + row;
        if (failed(each(false)))
          return failure();
      }
      close(b, opened, dim, pos);
    }
    for (int64_t row = 0; row < rest; ++row) {
      pos.constant[dim] = start + head + periods * period + row;
      if (failed(each(false)))
        return failure();
    }
    return success();
  };
  int64_t firstBlock = std::min(rows, vectorWidth);
  pos.constant[dim] = 0;
  if (failed(held.block(pos, firstBlock)) || failed(visitRows(0, firstBlock, true)))
    return failure();
  int64_t after = rows - firstBlock, blocks = after / vectorWidth, rest = after % vectorWidth;
  if (blocks > 0) {
    pos.constant[dim] = vectorWidth;
    bool blockLoop = open(b, blocks, dim, vectorWidth, pos);
    if (failed(held.block(pos, vectorWidth)) || failed(visitRows(vectorWidth, vectorWidth, false)))
      return failure();
    close(b, blockLoop, dim, pos);
  }
  if (rest > 0) {
    int64_t start = vectorWidth * (1 + blocks);
    pos.constant[dim] = start;
    if (failed(held.block(pos, rest)) || failed(visitRows(start, rest, false)))
      return failure();
  }
  pos.constant[dim] = 0;
  return success();
}

LogicalResult ReductionNest::emitInputOrder(ktunit::ProgramBuilder &b, ArrayRef<int64_t> extent,
                                            VisitFn visit, const HeldRows *held) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  SmallVector<std::pair<bool, int64_t>> loops;
  for (int64_t d = 0; d < rank; ++d) {
    bool inner = rowReduction ? (d == rowDim || d == last) : (d == reduceDim || d == last);
    if (!inner)
      loops.push_back({open(b, extent[d], d, 1, pos), d});
  }
  int64_t vectors = (extent[last] + vectorWidth - 1) / vectorWidth;
  auto closeAll = [&]() {
    for (auto it = loops.rbegin(); it != loops.rend(); ++it)
      close(b, it->first, it->second, pos);
  };
  // One row of a period: its first vector, then a loop over the others
  // (the order emitCompute's fold reads them in), the last one apart
  // where asked.
  auto visitRow = [&](int64_t row) {
    pos.constant[rowDim] += row;
    visit(pos);
    int64_t looped = lastVectorApart ? vectors - 2 : vectors - 1;
    if (looped > 0) {
      pos.constant[last] = vectorWidth;
      bool opened = open(b, looped, last, vectorWidth, pos);
      visit(pos);
      close(b, opened, last, pos);
    }
    if (lastVectorApart && vectors > 1) {
      pos.constant[last] = (vectors - 1) * vectorWidth;
      visit(pos);
    }
    pos.constant[last] = 0;
    pos.constant[rowDim] -= row;
  };
  // `count` rows from the current position in periods of `rowPeriod` rows,
  // each row of a period on its own, then the remaining rows.
  auto visitPeriods = [&](int64_t count) {
    int64_t periods = count / rowPeriod, remaining = count % rowPeriod;
    if (periods > 0) {
      bool opened = open(b, periods, rowDim, rowPeriod, pos);
      for (int64_t row = 0; row < rowPeriod; ++row)
        visitRow(row);
      close(b, opened, rowDim, pos);
    }
    for (int64_t row = 0; row < remaining; ++row)
      visitRow(periods * rowPeriod + row);
  };
  if (held && rowReduction && rowDim >= 0) {
    // The rows in the groups of emitCompute, each group's held values first.
    int64_t rows = extent[rowDim], groups = rows / vectorWidth, rest = rows % vectorWidth;
    auto rowsOf = [&](int64_t count) {
      if (rowPeriod > 1) {
        visitPeriods(count);
        return;
      }
      bool rowLoop = open(b, count, rowDim, 1, pos);
      bool vectorLoop = open(b, vectors, last, vectorWidth, pos);
      visit(pos);
      close(b, vectorLoop, last, pos);
      close(b, rowLoop, rowDim, pos);
    };
    if (groups > 0) {
      bool groupLoop = open(b, groups, rowDim, vectorWidth, pos);
      if (failed(held->block(pos, vectorWidth)))
        return failure();
      rowsOf(vectorWidth);
      close(b, groupLoop, rowDim, pos);
    }
    if (rest > 0) {
      pos.constant[rowDim] = groups * vectorWidth;
      if (failed(held->block(pos, rest)))
        return failure();
      rowsOf(rest);
      pos.constant[rowDim] = 0;
    }
    closeAll();
    return success();
  }
  if (held && !rowReduction && denseColumns) {
    // Dense rows of a column reduction beside column operands: as below,
    // in blocks of held rows.
    LogicalResult walked =
        walkHeldPeriodRows(b, extent[reduceDim], reduceDim, pos, *held, [&](bool) {
          for (int64_t k = 0; k < vectors; ++k) {
            pos.constant[last] = k * vectorWidth;
            visit(pos);
          }
          pos.constant[last] = 0;
          return success();
        });
    closeAll();
    return walked;
  }
  if (held && !rowReduction) {
    loops.push_back({open(b, vectors, last, vectorWidth, pos), last});
    if (failed(walkHeldRows(b, extent[reduceDim], reduceDim, pos, *held, [&](bool) {
          visit(pos);
          return success();
        })))
      return failure();
    closeAll();
    return success();
  }
  if (!held && rowReduction && rowDim >= 0 && rowPeriod > 1) {
    visitPeriods(extent[rowDim]);
    closeAll();
    return success();
  }
  if (!held && !rowReduction && denseColumns) {
    // Dense rows of a column reduction: the reduced rows in the order
    // emitCompute's period fold reads them, each row's vectors in turn.
    (void)walkPeriodRows(b, extent[reduceDim], reduceDim, pos, [&](bool) {
      for (int64_t k = 0; k < vectors; ++k) {
        pos.constant[last] = k * vectorWidth;
        visit(pos);
      }
      pos.constant[last] = 0;
      return success();
    });
    closeAll();
    return success();
  }
  if (rowReduction) {
    if (rowDim >= 0)
      loops.push_back({open(b, extent[rowDim], rowDim, 1, pos), rowDim});
    loops.push_back({open(b, vectors, last, vectorWidth, pos), last});
  } else {
    loops.push_back({open(b, vectors, last, vectorWidth, pos), last});
    loops.push_back({open(b, extent[reduceDim], reduceDim, 1, pos), reduceDim});
  }
  visit(pos);
  closeAll();
  return success();
}

void ReductionNest::emitOutputOrder(ktunit::ProgramBuilder &b, ArrayRef<int64_t> extent,
                                    VisitFn visit) {
  depth = 0;
  SpacePosition pos(rank);
  int64_t last = rank - 1;
  SmallVector<std::pair<bool, int64_t>> loops;
  for (int64_t d = 0; d < rank; ++d) {
    bool inner = rowReduction ? (d == rowDim || d == last) : (d == reduceDim || d == last);
    if (!inner)
      loops.push_back({open(b, extent[d], d, 1, pos), d});
  }
  if (rowReduction) {
    int64_t rows = rowDim >= 0 ? extent[rowDim] : 1;
    int64_t groups = rows / vectorWidth, rest = rows % vectorWidth;
    if (groups > 0) {
      bool opened = open(b, groups, rowDim, vectorWidth, pos);
      visit(pos);
      close(b, opened, rowDim, pos);
    }
    if (rest > 0) {
      if (rowDim >= 0)
        pos.constant[rowDim] += groups * vectorWidth;
      visit(pos);
      if (rowDim >= 0)
        pos.constant[rowDim] -= groups * vectorWidth;
    }
  } else {
    bool opened = open(b, (extent[last] + vectorWidth - 1) / vectorWidth, last, vectorWidth, pos);
    visit(pos);
    close(b, opened, last, pos);
  }
  for (auto it = loops.rbegin(); it != loops.rend(); ++it)
    close(b, it->first, it->second, pos);
}
