//===- ReduceKernel.h - shrink a failing kernel spec ------------*- C++ -*-===//
//
// `reduceKernel(spec, stillFails)` is a greedy test-case reducer at the
// KernelSpec level: it tries smaller variants (drop an output, bypass an
// operation, drop unused buffers, shrink the shape, shrink the grid,
// simplify the work division) and keeps each one the predicate still
// accepts, until no variant is accepted or the budget of predicate calls is
// spent. Every candidate passes KernelSpec::validate() before it is tried.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_GEN_REDUCEKERNEL_H
#define KTFLOW_GEN_REDUCEKERNEL_H

#include "ktflow/Gen/KernelSpec.h"

#include <functional>

namespace ktflow::gen {

/// Returns the smallest variant of `spec` found for which `stillFails` holds
/// (`spec` itself if none). `maxAttempts` bounds the predicate calls.
KernelSpec reduceKernel(const KernelSpec &spec,
                        const std::function<bool(const KernelSpec &)> &stillFails,
                        unsigned maxAttempts = 200);

} // namespace ktflow::gen

#endif // KTFLOW_GEN_REDUCEKERNEL_H
