//===- ArchCounts.h - per-unit semaphore and register counts ----*- C++ -*-===//
//
// TEMPORARY stand-in: branch `archcounts` adds validated per-unit ktarch
// fields with ArchModel::semaphoreCount(unit) and
// ArchModel::vectorRegisterCount(unit). Until it is merged these answer
// with device code's encoding limits; replace the bodies by those calls
// (and delete this file) once it lands.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_UNIT_ARCHCOUNTS_H
#define KTFLOW_LIB_UNIT_ARCHCOUNTS_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"

namespace ktflow::ktunit {

inline int64_t semaphoreCountOf(const arch::ArchModel &, arch::NodeId) {
  return dc::kNumSemaphores; // TEMPORARY, see the file header.
}
inline int64_t vectorRegisterCountOf(const arch::ArchModel &, arch::NodeId) {
  return dc::kNumVectorRegisters; // TEMPORARY, see the file header.
}

} // namespace ktflow::ktunit

#endif // KTFLOW_LIB_UNIT_ARCHCOUNTS_H
