//===- AllocateRegisters.cpp - virtual to physical vector registers -------===//
//
// Strategy. One allocator for every program (and so every compute body, of
// every phase): number the ops of a program in pre-order, so a loop covers
// the interval from its first to its last nested op. A register's live
// range runs from its first to its last access; then, inner loops first,
// a range that touches a loop is widened to the whole loop when the value
// crosses the loop's back-edge, which is when
//   * the range reaches outside the loop (a value from before the loop is
//     read in every iteration, or one written in it is read after it), or
//   * the first access inside the loop reads it (an accumulator, a `slide`
//     target, a column vector held across rows).
// A linear scan over the ranges by start then hands out the lowest free
// physical register; a register is reused only after its last use (never
// by the op that last reads it, so no instruction writes an operand it
// still reads). When a program needs more registers at once than the
// description gives its unit, the error is at the op where the demand
// exceeds the count and names the unit. Existing `phys` numbers are
// recomputed.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/Passes.h"

#include <map>

namespace ktflow::ktunit {
#define GEN_PASS_DEF_ALLOCATEREGISTERS
#include "ktflow/Unit/Passes.h.inc"
} // namespace ktflow::ktunit

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

namespace {

struct LiveRange {
  VRegOp reg;
  int64_t start = 0, end = 0;
};

struct LoopSpan {
  int64_t start = 0, end = 0; ///< Positions of the first and last nested op.
};

/// Pre-order positions of a program's ops and the span of every loop,
/// innermost loops first.
struct Numbering {
  llvm::DenseMap<Operation *, int64_t> position;
  SmallVector<LoopSpan> loops;

  explicit Numbering(ProgramOp program) {
    int64_t next = 0;
    number(program.getBody().front(), next);
  }
  void number(Block &block, int64_t &next) {
    for (Operation &op : block) {
      position[&op] = next++;
      if (op.getNumRegions() == 1 && !op.getRegion(0).empty()) {
        int64_t first = next;
        number(op.getRegion(0).front(), next);
        if (isa<LoopOp>(op))
          loops.push_back({first, next - 1}); // post-order: inner loops first
      }
    }
  }
};

struct AllocateRegistersPass : ktunit::impl::AllocateRegistersBase<AllocateRegistersPass> {
  using AllocateRegistersBase::AllocateRegistersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool anyRegister = false;
    module.walk([&](VRegOp) { anyRegister = true; });
    if (!anyRegister)
      return;
    auto model = ktsched::getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    WalkResult result = module.walk([&](ProgramOp program) {
      return failed(allocate(program, *model)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult allocate(ProgramOp program, const arch::ArchModel &model) {
    SmallVector<VRegOp> regs;
    program.walk([&](VRegOp reg) { regs.push_back(reg); });
    if (regs.empty())
      return success();
    std::optional<arch::NodeId> unit = model.lookupNode(program.getUnit());
    if (!unit)
      return program.emitError() << "unit '" << program.getUnit() << "' is not a node of @"
                                 << model.name();
    int64_t available = model.vectorRegisterCount(*unit);

    Numbering numbering(program);
    SmallVector<LiveRange> ranges;
    for (VRegOp reg : regs) {
      LiveRange range{reg, INT64_MAX, INT64_MIN};
      for (Operation *user : reg->getUsers()) {
        int64_t at = numbering.position.lookup(user);
        range.start = std::min(range.start, at);
        range.end = std::max(range.end, at);
      }
      if (range.start == INT64_MAX)
        range.start = range.end = numbering.position.lookup(reg);
      // Widen over loops whose back-edge the value crosses; a widened range
      // may reach outside an enclosing loop, so inner loops go first.
      for (const LoopSpan &loop : numbering.loops) {
        if (range.end < loop.start || range.start > loop.end)
          continue;
        bool outside = range.start < loop.start || range.end > loop.end;
        if (outside || firstAccessReads(reg, loop, numbering)) {
          range.start = std::min(range.start, loop.start);
          range.end = std::max(range.end, loop.end);
        }
      }
      ranges.push_back(range);
    }
    llvm::sort(ranges, [](const LiveRange &a, const LiveRange &b) {
      return std::make_pair(a.start, a.end) < std::make_pair(b.start, b.end);
    });

    // Linear scan: `busyUntil[r]` is the last position register r is live at.
    SmallVector<int64_t> busyUntil;
    for (LiveRange &range : ranges) {
      int64_t chosen = -1;
      for (size_t r = 0; r < busyUntil.size(); ++r)
        if (busyUntil[r] < range.start) {
          chosen = int64_t(r);
          break;
        }
      if (chosen < 0) {
        chosen = int64_t(busyUntil.size());
        busyUntil.push_back(0);
      }
      if (chosen >= available) {
        Operation *at = firstUserAt(range, numbering);
        return at->emitError() << "program @" << program.getSymName() << " needs more than "
                               << available << " vector registers live at once here, but @"
                               << model.name() << " gives unit '" << program.getUnit()
                               << "' " << available;
      }
      busyUntil[chosen] = range.end;
      range.reg.setPhysAttr(
          IntegerAttr::get(IntegerType::get(program.getContext(), 64), chosen));
    }
    return success();
  }

  /// Whether the first access of `reg` inside `loop` (in program order)
  /// reads the value, i.e. the value carries from one iteration to the next.
  static bool firstAccessReads(VRegOp reg, const LoopSpan &loop, const Numbering &numbering) {
    Operation *first = nullptr;
    int64_t firstAt = INT64_MAX;
    for (Operation *user : reg->getUsers()) {
      int64_t at = numbering.position.lookup(user);
      if (at >= loop.start && at <= loop.end && at < firstAt)
        first = user, firstAt = at;
    }
    if (!first)
      return false;
    SmallVector<Value> writes, reads;
    registerAccesses(first, writes, reads);
    return llvm::is_contained(reads, reg.getReg());
  }

  /// The op the diagnostic points at: the first access of the register
  /// that does not fit (its range may start earlier, at a loop's start).
  static Operation *firstUserAt(const LiveRange &range, const Numbering &numbering) {
    Operation *first = range.reg;
    int64_t firstAt = INT64_MAX;
    for (Operation *user : range.reg->getUsers()) {
      int64_t at = numbering.position.lookup(user);
      if (at >= range.start && at < firstAt)
        first = user, firstAt = at;
    }
    return first;
  }
};

} // namespace

LogicalResult ktunit::allocateRegisters(ProgramOp program, const arch::ArchModel &model) {
  AllocateRegistersPass pass;
  return pass.allocate(program, model);
}
