//===- VectorCompute.cpp - the vector compute stage: bodies and pieces ------===//
//
// Strategy. The vector compute kind: a compute body's ktsched.vop ops
// become one ktunit vector op each, through the device code's opcode table
// (the op class the supported-op table assigns), every value in a virtual
// register of its own; ktunit-allocate-registers decides which physical
// registers they share. A wider buffer type's vector moves in pieces,
// joined with `concat` and cut with `slice`.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

int64_t GroupLowering::resultPieces(const Transfer &t, const SpacePosition &pos,
                                    ArrayRef<int64_t> extent) const {
  int64_t all = piecesOf(t);
  if (!reduction || !reduction->isRowReduction() || all <= 1)
    return all;
  int64_t dim = reduction->resultDim();
  // A vector inside a loop over the row groups is a whole one; only the
  // last group of a tile, at a constant position, can be partial.
  if (dim < 0 || !pos.terms[dim].empty())
    return all;
  int64_t valid = std::clamp<int64_t>(extent[dim] - pos.constant[dim], 0, vectorWidth);
  int64_t perPiece = vectorWidth / all;
  return std::max<int64_t>(1, (valid + perPiece - 1) / perPiece);
}

int64_t GroupLowering::storedResultElements(const Transfer &t, ArrayRef<int64_t> extent) const {
  int64_t padded = reduction->resultElements(extent);
  int64_t dim = reduction->resultDim();
  if (!reduction->isRowReduction() || dim < 0 || piecesOf(t) <= 1)
    return padded;
  int64_t rows = extent[dim], perPiece = vectorWidth / piecesOf(t);
  int64_t whole = rows / vectorWidth * vectorWidth;
  return whole + (rows - whole + perPiece - 1) / perPiece * perPiece;
}

void GroupLowering::allocatePieceRegisters(ktunit::ProgramBuilder &vec) {
  pieceRegisters.reset();
  bool needed = llvm::any_of(llvm::concat<const Transfer>(loads, stores),
                             [&](const Transfer &t) { return piecesOf(t) > 1; });
  if (needed)
    pieceRegisters = {vec.newReg(), vec.newReg()};
}

void GroupLowering::gatherPieces(
    ktunit::ProgramBuilder &vec, ktunit::Reg r, const Transfer &t, int64_t pieces,
    llvm::function_ref<void(ktunit::Reg, dc::ElemType, Elements, int64_t)> fetch) {
  dc::ElemType type = t.regType.value_or(elemType);
  // One access holds `vectorBytes`: the whole step of the narrowest type,
  // a part of a wider one's.
  Elements perPiece = toElements(toBytes(Elements(vectorWidth), esize), t.esize);
  if (pieces <= 1) {
    fetch(r, type, perPiece, 0);
    return;
  }
  assert(pieceRegisters && "a transfer of several pieces without piece registers");
  auto [a, b] = *pieceRegisters;
  fetch(a, type, perPiece, 0);
  fetch(b, type, perPiece, 1);
  vec.concat(r, a, b);
  for (int64_t p = 2; p < pieces; ++p) {
    fetch(a, type, perPiece, p);
    vec.concat(r, r, a);
  }
}

void GroupLowering::scatterPieces(ktunit::ProgramBuilder &vec, ktunit::Reg r, const Transfer &t,
                                  llvm::function_ref<void(ktunit::Reg, int64_t)> put,
                                  std::optional<int64_t> pieces) {
  int64_t all = piecesOf(t);
  if (all <= 1) {
    put(r, 0);
    return;
  }
  assert(pieceRegisters && "a transfer of several pieces without piece registers");
  // A message and an access take the register as it is when they issue,
  // so one piece register serves every piece.
  int64_t perPiece = vectorWidth / all;
  for (int64_t p = 0; p < pieces.value_or(all); ++p) {
    vec.slice(pieceRegisters->first, r, p * perPiece, Elements(perPiece));
    put(pieceRegisters->first, p);
  }
}

LogicalResult GroupLowering::emitBody(ktunit::ProgramBuilder &vec,
                                      llvm::DenseMap<Value, ktunit::Reg> &reg,
                                      llvm::function_ref<void(unsigned, ktunit::Reg)> sink,
                                      const llvm::DenseMap<Value, ktunit::Reg> *fixed,
                                      const llvm::DenseSet<Operation *> *only) {
  Block &body = computeStage->getRegion(0).front();
  // Every value gets a virtual register of its own; which physical
  // registers they share is ktunit-allocate-registers' decision.
  for (Operation &op : body) {
    if (only && !only->contains(&op))
      continue;
    if (auto yield = llvm::dyn_cast<ks::YieldOp>(op)) {
      if (!reduction)
        for (auto [i, v] : llvm::enumerate(yield.getValues()))
          sink(i, reg[v]);
      continue;
    }
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (!vop)
      return op.emitError("unexpected op in a compute body");
    if (reduction && ReductionNest::isReductionOnly(vop))
      continue;
    bool isFixed = fixed && fixed->count(vop.getResult());
    // A value stored unchanged (`out = in`) needs no instruction: the
    // compute unit forwards the register it received (a register the
    // caller fixed gets a `mov`).
    if (vop.getKind() == "copy" && vop->getNumOperands() == 1 && !isFixed) {
      reg[vop.getResult()] = reg[vop->getOperand(0)];
      continue;
    }
    if (vop.getKind() == "copy" && vop->getNumOperands() == 1) {
      ktunit::Reg dst = fixed->find(vop.getResult())->second;
      vec.unary(dc::Opcode::Mov, dst, reg[vop->getOperand(0)]);
      reg[vop.getResult()] = dst;
      continue;
    }
    ktunit::Reg r = isFixed ? fixed->find(vop.getResult())->second : vec.newReg();
    reg[vop.getResult()] = r;
    StringRef kind = vop.getKind();
    if (kind == "const") {
      auto value = vop->getAttr("value");
      double x = 0;
      if (auto f = llvm::dyn_cast_or_null<FloatAttr>(value))
        x = f.getValueAsDouble();
      else if (auto n = llvm::dyn_cast_or_null<IntegerAttr>(value))
        x = n.getInt();
      else
        return vop.emitError("constant without a numeric value");
      vec.vconst(r, registerType(vop.getResult().getType()).value_or(elemType),
                 Elements(vectorWidth), x);
      continue;
    }
    if (kind == "reduce")
      return vop.emitError("reductions are not lowered yet");
    // The one table: the vop kind is the op class the supported-op
    // table assigned, and the instruction must pay that op class.
    bool known = llvm::any_of(ks::supportedOps(), [&](const ks::OpSupport &s) {
      return s.opClass == kind;
    });
    auto opcode = dc::parseOpcode(kind);
    if (!known || !opcode || dc::opClassOf(*opcode) != kind)
      return vop.emitError("vector op '") << kind << "' has no device-code instruction";
    SmallVector<ktunit::Reg> operands;
    for (Value v : vop.getOperands())
      operands.push_back(reg[v]);
    if (kind == "cast") {
      std::string name;
      llvm::raw_string_ostream os(name);
      vop.getResult().getType().print(os);
      auto to = dc::parseElemType(name);
      if (!to)
        return vop.emitError("cast to ") << vop.getResult().getType()
                                         << " has no vector registers";
      vec.cast(r, *to, operands[0]);
    } else if (dc::isBinaryArith(*opcode) && operands.size() == 2) {
      vec.binary(*opcode, r, operands[0], operands[1]);
    } else if ((dc::isUnaryArith(*opcode) || *opcode == dc::Opcode::Mov) &&
               operands.size() == 1) {
      vec.unary(*opcode, r, operands[0]);
    } else if (dc::isTernaryArith(*opcode) && operands.size() == 3) {
      vec.ternary(*opcode, r, operands[0], operands[1], operands[2]);
    } else if (*opcode == dc::Opcode::Select && operands.size() == 3) {
      vec.select(r, operands[0], operands[1], operands[2]);
    } else if (*opcode == dc::Opcode::Cmp && operands.size() == 2) {
      auto name = vop->getAttrOfType<StringAttr>("predicate");
      auto predicate = name ? dc::parsePredicate(name.getValue()) : std::nullopt;
      if (!predicate)
        return vop.emitError("compare without a lane-wise predicate");
      vec.cmp(*predicate, r, operands[0], operands[1]);
    } else {
      return vop.emitError("vector op '") << kind << "' with " << operands.size()
                                          << " operands has no instruction form";
    }
  }
  return vec.status();
}
