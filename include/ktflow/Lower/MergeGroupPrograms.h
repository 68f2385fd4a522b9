//===- MergeGroupPrograms.h - one program per unit instance over groups ---===//
//
// A kernel with several compute groups is lowered group by group; each group
// appends its own programs. A unit instance runs at most one program, so the
// per-group programs of an instance are concatenated in group order.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LOWER_MERGEGROUPPROGRAMS_H
#define KTFLOW_LOWER_MERGEGROUPPROGRAMS_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"

#include <vector>

namespace ktflow::lower {

/// Merges the programs of `bundle` group by group: `groupStarts[g]` is the
/// index of group g's first program (ascending; group g ends where g+1
/// starts). Every instance gets one program whose body is its programs of
/// group 0, 1, ... in order and whose table row is their rows side by side
/// (column references renumbered). Instances with the same sequence of
/// group programs share one merged program. Each group must leave every
/// semaphore and FIFO drained at its end (the lowering's contract), so the
/// next group starts from a clean state.
void mergeGroupPrograms(dc::Bundle &bundle, const std::vector<size_t> &groupStarts,
                        const arch::ArchModel &model);

} // namespace ktflow::lower

#endif // KTFLOW_LOWER_MERGEGROUPPROGRAMS_H
