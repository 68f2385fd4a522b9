//===- UnboundLaunchValues.cpp - launch values left symbolic ---------------===//
//
// Strategy (DESIGN.md, "Launch values": an unbound scalar stays symbolic
// where the schedule can carry it as a table entry). Tile shapes, buffer
// sizes and addresses must stay static, so the scheduler sees the kernel
// at the runtime_arg's upperbound: its value is replaced by the upperbound,
// which sizes the views (their allocation) and gives every loop its most
// iterations. What the real value changes is recorded before that: each
// scf.for upper bound that depends on it, as an affine map of the grid
// coordinates and the unbound values (`ktsched.symbolic_ub`), from which
// the lowering writes per-core trip counts as launch-table entries. A use
// the table cannot carry — a subscript, a splat, a lower bound or a step,
// anything but a loop's upper bound or a view's size — leaves the value
// unbound, and the input check names the argument to bind with --arg.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/LaunchValues.h"

#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/KTDP/LaunchArgs.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

/// `value` as an affine expression of the grid coordinates (dims) and the
/// unbound launch values (`symbols`: extraction result -> symbol).
FailureOr<AffineExpr> traceBound(Value value, const llvm::DenseMap<Value, unsigned> &symbols) {
  MLIRContext *ctx = value.getContext();
  if (auto it = symbols.find(value); it != symbols.end())
    return getAffineSymbolExpr(it->second, ctx);
  Operation *def = value.getDefiningOp();
  if (!def)
    return failure();
  if (isa<ktdp::GetComputeTileIdOp>(def))
    return getAffineDimExpr(cast<OpResult>(value).getResultNumber(), ctx);
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return getAffineConstantExpr(*c, ctx);
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return traceBound(def->getOperand(0), symbols);
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> lhs = traceBound(def->getOperand(0), symbols);
  FailureOr<AffineExpr> rhs = traceBound(def->getOperand(1), symbols);
  if (failed(lhs) || failed(rhs))
    return failure();
  auto rhsConst = dyn_cast<AffineConstantExpr>(*rhs);
  if (isa<arith::AddIOp>(def))
    return *lhs + *rhs;
  if (isa<arith::SubIOp>(def))
    return *lhs - *rhs;
  if (isa<arith::MulIOp>(def) && (rhsConst || isa<AffineConstantExpr>(*lhs)))
    return *lhs * *rhs;
  // Launch values, grid coordinates and what they count are non-negative,
  // so truncating and flooring division agree.
  if (rhsConst && rhsConst.getValue() > 0) {
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp>(def))
      return lhs->floorDiv(rhsConst.getValue());
    if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp>(def))
      return lhs->ceilDiv(rhsConst.getValue());
    if (isa<arith::RemUIOp, arith::RemSIOp>(def))
      return *lhs % rhsConst.getValue();
  }
  return failure();
}

bool isScalarArith(Operation *op) {
  return op->getDialect() && op->getDialect()->getNamespace() == "arith" &&
         op->getNumResults() == 1 && op->getResult(0).getType().isIntOrIndex();
}

} // namespace

LogicalResult ktflow::ktsched::carryUnboundLaunchValues(Operation *kernelOp) {
  auto kernel = cast<func::FuncOp>(kernelOp);
  Block &entry = kernel.getBody().front();
  SmallVector<std::string> names = ktdp::argumentNames(kernel);
  MLIRContext *ctx = kernel.getContext();
  llvm::DenseMap<Value, unsigned> symbols;
  SmallVector<Attribute> recorded;
  SmallVector<std::pair<ktdp::RuntimeArgExtractOp, int64_t>> toReplace;
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<ktdp::RuntimeArgType>(arg.getType());
    if (!type || !type.getUpperbound())
      continue;
    SmallVector<ktdp::RuntimeArgExtractOp> extracts;
    for (Operation *user : arg.getUsers())
      if (auto extract = dyn_cast<ktdp::RuntimeArgExtractOp>(user);
          extract && extract.getKind() == ktdp::RuntimeArgExtractKind::Value)
        extracts.push_back(extract);
    if (extracts.empty())
      continue;
    const std::string &name = names[arg.getArgNumber()];
    unsigned symbol = recorded.size();
    // Everything the value reaches must end in a loop upper bound or a
    // view size.
    SmallVector<Value> work;
    for (ktdp::RuntimeArgExtractOp extract : extracts) {
      symbols[extract.getResult()] = symbol;
      work.push_back(extract.getResult());
    }
    llvm::DenseSet<Value> seen;
    bool carried = true;
    while (carried && !work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (auto loop = dyn_cast<scf::ForOp>(user); loop && use.get() == loop.getUpperBound() &&
                                                   use.getOperandNumber() == 1)
          continue;
        if (auto view = dyn_cast<ktdp::ConstructMemoryViewOp>(user);
            view && llvm::is_contained(view.getSizes(), v))
          continue;
        if (isScalarArith(user)) {
          work.push_back(user->getResult(0));
          continue;
        }
        // Not carried: the value stays unbound, and the input check names
        // the argument to bind where a construct needs it.
        carried = false;
      }
    }
    if (!carried) {
      for (ktdp::RuntimeArgExtractOp extract : extracts)
        symbols.erase(extract.getResult());
      continue;
    }
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    os << type.getValueType();
    int64_t granularity = type.getGranularity().value_or(1);
    recorded.push_back(DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, "arg"),
                             IntegerAttr::get(IntegerType::get(ctx, 64), arg.getArgNumber())),
              NamedAttribute(StringAttr::get(ctx, "name"), StringAttr::get(ctx, name)),
              NamedAttribute(StringAttr::get(ctx, "type"), StringAttr::get(ctx, typeText)),
              NamedAttribute(StringAttr::get(ctx, "granularity"),
                             IntegerAttr::get(IntegerType::get(ctx, 64), granularity)),
              NamedAttribute(StringAttr::get(ctx, "upperbound"),
                             IntegerAttr::get(IntegerType::get(ctx, 64), *type.getUpperbound()))}));
    for (ktdp::RuntimeArgExtractOp extract : extracts)
      toReplace.push_back({extract, *type.getUpperbound()});
  }
  if (recorded.empty())
    return success();
  // The loops' symbolic upper bounds, before the values become constants.
  WalkResult walk = kernel.walk([&](scf::ForOp loop) {
    FailureOr<AffineExpr> ub = traceBound(loop.getUpperBound(), symbols);
    if (failed(ub))
      return WalkResult::advance(); // not symbolic, or left for the input check
    if (ub->isSymbolicOrConstant() && !llvm::any_of(symbols, [&](auto &entry) {
          return ub->isFunctionOfSymbol(entry.second);
        }))
      return WalkResult::advance();
    loop->setAttr(kSymbolicUpperBoundAttr,
                  AffineMapAttr::get(AffineMap::get(3, recorded.size(), *ub)));
    return WalkResult::advance();
  });
  (void)walk;
  for (auto [extract, upperbound] : toReplace) {
    OpBuilder builder(extract);
    Value constant = arith::ConstantOp::create(
        builder, extract.getLoc(), builder.getIntegerAttr(extract.getType(), upperbound));
    extract.getResult().replaceAllUsesWith(constant);
  }
  kernel->setAttr(kUnboundLaunchValuesAttr, ArrayAttr::get(ctx, recorded));
  return success();
}
