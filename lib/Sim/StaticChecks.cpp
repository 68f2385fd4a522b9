//===- StaticChecks.cpp - capacity and deadlock checks on device code -----===//
//
// Capacity: walks each program with its loop trip counts, bounding every
// address by its largest table value and the largest value of each loop
// term, and compares the furthest byte with the memory's usable capacity
// (or the symbol's size). Deadlock: a synchronisation-only simulation,
// whose deadlock report names the waits and their cycle.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Sim/StaticChecks.h"

#include "ktflow/Sim/Simulator.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::dc;
using llvm::StringRef;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

namespace {
struct Range {
  int64_t low, high; // [low, high)
};
} // namespace

// Address arithmetic saturates: a loaded bundle's offsets, strides and trip
// counts can be anything, and a range clamped to the int64 limits still
// fails the capacity check as it should (instead of overflowing).
static int64_t addSat(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::AddOverflow(a, b, r))
    return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}
static int64_t mulSat(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return (a > 0) == (b > 0) ? INT64_MAX : INT64_MIN;
  return r;
}

/// The bytes an access at `a` of `extent` bytes can touch.
static Range rangeOf(const Program &p, const Address &a, llvm::ArrayRef<int64_t> tripCounts,
                     int64_t extent) {
  int64_t low = a.offset.count(), high = a.offset.count();
  if (a.tableColumn && !p.table.empty()) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto &row : p.table) {
      lo = std::min(lo, row[*a.tableColumn]);
      hi = std::max(hi, row[*a.tableColumn]);
    }
    low = addSat(low, lo);
    high = addSat(high, hi);
  }
  for (const LoopTerm &t : a.terms) {
    int64_t n = tripCounts[t.depth];
    int64_t maxIndex = std::max<int64_t>(0, (t.modulus ? std::min(n, t.modulus) : n) - 1);
    int64_t span = mulSat(t.stride.count(), maxIndex);
    if (span > 0)
      high = addSat(high, span);
    else
      low = addSat(low, span);
  }
  return {low, addSat(high, extent)};
}

// A description may declare no more than an instruction can name.
static_assert(arch::kMaxUnitVectorRegisters <= kEncodableVectorRegisters &&
                  arch::kMaxUnitSemaphores <= kEncodableSemaphores,
              "the description's limits must fit the device-code encoding");

llvm::Error sim::checkUnitResources(const Bundle &bundle, const arch::ArchModel &model) {
  // Units the model lacks are reported by the simulator's setup, with the
  // program that names them; only counts are checked here.
  auto unitOf = [&](StringRef name) -> std::optional<arch::NodeId> {
    std::optional<arch::NodeId> node = model.lookupNode(name);
    if (!node || model.node(*node).isMemory())
      return std::nullopt;
    return node;
  };
  for (const Program &p : bundle.programs) {
    std::optional<arch::NodeId> unit = unitOf(p.unit);
    if (!unit)
      continue;
    int64_t registers = model.vectorRegisterCount(*unit);
    for (size_t pc = 0; pc < p.body.size(); ++pc) {
      const Instruction &inst = p.body[pc];
      auto where = [&]() {
        return llvm::formatv("program @{0} instruction {1} ({2})", p.unit, pc,
                             opcodeName(inst.op))
            .str();
      };
      for (uint8_t r : registerOperands(inst))
        if (r >= registers)
          return error(llvm::formatv("{0}: uses register v{1}, but @{2} has {3} vector "
                                     "registers",
                                     where(), unsigned(r), p.unit, registers));
      if (inst.op != Opcode::Signal && inst.op != Opcode::Wait && inst.op != Opcode::Credit)
        continue;
      StringRef owner = inst.op == Opcode::Signal ? StringRef(inst.peer.name) : StringRef(p.unit);
      std::optional<arch::NodeId> ownerUnit = unitOf(owner);
      if (!ownerUnit)
        continue;
      int64_t semaphores = model.semaphoreCount(*ownerUnit);
      if (int64_t(inst.sem) >= semaphores)
        return error(llvm::formatv("{0}: uses semaphore {1} of @{2}, which has {3} semaphores",
                                   where(), inst.sem, owner, semaphores));
    }
  }
  return llvm::Error::success();
}

llvm::Error sim::checkCapacity(const Bundle &bundle, const arch::ArchModel &model) {
  llvm::SmallVector<arch::NodeId, 2> global = model.memoriesBacking(arch::KtirSpace::Global);
  if (!bundle.symbols.empty()) {
    if (global.empty())
      return error("the architecture has no memory backing the global space");
    const arch::MemoryInfo &info = model.node(global.front()).memory;
    Bytes cursor(0);
    for (const Symbol &s : bundle.symbols)
      cursor = cursor.alignTo(info.alignment) + s.size;
    if (cursor > info.usable())
      return error(llvm::formatv("the kernel arguments need {0} bytes; @{1} has {2} usable",
                                 cursor.count(), model.node(global.front()).name,
                                 info.usable().count()));
  }
  for (const Program &p : bundle.programs) {
    std::vector<int64_t> trips;
    for (size_t pc = 0; pc < p.body.size(); ++pc) {
      const Instruction &inst = p.body[pc];
      if (inst.op == Opcode::Loop) {
        // A count from the table: its largest value over the instances
        // (a loop some instance skips still bounds the others' addresses).
        int64_t count = inst.count;
        if (inst.countFromTable) {
          count = 0;
          for (const auto &row : p.table)
            count = std::max(count, row[inst.count]);
        }
        trips.push_back(count);
        continue;
      }
      if (inst.op == Opcode::End) {
        trips.pop_back();
        continue;
      }
      // Loops that never run touch nothing.
      if (llvm::is_contained(trips, 0))
        continue;
      auto check = [&](const Address &a, int64_t extent) -> llvm::Error {
        Range r = rangeOf(p, a, trips, extent);
        std::string where =
            llvm::formatv("program @{0} instruction {1} ({2})", p.unit, pc, opcodeName(inst.op))
                .str();
        if (a.base == Address::Base::Symbol) {
          const Symbol &s = bundle.symbols[a.symbol];
          if (r.low < 0 || r.high > s.size.count())
            return error(llvm::formatv("{0}: touches bytes [{1}, {2}) of ${3}, which has {4}",
                                       where, r.low, r.high, s.name, s.size.count()));
          return llvm::Error::success();
        }
        std::optional<arch::NodeId> m = model.lookupNode(a.memory.name);
        if (!m || !model.node(*m).isMemory())
          return error(llvm::formatv("{0}: @{1} is not a memory of '{2}'", where,
                                     a.memory.name, model.name()));
        const arch::MemoryInfo &info = model.node(*m).memory;
        if (r.low < 0 || r.high > info.usable().count())
          return error(llvm::formatv("{0}: buffer [{1}, {2}) does not fit the {3} usable "
                                     "bytes of @{4}",
                                     where, r.low, r.high, info.usable().count(),
                                     a.memory.name));
        return llvm::Error::success();
      };
      int64_t extent = 0;
      switch (inst.op) {
      case Opcode::Copy: {
        int64_t srcExtent = inst.bytes.count(), dstExtent = inst.bytes.count();
        for (const CopyDim &d : inst.dims) {
          srcExtent = addSat(srcExtent, mulSat(d.srcStride.count(), std::max<int64_t>(d.count, 1) - 1));
          dstExtent = addSat(dstExtent, mulSat(d.dstStride.count(), std::max<int64_t>(d.count, 1) - 1));
        }
        if (llvm::Error e = check(inst.src, srcExtent))
          return e;
        if (llvm::Error e = check(inst.dst, dstExtent))
          return e;
        continue;
      }
      case Opcode::Gather:
      case Opcode::Scatter: {
        // The indexed side (a gather's source, a scatter's destination)
        // reaches as far as the largest index allowed.
        bool scatter = inst.op == Opcode::Scatter;
        int64_t srcExtent = inst.bytes.count(), dstExtent = inst.bytes.count();
        for (auto [n, d] : llvm::enumerate(inst.dims)) {
          int64_t srcCount = n == 0 && !scatter ? inst.indexBound : d.count;
          int64_t dstCount = n == 0 && scatter ? inst.indexBound : d.count;
          srcExtent = addSat(srcExtent, mulSat(d.srcStride.count(), std::max<int64_t>(srcCount, 1) - 1));
          dstExtent = addSat(dstExtent, mulSat(d.dstStride.count(), std::max<int64_t>(dstCount, 1) - 1));
        }
        if (llvm::Error e = check(inst.src, srcExtent))
          return e;
        if (llvm::Error e = check(inst.dst, dstExtent))
          return e;
        int64_t indexExtent =
            mulSat(inst.dims.front().count, elemTypeSize(inst.type).bytes.count());
        if (llvm::Error e = check(inst.index, indexExtent))
          return e;
        continue;
      }
      case Opcode::Push:
        extent = inst.bytes.count();
        if (llvm::Error e = check(inst.src, extent))
          return e;
        continue;
      case Opcode::Pop:
        if (llvm::Error e = check(inst.dst, inst.bytes.count()))
          return e;
        continue;
      case Opcode::VLoad:
        if (llvm::Error e = check(inst.src, toBytes(Elements(inst.count),
                                                    elemTypeSize(inst.type))
                                                .count()))
          return e;
        continue;
      case Opcode::VStore:
        // The stored register's size is known only when running; the
        // simulator checks the full range.
        if (llvm::Error e = check(inst.dst, 1))
          return e;
        continue;
      default:
        continue;
      }
    }
  }
  return llvm::Error::success();
}

llvm::Error sim::checkDeadlockFree(const Bundle &bundle, const arch::ArchModel &model,
                                   const SimLimits &limits) {
  SimOptions options;
  options.limits = limits;
  options.computeValues = false;
  options.timing = false;
  llvm::Expected<SimResult> result = simulate(bundle, model, {}, options);
  if (!result)
    return result.takeError();
  if (result->deadlock)
    return error(*result->deadlock);
  return llvm::Error::success();
}
