//===- StaticChecks.h - checks on device code before it runs ----*- C++ -*-===//
//
// What the lowering runs before emitting a bundle (and `ktflow sim` before
// simulating): every unit uses only the registers and semaphores its
// description gives it, every buffer fits its memory, and the
// FIFO/semaphore structure cannot deadlock.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SIM_STATICCHECKS_H
#define KTFLOW_SIM_STATICCHECKS_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Sim/Simulator.h"
#include "llvm/Support/Error.h"

namespace ktflow::sim {

/// Every register an instruction names is one of the executing unit's
/// `vector_registers`, and every semaphore one of the `semaphores` of the
/// unit that owns it (the executing unit for `wait`, the peer for
/// `signal`). verifyBundle checks only the encoding's bounds; the counts
/// are facts of the description. The simulator runs this before it starts.
llvm::Error checkUnitResources(const dc::Bundle &bundle, const arch::ArchModel &model);

/// Every address range a program can touch (over all table rows and loop
/// iterations) lies within the usable capacity of its memory, and within
/// its symbol for symbol-relative addresses; the symbols together fit the
/// global memory.
llvm::Error checkCapacity(const dc::Bundle &bundle, const arch::ArchModel &model);

/// Runs the programs with synchronisation only (no values, no time). All
/// loops are counted, so control flow does not depend on data, and a unit
/// blocks only on its own FIFOs and semaphores: if this run deadlocks,
/// every run does. The error lists who waits on what and the cycle of
/// waits. A run past `limits` (instructions; this run takes no time) is an
/// error too.
llvm::Error checkDeadlockFree(const dc::Bundle &bundle, const arch::ArchModel &model,
                              const SimLimits &limits = {});

} // namespace ktflow::sim

#endif // KTFLOW_SIM_STATICCHECKS_H
