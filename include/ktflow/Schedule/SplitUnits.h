//===- SplitUnits.h - the unit of work a split deals out ---------*- C++ -*-===//
//
// ktsched-split deals a grid tile's work out to the sub-core instances in
// whole units along one dimension; ktsched-classify-tiles deals a partly
// masked tile's valid work out the same way. Both ask what a unit is along
// each dimension, which is answered once, here: a vector step along the
// innermost dimension, whole granules of a reduction's results, whole row
// units of a column operand, whole rows where dense rows or packed stores
// must not be cut.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_SPLITUNITS_H
#define KTFLOW_SCHEDULE_SPLITUNITS_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/KTSched.h"

namespace ktflow::ktsched {

/// Elements per unit of split work along each dimension of `group`'s space
/// (its compute stage's `vector` decision made).
llvm::SmallVector<int64_t> splitUnitSizes(GroupOp group, const arch::ArchModel &model,
                                          const Placement &placement);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_SPLITUNITS_H
