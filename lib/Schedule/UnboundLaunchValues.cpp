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
#include "ktflow/Schedule/ScheduleUtils.h"

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
FailureOr<AffineExpr> traceBound(Value value, const llvm::DenseMap<Value, unsigned> &symbols,
                                 Value iv = {}) {
  MLIRContext *ctx = value.getContext();
  if (iv && value == iv)
    return getAffineDimExpr(3, ctx);
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
    return traceBound(def->getOperand(0), symbols, iv);
  if (def->getNumOperands() != 2)
    return failure();
  FailureOr<AffineExpr> lhs = traceBound(def->getOperand(0), symbols, iv);
  FailureOr<AffineExpr> rhs = traceBound(def->getOperand(1), symbols, iv);
  if (failed(lhs) || failed(rhs))
    return failure();
  return combineAffineOperands(def, *lhs, *rhs);
}

int64_t evaluate(AffineExpr e, ArrayRef<int64_t> dims, int64_t symbol) {
  MLIRContext *ctx = e.getContext();
  SmallVector<AffineExpr> d, s = {getAffineConstantExpr(symbol, ctx)};
  for (int64_t v : dims)
    d.push_back(getAffineConstantExpr(v, ctx));
  d.resize(4, getAffineConstantExpr(0, ctx));
  return cast<AffineConstantExpr>(simplifyAffineExpr(e.replaceDimsAndSymbols(d, s), 0, 0))
      .getValue();
}

/// Whether every access tile over a view that `value` (unbound launch
/// value `symbol`) sizes stays inside the view for every admitted value,
/// grid tile and loop iteration: the tiles are laid out at the upperbound,
/// so this is what makes running fewer of them exact (no tile is partly
/// outside a smaller view, where KTIR would mask its points).
bool accessesStayInside(func::FuncOp kernel, const llvm::DenseMap<Value, unsigned> &symbols,
                        ArrayRef<int64_t> admitted) {
  SmallVector<int64_t> grid;
  if (auto g = kernel->getAttrOfType<ArrayAttr>("grid"))
    for (Attribute a : g)
      grid.push_back(cast<IntegerAttr>(a).getInt());
  grid.resize(3, 1);
  bool inside = true;
  kernel.walk([&](ktdp::ConstructMemoryViewOp view) {
    SmallVector<std::pair<unsigned, AffineExpr>> symbolicSizes;
    unsigned entry = 0;
    for (auto [k, size] : llvm::enumerate(view.getStaticSizes())) {
      if (!ShapedType::isDynamic(size))
        continue;
      FailureOr<AffineExpr> e = traceBound(view.getSizes()[entry++], symbols);
      if (failed(e) || !e->isSymbolicOrConstant())
        inside = false;
      else if (succeeded(e) && !isa<AffineConstantExpr>(*e))
        symbolicSizes.push_back({unsigned(k), *e});
    }
    if (symbolicSizes.empty())
      return;
    for (Operation *user : view->getUsers()) {
      auto tile = dyn_cast<ktdp::ConstructAccessTileOp>(user);
      auto tileType = tile ? dyn_cast<ktdp::AccessTileType>(tile.getType()) : nullptr;
      if (!tile || !tileType || !tile.getBaseMap().isIdentity() || !tileType.hasStaticShape()) {
        inside = false;
        return;
      }
      auto loop = tile->getParentOfType<scf::ForOp>();
      Value iv = loop ? loop.getInductionVar() : Value();
      SmallVector<AffineExpr> origin;
      for (Value index : tile.getIndices()) {
        FailureOr<AffineExpr> e = traceBound(index, symbols, iv);
        if (failed(e)) {
          inside = false;
          return;
        }
        origin.push_back(*e);
      }
      FailureOr<AffineExpr> lb = loop ? traceBound(loop.getLowerBound(), symbols)
                                      : FailureOr<AffineExpr>(getAffineConstantExpr(0, kernel.getContext()));
      FailureOr<AffineExpr> ub = loop ? traceBound(loop.getUpperBound(), symbols)
                                      : FailureOr<AffineExpr>(getAffineConstantExpr(1, kernel.getContext()));
      std::optional<int64_t> step = loop ? getConstantIntValue(loop.getStep()) : 1;
      if (failed(lb) || failed(ub) || !step || *step <= 0) {
        inside = false;
        return;
      }
      for (int64_t v : admitted)
        for (int64_t g = 0; g < grid[0] * grid[1] * grid[2]; ++g) {
          SmallVector<int64_t> at = {g % grid[0], (g / grid[0]) % grid[1], g / (grid[0] * grid[1])};
          int64_t first = evaluate(*lb, at, v), end = evaluate(*ub, at, v);
          for (int64_t i = first; i < end; i += *step) {
            at.resize(3);
            at.push_back(i);
            for (auto [k, size] : symbolicSizes) {
              int64_t o = evaluate(origin[k], at, v);
              if (o < 0 || o + tileType.getDimSize(k) > evaluate(size, {}, v)) {
                inside = false;
                return;
              }
            }
          }
        }
    }
  });
  return inside;
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
  // One unbound value: its admitted values are enumerated to check that
  // every access stays inside the views it sizes (more are the lowering's
  // to refuse). Where one may not, nothing is carried.
  if (recorded.size() == 1) {
    auto dict = cast<DictionaryAttr>(recorded.front());
    UnboundLaunchValue v;
    v.granularity = dict.getAs<IntegerAttr>("granularity").getInt();
    v.upperbound = dict.getAs<IntegerAttr>("upperbound").getInt();
    if (!accessesStayInside(kernel, symbols, admittedValues(v)))
      return success();
  }
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
