//===- Jobs.h - run independent work items on N threads ---------*- C++ -*-===//
//
// `--jobs N` of the long commands: items are handed out in index order to
// N threads; each result goes to its item's slot, so the output keeps the
// serial order whatever order the items finish in. The worker index lets a
// caller keep per-thread state (an MLIRContext each: contexts and the
// modules in them are not shared between threads).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SUPPORT_JOBS_H
#define KTFLOW_SUPPORT_JOBS_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstddef>

namespace ktflow {

/// The default of --jobs: the machine's hardware threads (at least 1).
unsigned defaultJobs();

/// Calls `work(worker, index)` once for every index in [0, count), on
/// min(jobs, count) threads (the calling thread alone when that is 1);
/// `worker` is in [0, jobs) and the same thread always has the same one.
/// Returns when every call has returned.
void runJobs(size_t count, unsigned jobs, llvm::function_ref<void(unsigned, size_t)> work);

} // namespace ktflow

#endif // KTFLOW_SUPPORT_JOBS_H
