//===- ContractionEpilogue.cpp - a contraction's epilogue body ------------===//
//
// The epilogue region holds ktsched.vop ops on one element at a time; on
// a vector unit each becomes one instruction over a register of the
// accumulator's block or row, through the device code's opcode table as a
// compute body's ops do (VectorCompute.cpp), constants splat to the
// register's lanes.
//
//===----------------------------------------------------------------------===//
#include "ContractionEpilogue.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower::detail;

FailureOr<ktunit::Reg> ktflow::lower::detail::emitEpilogueBody(
    ktunit::ProgramBuilder &vec, Block &body, DenseMap<Value, ktunit::Reg> &values,
    Elements lanes) {
  for (auto vop : body.getOps<ks::VectorOp>()) {
    std::optional<dc::ElemType> type = registerType(vop.getResult().getType());
    if (!type)
      return vop.emitError("epilogue value of a type without vector registers");
    ktunit::Reg r = vec.newReg();
    if (vop.getKind() == "const") {
      auto attr = dyn_cast_or_null<FloatAttr>(vop->getAttr("value"));
      if (!attr)
        return vop.emitError("epilogue constant that is not a float");
      vec.vconst(r, *type, lanes, attr.getValueAsDouble());
      values[vop.getResult()] = r;
      continue;
    }
    SmallVector<ktunit::Reg, 3> in;
    for (Value operand : vop.getOperands())
      in.push_back(values.lookup(operand));
    std::optional<dc::Opcode> opcode = dc::parseOpcode(vop.getKind());
    if (vop.getKind() == "cast" && in.size() == 1)
      vec.cast(r, *type, in[0]);
    else if (!opcode || in.empty() || in.size() > 3)
      return vop.emitError("epilogue op '") << vop.getKind() << "' has no vector instruction";
    else if (in.size() == 1)
      vec.unary(*opcode, r, in[0]);
    else if (in.size() == 2)
      vec.binary(*opcode, r, in[0], in[1]);
    else
      vec.ternary(*opcode, r, in[0], in[1], in[2]);
    values[vop.getResult()] = r;
  }
  return values.lookup(body.getTerminator()->getOperand(0));
}
