//===- ArithEval.cpp - arith and math ops ---------------------------------===//
//
// Every arith/math op is one kernel of Elementwise.h applied to scalars or,
// elementwise, to tensors of equal shape (no implicit broadcasting, ktir.md
// §6.2). This file only maps op classes to kernel kinds and checks the
// run-time conditions the verifier cannot (equal dynamic shapes, division
// by zero, rounding modes).
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::interp;

namespace {
/// Applies a kernel to the operands of the current op, which are all
/// scalars or all tensors of one shape.
class ElementwiseApplier {
public:
  ElementwiseApplier(TileExecutor &ex, Operation *op) : ex(ex), op(op) {}

  bool tensors() {
    return std::holds_alternative<TensorPtr>(ex.get(op->getOperand(0)));
  }
  void checkShapes(ArrayRef<Value> operands) {
    auto first = ex.tensor(operands[0]);
    for (Value v : operands.drop_front())
      if (ex.tensor(v)->shape() != first->shape())
        ex.fail("operand shapes differ: " + formatShape(first->shape()) +
                " vs " + formatShape(ex.tensor(v)->shape()));
  }

  void unary(FloatUnary k) {
    Value a = op->getOperand(0);
    if (tensors())
      ex.set(op->getResult(0), applyUnary(k, *ex.tensor(a)));
    else
      ex.set(op->getResult(0), applyUnary(k, ex.scalar(a)));
  }
  void binary(FloatBinary k) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (tensors()) {
      checkShapes({a, b});
      ex.set(op->getResult(0), applyBinary(k, *ex.tensor(a), *ex.tensor(b)));
    } else {
      ex.set(op->getResult(0), applyBinary(k, ex.scalar(a), ex.scalar(b)));
    }
  }
  void binary(IntBinary k) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (tensors()) {
      checkShapes({a, b});
      int64_t bad = -1;
      TensorPtr r = applyBinary(k, *ex.tensor(a), *ex.tensor(b), bad);
      if (!r)
        ex.fail("integer division by zero at element " + llvm::Twine(bad));
      ex.set(op->getResult(0), r);
    } else {
      Scalar r;
      if (!applyBinary(k, ex.scalar(a), ex.scalar(b), r))
        ex.fail("integer division by zero (" + formatScalar(ex.scalar(a)) +
                " / " + formatScalar(ex.scalar(b)) + ")");
      ex.set(op->getResult(0), r);
    }
  }
  void cast(CastKind k) {
    ElemKind to = elemKindOf(op->getResult(0).getType());
    Value a = op->getOperand(0);
    if (tensors())
      ex.set(op->getResult(0), applyCast(k, to, *ex.tensor(a)));
    else
      ex.set(op->getResult(0), applyCast(k, to, ex.scalar(a)));
  }
  template <class Pred>
  void cmp(Pred p) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (tensors()) {
      checkShapes({a, b});
      ex.set(op->getResult(0), compare(p, *ex.tensor(a), *ex.tensor(b)));
    } else {
      ex.set(op->getResult(0),
             Scalar::ofInt(ElemKind::I1, compare(p, ex.scalar(a), ex.scalar(b))));
    }
  }
  void fma() {
    if (tensors()) {
      checkShapes({op->getOperand(0), op->getOperand(1), op->getOperand(2)});
      ex.set(op->getResult(0), applyFma(*ex.tensor(op->getOperand(0)),
                                        *ex.tensor(op->getOperand(1)),
                                        *ex.tensor(op->getOperand(2))));
    } else {
      ex.set(op->getResult(0), applyFma(ex.scalar(op->getOperand(0)),
                                        ex.scalar(op->getOperand(1)),
                                        ex.scalar(op->getOperand(2))));
    }
  }

private:
  TileExecutor &ex;
  Operation *op;
};
} // namespace

/// The value of an arith.constant attribute.
static RtValue constantValue(Attribute attr, Type type) {
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    ElemKind k = elemKindOf(type);
    return Scalar::ofInt(k, i.getValue().getSExtValue());
  }
  if (auto f = dyn_cast<FloatAttr>(attr))
    return Scalar::ofFloat(elemKindOf(type), f.getValue().convertToDouble());
  if (auto b = dyn_cast<BoolAttr>(attr))
    return Scalar::ofInt(ElemKind::I1, b.getValue());
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!dense || !tensorType || !tensorType.hasStaticShape())
    throw InterpError{"unsupported constant"};
  ElemKind k = elemKindOf(type);
  auto t = std::make_shared<Tensor>(k, tensorType.getShape());
  auto element = [&](Attribute a) -> Scalar {
    return std::get<Scalar>(constantValue(a, tensorType.getElementType()));
  };
  if (dense.isSplat()) {
    t->fill(element(dense.getSplatValue<Attribute>()));
    return TensorPtr(t);
  }
  int64_t i = 0;
  for (Attribute a : dense.getValues<Attribute>())
    t->set(i++, element(a));
  return TensorPtr(t);
}

bool TileExecutor::execArith(Operation *op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto it = launch.constants.find(op);
    if (it == launch.constants.end())
      it = launch.constants.insert({op, constantValue(c.getValue(), c.getType())}).first;
    set(c.getResult(), it->second);
    return true;
  }
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    const RtValue &cond = get(sel.getCondition());
    if (auto *s = std::get_if<Scalar>(&cond)) {
      set(sel.getResult(), get(s->i ? sel.getTrueValue() : sel.getFalseValue()));
      return true;
    }
    TensorPtr c = std::get<TensorPtr>(cond);
    TensorPtr a = tensor(sel.getTrueValue()), b = tensor(sel.getFalseValue());
    if (c->shape() != a->shape() || a->shape() != b->shape())
      fail("select operand shapes differ");
    set(sel.getResult(), select(*c, *a, *b));
    return true;
  }
  if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
    if (auto mode = trunc.getRoundingmode())
      if (*mode != arith::RoundingMode::to_nearest_even)
        fail("arith.truncf rounding mode '" +
             arith::stringifyRoundingMode(*mode) + "' is not supported");
  }
  ElementwiseApplier ew(*this, op);
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](arith::AddFOp) { ew.binary(FloatBinary::Add); return true; })
      .Case([&](arith::SubFOp) { ew.binary(FloatBinary::Sub); return true; })
      .Case([&](arith::MulFOp) { ew.binary(FloatBinary::Mul); return true; })
      .Case([&](arith::DivFOp) { ew.binary(FloatBinary::Div); return true; })
      .Case([&](arith::RemFOp) { ew.binary(FloatBinary::Rem); return true; })
      .Case([&](arith::MaximumFOp) { ew.binary(FloatBinary::MaximumF); return true; })
      .Case([&](arith::MinimumFOp) { ew.binary(FloatBinary::MinimumF); return true; })
      .Case([&](arith::MaxNumFOp) { ew.binary(FloatBinary::MaxNumF); return true; })
      .Case([&](arith::MinNumFOp) { ew.binary(FloatBinary::MinNumF); return true; })
      .Case([&](arith::NegFOp) { ew.unary(FloatUnary::Neg); return true; })
      .Case([&](arith::AddIOp) { ew.binary(IntBinary::Add); return true; })
      .Case([&](arith::SubIOp) { ew.binary(IntBinary::Sub); return true; })
      .Case([&](arith::MulIOp) { ew.binary(IntBinary::Mul); return true; })
      .Case([&](arith::DivSIOp) { ew.binary(IntBinary::DivS); return true; })
      .Case([&](arith::DivUIOp) { ew.binary(IntBinary::DivU); return true; })
      .Case([&](arith::RemSIOp) { ew.binary(IntBinary::RemS); return true; })
      .Case([&](arith::RemUIOp) { ew.binary(IntBinary::RemU); return true; })
      .Case([&](arith::FloorDivSIOp) { ew.binary(IntBinary::FloorDivS); return true; })
      .Case([&](arith::CeilDivSIOp) { ew.binary(IntBinary::CeilDivS); return true; })
      .Case([&](arith::CeilDivUIOp) { ew.binary(IntBinary::CeilDivU); return true; })
      .Case([&](arith::AndIOp) { ew.binary(IntBinary::And); return true; })
      .Case([&](arith::OrIOp) { ew.binary(IntBinary::Or); return true; })
      .Case([&](arith::XOrIOp) { ew.binary(IntBinary::Xor); return true; })
      .Case([&](arith::ShLIOp) { ew.binary(IntBinary::Shl); return true; })
      .Case([&](arith::ShRSIOp) { ew.binary(IntBinary::ShrS); return true; })
      .Case([&](arith::ShRUIOp) { ew.binary(IntBinary::ShrU); return true; })
      .Case([&](arith::MaxSIOp) { ew.binary(IntBinary::MaxS); return true; })
      .Case([&](arith::MaxUIOp) { ew.binary(IntBinary::MaxU); return true; })
      .Case([&](arith::MinSIOp) { ew.binary(IntBinary::MinS); return true; })
      .Case([&](arith::MinUIOp) { ew.binary(IntBinary::MinU); return true; })
      .Case([&](arith::ExtFOp) { ew.cast(CastKind::ExtF); return true; })
      .Case([&](arith::TruncFOp) { ew.cast(CastKind::TruncF); return true; })
      .Case([&](arith::SIToFPOp) { ew.cast(CastKind::SIToFP); return true; })
      .Case([&](arith::UIToFPOp) { ew.cast(CastKind::UIToFP); return true; })
      .Case([&](arith::FPToSIOp) { ew.cast(CastKind::FPToSI); return true; })
      .Case([&](arith::FPToUIOp) { ew.cast(CastKind::FPToUI); return true; })
      .Case([&](arith::ExtSIOp) { ew.cast(CastKind::ExtSI); return true; })
      .Case([&](arith::ExtUIOp) { ew.cast(CastKind::ExtUI); return true; })
      .Case([&](arith::TruncIOp) { ew.cast(CastKind::TruncI); return true; })
      .Case([&](arith::IndexCastOp) { ew.cast(CastKind::IndexCast); return true; })
      .Case([&](arith::IndexCastUIOp) { ew.cast(CastKind::IndexCastUI); return true; })
      .Case([&](arith::BitcastOp) { ew.cast(CastKind::Bitcast); return true; })
      .Case([&](arith::CmpFOp c) { ew.cmp(c.getPredicate()); return true; })
      .Case([&](arith::CmpIOp c) { ew.cmp(c.getPredicate()); return true; })
      .Default([](Operation *) { return false; });
}

bool TileExecutor::execMath(Operation *op) {
  ElementwiseApplier ew(*this, op);
  if (auto absi = dyn_cast<math::AbsIOp>(op)) {
    auto absScalar = [](Scalar s) { return Scalar::ofInt(s.kind, s.i < 0 ? -s.i : s.i); };
    const RtValue &v = get(absi.getOperand());
    if (auto *s = std::get_if<Scalar>(&v)) {
      set(absi.getResult(), absScalar(*s));
    } else {
      TensorPtr t = std::get<TensorPtr>(v);
      auto out = std::make_shared<Tensor>(t->kind(), t->shape());
      for (int64_t i = 0; i < t->numElements(); ++i)
        out->set(i, absScalar(t->get(i)));
      set(absi.getResult(), TensorPtr(out));
    }
    return true;
  }
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](math::ExpOp) { ew.unary(FloatUnary::Exp); return true; })
      .Case([&](math::Exp2Op) { ew.unary(FloatUnary::Exp2); return true; })
      .Case([&](math::ExpM1Op) { ew.unary(FloatUnary::Expm1); return true; })
      .Case([&](math::LogOp) { ew.unary(FloatUnary::Log); return true; })
      .Case([&](math::Log2Op) { ew.unary(FloatUnary::Log2); return true; })
      .Case([&](math::Log10Op) { ew.unary(FloatUnary::Log10); return true; })
      .Case([&](math::Log1pOp) { ew.unary(FloatUnary::Log1p); return true; })
      .Case([&](math::SqrtOp) { ew.unary(FloatUnary::Sqrt); return true; })
      .Case([&](math::RsqrtOp) { ew.unary(FloatUnary::Rsqrt); return true; })
      .Case([&](math::TanhOp) { ew.unary(FloatUnary::Tanh); return true; })
      .Case([&](math::SinOp) { ew.unary(FloatUnary::Sin); return true; })
      .Case([&](math::CosOp) { ew.unary(FloatUnary::Cos); return true; })
      .Case([&](math::TanOp) { ew.unary(FloatUnary::Tan); return true; })
      .Case([&](math::AtanOp) { ew.unary(FloatUnary::Atan); return true; })
      .Case([&](math::ErfOp) { ew.unary(FloatUnary::Erf); return true; })
      .Case([&](math::CbrtOp) { ew.unary(FloatUnary::Cbrt); return true; })
      .Case([&](math::AbsFOp) { ew.unary(FloatUnary::Abs); return true; })
      .Case([&](math::CeilOp) { ew.unary(FloatUnary::Ceil); return true; })
      .Case([&](math::FloorOp) { ew.unary(FloatUnary::Floor); return true; })
      .Case([&](math::RoundOp) { ew.unary(FloatUnary::Round); return true; })
      .Case([&](math::RoundEvenOp) { ew.unary(FloatUnary::RoundEven); return true; })
      .Case([&](math::TruncOp) { ew.unary(FloatUnary::Trunc); return true; })
      .Case([&](math::PowFOp) { ew.binary(FloatBinary::Pow); return true; })
      .Case([&](math::Atan2Op) { ew.binary(FloatBinary::Atan2); return true; })
      .Case([&](math::CopySignOp) { ew.binary(FloatBinary::CopySign); return true; })
      .Case([&](math::FmaOp) { ew.fma(); return true; })
      .Default([](Operation *) { return false; });
}
