//===- FoldGridConditions.cpp - scf.if that every grid tile takes alike ---===//
//
// Strategy. Frontends guard a kernel's body with conditions such as
// `%pid < %n` that, once the launch values are bound, hold on every grid
// tile (or on none): the grid is small and static, so the condition — a
// constant, or an arith.cmpi of two indices affine in the grid ids — is
// evaluated on every tile. When all agree, the branch taken replaces the
// scf.if (its yielded values the if's results); otherwise the if stays and
// the input check names it. Conditions that depend on a loop variable or on
// data are left alone.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/KTDPOps.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_FOLDGRIDCONDITIONS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

/// The kernel's grid, padded to three dimensions.
static SmallVector<int64_t, 3> gridOf(func::FuncOp func) {
  SmallVector<int64_t, 3> grid;
  if (auto array = func->getAttrOfType<ArrayAttr>("grid")) {
    for (Attribute a : array)
      if (auto i = dyn_cast<IntegerAttr>(a))
        grid.push_back(i.getInt());
  } else if (auto dense = func->getAttrOfType<DenseI64ArrayAttr>("grid")) {
    grid.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  }
  while (grid.size() < 3)
    grid.push_back(1);
  return grid;
}

static bool compare(arith::CmpIPredicate predicate, int64_t a, int64_t b) {
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return a < b;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return a <= b;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    return a > b;
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    return a >= b;
  }
  return false;
}

/// The condition's value if it is the same on every grid tile. Indices are
/// non-negative here (grid ids, sizes), so signed and unsigned agree.
static std::optional<bool> uniformValue(Value condition, ArrayRef<int64_t> grid) {
  if (std::optional<int64_t> c = getConstantIntValue(condition))
    return *c != 0;
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  FailureOr<AffineExpr> lhs = traceAffineIndex(cmp.getLhs(), Value());
  FailureOr<AffineExpr> rhs = traceAffineIndex(cmp.getRhs(), Value());
  if (failed(lhs) || failed(rhs))
    return std::nullopt;
  AffineMap map = AffineMap::get(kOriginDims, 0, {*lhs, *rhs}, condition.getContext());
  std::optional<bool> value;
  for (int64_t z = 0; z < grid[2]; ++z)
    for (int64_t y = 0; y < grid[1]; ++y)
      for (int64_t x = 0; x < grid[0]; ++x) {
        SmallVector<int64_t> at = {x, y, z};
        at.resize(kOriginDims, 0);
        SmallVector<int64_t> sides = map.compose(at);
        bool taken = compare(cmp.getPredicate(), sides[0], sides[1]);
        if (value && *value != taken)
          return std::nullopt;
        value = taken;
      }
  return value;
}

namespace {
struct FoldGridConditionsPass
    : ktflow::ktsched::impl::FoldGridConditionsBase<FoldGridConditionsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      SmallVector<int64_t, 3> grid = gridOf(func);
      SmallVector<scf::IfOp> ifs;
      func.walk([&](scf::IfOp op) { ifs.push_back(op); });
      IRRewriter rewriter(func.getContext());
      for (scf::IfOp op : ifs) {
        std::optional<bool> taken = uniformValue(op.getCondition(), grid);
        if (!taken)
          continue;
        Region &region = *taken ? op.getThenRegion() : op.getElseRegion();
        if (region.empty()) {
          // No else: nothing runs, and an if without an else has no results.
          rewriter.eraseOp(op);
          continue;
        }
        Block &block = region.front();
        auto yield = cast<scf::YieldOp>(block.getTerminator());
        SmallVector<Value> results(yield.getOperands());
        rewriter.eraseOp(yield);
        rewriter.inlineBlockBefore(&block, op);
        rewriter.replaceOp(op, results);
      }
    }
  }
};
} // namespace
