//===- SplitUnits.cpp - the unit of work a split deals out ----------------===//
//
// One rule for ktsched-split and ktsched-classify-tiles (SplitUnits.h): a
// share that is not whole units would leave a DMA run the description's
// access rule forbids (a row cut inside a granule, results below one).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/SplitUnits.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include <numeric>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

SmallVector<int64_t> ktflow::ktsched::splitUnitSizes(GroupOp group, const ArchModel &model,
                                                     const Placement &placement) {
  ArrayRef<int64_t> space = group.getSpace();
  int64_t rank = space.size();
  SmallVector<int64_t> unitSizes(rank, 1);
  if (rank == 0)
    return unitSizes;
  StageOp compute = computeStage(group);
  int64_t lanes = compute ? decisionInt(compute, "vector").value_or(1) : 1;
  // Whole vector steps of the lowering (buffers of a narrower type than the
  // group's make a step of more elements than lanes).
  unitSizes[rank - 1] = vectorStep(group, lanes);
  ArrayRef<int64_t> reduced = group.getReduceDims();
  Bytes granule = memoryGranule(model, placement.global);
  // A reduction's stored results are whole granules per sub-core (a group
  // of phases keeps them and stores whole rows).
  if (reduced.size() == 1 && reductionResultsLeave(group)) {
    int64_t resultDim = reduced[0] == rank - 1 ? rank - 2 : rank - 1;
    if (resultDim >= 0)
      unitSizes[resultDim] =
          std::lcm(unitSizes[resultDim], granuleElements(group, granule));
  }
  // A column operand's slice is whole granules only in whole units of rows
  // (64 f16 rows on spyre).
  if (rank >= 2)
    unitSizes[rank - 2] =
        std::lcm(unitSizes[rank - 2], columnOperandRowUnit(group, granule));
  // A column reduction whose rows are dense keeps them whole: a share of
  // its columns would be a strided copy the DMA forbids.
  if (keepsWholeRows(group, model))
    unitSizes[rank - 1] = space[rank - 1];
  // An element-wise group whose stores pack their rows (dense stores)
  // splits whole rows, each share starting on a granule.
  if (int64_t unit = packedRowUnit(group, model); unit > 1 && rank >= 2) {
    unitSizes[rank - 2] = std::lcm(unitSizes[rank - 2], unit);
    unitSizes[rank - 1] = space[rank - 1];
  }
  return unitSizes;
}
