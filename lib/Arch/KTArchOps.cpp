//===- KTArchOps.cpp - ktarch operations ----------------------------------===//
//
// Each op checks the values it holds: counts, sizes, bandwidths and depths
// are positive, names of spaces, element types and op classes are known.
// Cross-op properties (names resolve, reachability, spaces backed) need the
// whole device, so ktarch.device's region verifier builds the ArchModel,
// which reports them.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/KTArchOps.h"
#include "ktflow/Arch/ArchModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktarch;

#define GET_OP_CLASSES
#include "ktflow/Arch/KTArchOps.cpp.inc"

LogicalResult DeviceOp::verifyRegions() {
  if (getClockMhz() <= 0)
    return emitOpError("clock_mhz must be positive, got ") << getClockMhz();
  return success(arch::ArchModel::build(*this) != nullptr);
}

LogicalResult GroupOp::verify() {
  if (getCount() <= 0)
    return emitOpError("instance count of group @")
           << getSymName() << " must be positive, got " << getCount();
  return success();
}

LogicalResult MemoryOp::verify() {
  if (getCapacity() <= 0)
    return emitOpError("capacity must be positive, got ") << getCapacity();
  if (getReserved() < 0 || getReserved() >= getCapacity())
    return emitOpError("reserved must be in [0, capacity), got ") << getReserved();
  if (getAlignment() <= 0 || !llvm::isPowerOf2_64(getAlignment()))
    return emitOpError("alignment must be a positive power of two, got ")
           << getAlignment();
  if (std::optional<int64_t> bandwidth = getBandwidth(); bandwidth && *bandwidth <= 0)
    return emitOpError("bandwidth must be positive, got ") << *bandwidth;
  llvm::StringSet<> seen;
  for (StringRef space : getSpaces().getAsValueRange<StringAttr>()) {
    if (!arch::parseKtirSpace(space))
      return emitOpError("unknown KTIR memory space '")
             << space << "' (expected 'global' or 'ct_local')";
    if (!seen.insert(space).second)
      return emitOpError("memory space '") << space << "' listed twice";
  }
  return success();
}

/// Checks a unit's access rules (used by movers and compute units).
static LogicalResult verifyAccessRules(Operation *op, ArrayAttr rules) {
  llvm::StringSet<> memories;
  for (auto rule : rules.getAsRange<AccessAttr>()) {
    StringRef memory = rule.getMemory().getLeafReference().getValue();
    auto fail = [&]() {
      return op->emitOpError("access rule for @") << memory << ": ";
    };
    if (rule.getMemory().getNestedReferences().size() != 0)
      return fail() << "memory must be a flat name";
    if (rule.getSizeMultiple() <= 0)
      return fail() << "size_multiple must be positive, got " << rule.getSizeMultiple();
    if (rule.getMinSize() <= 0 || rule.getMaxSize() < rule.getMinSize())
      return fail() << "sizes must satisfy 0 < min_size <= max_size, got "
                    << rule.getMinSize() << " and " << rule.getMaxSize();
    if (rule.getMinSize() % rule.getSizeMultiple() || rule.getMaxSize() % rule.getSizeMultiple())
      return fail() << "min_size and max_size must be multiples of size_multiple";
    if (rule.getAlignment() <= 0 || !llvm::isPowerOf2_64(rule.getAlignment()))
      return fail() << "alignment must be a positive power of two, got "
                    << rule.getAlignment();
    if (!memories.insert(memory).second)
      return fail() << "memory listed twice";
  }
  return success();
}

/// Checks a unit's semaphore and vector-register counts: at least one, at
/// most what ktflow models (arch::kMaxUnitSemaphores / kMaxUnitVectorRegisters).
static LogicalResult verifyUnitCounts(Operation *op, StringRef unit, int64_t semaphores,
                                      std::optional<int64_t> vectorRegisters) {
  auto check = [&](StringRef field, int64_t value, int64_t max) -> LogicalResult {
    if (value <= 0)
      return op->emitOpError(field) << " of unit @" << unit << " must be positive, got "
                                    << value;
    if (value > max)
      return op->emitOpError(field) << " of unit @" << unit << " is " << value
                                    << ", more than the modelled " << max;
    return success();
  };
  if (failed(check("semaphores", semaphores, arch::kMaxUnitSemaphores)))
    return failure();
  if (vectorRegisters &&
      failed(check("vector_registers", *vectorRegisters, arch::kMaxUnitVectorRegisters)))
    return failure();
  return success();
}

template <typename MoverOp>
static LogicalResult verifyMover(MoverOp op) {
  if (failed(verifyAccessRules(op, op.getAccess())))
    return failure();
  return verifyUnitCounts(op, op.getSymName(), op.getSemaphores(), op.getVectorRegisters());
}

LogicalResult DmaOp::verify() { return verifyMover(*this); }
LogicalResult LoadUnitOp::verify() { return verifyMover(*this); }
LogicalResult StoreUnitOp::verify() { return verifyMover(*this); }

LogicalResult ComputeOp::verify() {
  if (failed(verifyAccessRules(*this, getAccess())))
    return failure();
  if (failed(verifyUnitCounts(*this, getSymName(), getSemaphores(), getVectorRegisters())))
    return failure();
  if (getLanes().empty())
    return emitOpError("lanes must list at least one element type");
  for (NamedAttribute entry : getLanes()) {
    Type type = arch::parseElementTypeName(entry.getName().getValue(), getContext());
    if (!type)
      return emitOpError("lanes: '") << entry.getName().getValue()
                                     << "' is not a scalar element type";
    auto count = dyn_cast<IntegerAttr>(entry.getValue());
    if (!count || count.getInt() <= 0)
      return emitOpError("lanes: the count for ") << entry.getName().getValue()
                                                  << " must be a positive integer";
  }
  if (getOps().empty())
    return emitOpError("ops must list at least one op class");
  ArrayRef<StringRef> known = arch::knownOpClasses();
  for (NamedAttribute entry : getOps()) {
    StringRef opClass = entry.getName().getValue();
    if (!llvm::is_contained(known, opClass))
      return emitOpError("unknown op class '") << opClass << "' (see docs/arch.md)";
    auto cost = dyn_cast<IntegerAttr>(entry.getValue());
    if (!cost || cost.getInt() <= 0)
      return emitOpError("ops: the issue cost of ") << opClass
                                                    << " must be a positive integer";
  }
  bool hasMatmul = static_cast<bool>(getOps().get("matmul"));
  if (std::optional<ArrayRef<int64_t>> shape = getMatrix()) {
    if (shape->size() != 2 || (*shape)[0] <= 0 || (*shape)[1] <= 0)
      return emitOpError("matrix must be [rows, cols] with positive entries");
    if (!hasMatmul)
      return emitOpError("a matrix unit must list the op class 'matmul'");
  } else if (hasMatmul) {
    return emitOpError("op class 'matmul' needs a matrix shape (matrix = [rows, cols])");
  }
  return success();
}

LogicalResult LinkOp::verify() {
  if (getBandwidth() <= 0)
    return emitOpError("bandwidth of link @")
           << getSymName() << " must be positive, got " << getBandwidth();
  // Route costs and the simulator's clock add latencies and granule times
  // along paths: bound them so no sum of them overflows (2^32 cycles is
  // seconds of latency at any clock; 2^32 bytes a granule of 4 GiB).
  constexpr int64_t kMaxLatency = int64_t(1) << 32, kMaxGranule = int64_t(1) << 32;
  if (getLatency() < 0)
    return emitOpError("latency must not be negative, got ") << getLatency();
  if (getLatency() > kMaxLatency)
    return emitOpError("latency of link @")
           << getSymName() << " is " << getLatency() << " cycles, more than the modelled "
           << kMaxLatency;
  if (getGranule() <= 0)
    return emitOpError("granule must be positive, got ") << getGranule();
  if (getGranule() > kMaxGranule)
    return emitOpError("granule of link @")
           << getSymName() << " is " << getGranule() << " bytes, more than the modelled "
           << kMaxGranule;
  if (std::optional<int64_t> depth = getFifoDepth(); depth && *depth <= 0)
    return emitOpError("FIFO depth of link @")
           << getSymName() << " must be positive, got " << *depth;
  if (getFrom() == getTo())
    return emitOpError("a link must join two different nodes");
  return success();
}
