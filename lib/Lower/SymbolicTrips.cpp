//===- SymbolicTrips.cpp - loop trips set by unbound launch values ---------===//
//
// Strategy. A group loop whose upper bound depends on a launch value left
// unbound (`ub_symbolic`, docs/schedule.md §0) is lowered at the
// upperbounds: every tile shape, slot and address is the one the largest
// admitted value gives. Which of those tiles a core runs is decided at
// launch: tile k of a sub-core runs iff k < (tiles per iteration) * trips,
// trips = max(0, ceildiv(ub - lb, step)) of the core's grid tile. Each
// tile's part of every program is enclosed in a loop of 0 or 1 trips whose
// count is a launch-table entry (a table column the runtime computes from
// the launch values), so every program skips exactly the tiles every other
// program skips, and the channels' acquires and releases stay paired for
// every admitted value. The counts are checked here against the
// upperbound's: no admitted value may run more tiles than were laid out.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

#include "ktflow/DeviceCode/LaunchTable.h"
#include "ktflow/Schedule/LaunchValues.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

static int64_t evaluateAt(AffineExpr expr, ArrayRef<int64_t> symbols) {
  SmallVector<AffineExpr> values;
  for (int64_t v : symbols)
    values.push_back(getAffineConstantExpr(v, expr.getContext()));
  AffineExpr folded = simplifyAffineExpr(expr.replaceSymbols(values), 0, 0);
  return cast<AffineConstantExpr>(folded).getValue();
}

LogicalResult GroupLowering::collectSymbolicTrips(DictionaryAttr loop, ArrayRef<int64_t> grid) {
  auto ubMap = loop.getAs<AffineMapAttr>("ub_symbolic");
  auto lbMap = loop.getAs<AffineMapAttr>("lb");
  std::vector<ks::UnboundLaunchValue> unbound = ks::unboundLaunchValuesOf(kernel);
  if (!ubMap || !lbMap || unbound.size() != ubMap.getValue().getNumSymbols())
    return group.emitError("group loop's `ub_symbolic` does not match the kernel's unbound "
                           "launch values");
  // The admitted values are enumerated to check the counts: one unbound
  // value per kernel keeps that linear.
  if (unbound.size() != 1)
    return group.emitError("a loop bound by ")
           << unbound.size() << " unbound launch values: bind all but one with --arg";
  launchNames.clear();
  for (const ks::UnboundLaunchValue &v : unbound)
    launchNames.push_back(v.name);
  std::vector<int64_t> admitted = ks::admittedValues(unbound.front());
  MLIRContext *ctx = kernel.getContext();
  int64_t gridTiles = grid[0] * grid[1] * grid[2];
  for (int64_t c = 0; c < gridTiles; ++c) {
    SmallVector<AffineExpr> coords = {
        getAffineConstantExpr(c % grid[0], ctx), getAffineConstantExpr((c / grid[0]) % grid[1], ctx),
        getAffineConstantExpr(c / (grid[0] * grid[1]), ctx), getAffineConstantExpr(0, ctx)};
    AffineMap ub = ubMap.getValue(), lb = lbMap.getValue();
    coords.resize(std::max(ub.getNumDims(), lb.getNumDims()), getAffineConstantExpr(0, ctx));
    AffineExpr ubExpr = ub.getResult(0).replaceDims(ArrayRef(coords).take_front(ub.getNumDims()));
    AffineExpr lbExpr = lb.getResult(0).replaceDims(ArrayRef(coords).take_front(lb.getNumDims()));
    AffineExpr trips = simplifyAffineExpr((ubExpr - lbExpr).ceilDiv(loopStep), 0, unbound.size());
    int64_t fewest = std::numeric_limits<int64_t>::max();
    for (int64_t v : admitted) {
      int64_t t = std::max<int64_t>(0, evaluateAt(trips, {v}));
      if (t > loopTripsOf[c])
        return group.emitError("grid tile ")
               << c << " runs " << t << " loop iterations for " << launchNames.front() << "="
               << v << ", more than the " << loopTripsOf[c] << " at its upperbound "
               << unbound.front().upperbound << ": not lowered (bind it with --arg "
               << launchNames.front() << "=VALUE)";
      fewest = std::min(fewest, t);
    }
    symbolicTrips.push_back(trips);
    fewestTrips.push_back(fewest);
  }
  return success();
}

bool GroupLowering::openTileGuard(ktunit::ProgramBuilder &program, InstanceTable &table,
                                  int64_t j, int64_t k, ArrayRef<int64_t> rowCores) {
  if (!symbolic())
    return false;
  int64_t perIteration = tilesPerIteration[j];
  if (llvm::all_of(rowCores, [&](int64_t c) { return k < perIteration * fewestTrips[c]; }))
    return false;
  // Tile k runs iff k < perIteration * trips, i.e. for 0 <= k:
  // min(1, max(0, perIteration * trips - k)).
  std::vector<std::string> exprs;
  std::vector<int64_t> placeholders;
  for (int64_t c : rowCores) {
    std::string trips = ks::launchExprText(symbolicTrips[c], launchNames);
    exprs.push_back(llvm::formatv("min(1, max(0, {0} * {1} - {2}))", perIteration, trips, k).str());
    placeholders.push_back(k < perIteration * loopTripsOf[c] ? 1 : 0);
  }
  program.openGuard(table.launchColumn(exprs, placeholders));
  return true;
}

void GroupLowering::recordUnboundLaunchValues() {
  if (!symbolic() || unitBundle->hasAttr("launch_values"))
    return;
  MLIRContext *ctx = unitBundle.getContext();
  SmallVector<Attribute> entries;
  Builder b(ctx);
  for (const ks::UnboundLaunchValue &v : ks::unboundLaunchValuesOf(kernel))
    entries.push_back(b.getDictionaryAttr(
        {b.getNamedAttr("name", b.getStringAttr(v.name)),
         b.getNamedAttr("arg", b.getI64IntegerAttr(v.arg)),
         b.getNamedAttr("type", b.getStringAttr(v.type)),
         b.getNamedAttr("granularity", b.getI64IntegerAttr(v.granularity)),
         b.getNamedAttr("upperbound", b.getI64IntegerAttr(v.upperbound))}));
  unitBundle->setAttr("launch_values", b.getArrayAttr(entries));
}
