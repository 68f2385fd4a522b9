//===- CheckCapacity.cpp - every memory range within its memory -----------===//
//
// Strategy. An address into a memory node is affine in the loop indices of
// the loops around the op, so the range an op touches over a whole run is
// found without executing anything: per instance (table row), base offset
// + the row's table column + for every loop term the extreme of
// `(index mod modulus) * stride` over the loop's trip count, widened by
// the bytes one access covers (a copy's run and strided dimensions, a
// push's or pop's message, a register's bytes). Each range must lie in
// [0, usable capacity) of the memory, and an instance the address names
// must exist. Symbol (global) addresses are the runtime's business and are
// not checked here. An op inside a loop that runs zero times touches
// nothing.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Unit/Passes.h"

namespace ktflow::ktunit {
#define GEN_PASS_DEF_CHECKCAPACITY
#include "ktflow/Unit/Passes.h.inc"
} // namespace ktflow::ktunit

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktunit;

namespace {

/// Inclusive-exclusive byte range.
struct Range {
  int64_t lo = 0, hi = 0;
};

/// Byte range of `count` steps of `stride` from 0 (either sign).
static Range spanOf(int64_t count, int64_t stride) {
  int64_t last = (std::max<int64_t>(count, 1) - 1) * stride;
  return {std::min<int64_t>(0, last), std::max<int64_t>(0, last)};
}

struct CheckCapacityPass : ktunit::impl::CheckCapacityBase<CheckCapacityPass> {
  using CheckCapacityBase::CheckCapacityBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.getOps<BundleOp>().empty())
      return;
    model = ktsched::getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    bool ok = true;
    module.walk([&](ProgramOp program) { ok &= succeeded(check(program)); });
    if (!ok)
      signalPassFailure();
  }

  LogicalResult check(ProgramOp program) {
    SmallVector<SmallVector<int64_t>> rows = program.getTableRows();
    if (rows.empty())
      rows.push_back({});
    bool ok = true;
    program.walk([&](Operation *op) {
      if (tripProduct(op) == 0)
        return;
      auto touch = [&](AddressAttr address, Range access) {
        for (auto [i, row] : llvm::enumerate(rows))
          if (failed(checkAccess(op, program, address, access, row, i))) {
            ok = false;
            return;
          }
      };
      // A gather's source and a scatter's destination reach as far as the
      // largest index the bound allows.
      auto touchIndexed = [&](auto indexed, bool scatter) {
        Range src{0, indexed.getRun()}, dst{0, indexed.getRun()};
        for (auto [n, count, ss, ds] : llvm::enumerate(
                 indexed.getCounts(), indexed.getSrcStrides(), indexed.getDstStrides())) {
          int64_t bound = indexed.getBound();
          Range s = spanOf(n == 0 && !scatter ? bound : count, ss),
                d = spanOf(n == 0 && scatter ? bound : count, ds);
          src = {src.lo + s.lo, src.hi + s.hi};
          dst = {dst.lo + d.lo, dst.hi + d.hi};
        }
        touch(indexed.getSrc(), src);
        touch(indexed.getDst(), dst);
        int64_t indexBytes = indexed.getIndexType().getIntOrFloatBitWidth() / 8;
        touch(indexed.getIndex(), {0, indexed.getCounts()[0] * indexBytes});
      };
      if (auto copy = dyn_cast<CopyOp>(op)) {
        Range src{0, copy.getRun()}, dst{0, copy.getRun()};
        for (auto [count, ss, ds] :
             llvm::zip(copy.getCounts(), copy.getSrcStrides(), copy.getDstStrides())) {
          Range s = spanOf(count, ss), d = spanOf(count, ds);
          src = {src.lo + s.lo, src.hi + s.hi};
          dst = {dst.lo + d.lo, dst.hi + d.hi};
        }
        touch(copy.getSrc(), src);
        touch(copy.getDst(), dst);
      } else if (auto gather = dyn_cast<GatherOp>(op)) {
        touchIndexed(gather, /*scatter=*/false);
      } else if (auto scatter = dyn_cast<ScatterOp>(op)) {
        touchIndexed(scatter, /*scatter=*/true);
      } else if (auto push = dyn_cast<PushOp>(op)) {
        touch(push.getSrc(), {0, push.getBytes()});
      } else if (auto pop = dyn_cast<PopOp>(op)) {
        touch(pop.getDst(), {0, pop.getBytes()});
      } else if (auto load = dyn_cast<VLoadOp>(op)) {
        touch(load.getSrc(), {0, vregBytes(cast<VRegType>(load.getDst().getType()))});
      } else if (auto store = dyn_cast<VStoreOp>(op)) {
        touch(store.getDst(), {0, vregBytes(cast<VRegType>(store.getSrc().getType()))});
      }
    });
    return success(ok);
  }

  LogicalResult checkAccess(Operation *op, ProgramOp program, AddressAttr address,
                            Range access, ArrayRef<int64_t> row, size_t rowIndex) {
    if (address.getIsSymbol())
      return success();
    NodeRefAttr base = address.getBase();
    std::optional<arch::NodeId> memory = model->lookupNode(base.getName());
    if (!memory || !model->node(*memory).isMemory())
      return op->emitError() << "@" << base.getName() << " is not a memory of @"
                             << model->name();
    int64_t instances = model->nodeInstanceCount(*memory);
    int64_t instance = base.getKind() == InstanceKind::Absolute ? base.getValue()
                       : base.getKind() == InstanceKind::Column ? row[base.getValue()]
                                                                 : 0;
    if (instance < 0 || instance >= instances)
      return op->emitError() << "names instance " << instance << " of @" << base.getName()
                             << " (table row " << rowIndex << "), which has " << instances;

    // Trip counts of the loops around the op, outermost first.
    SmallVector<int64_t> trips;
    for (Operation *p = op->getParentOp(); p && !isa<ProgramOp>(p); p = p->getParentOp())
      if (auto loop = dyn_cast<LoopOp>(p))
        trips.insert(trips.begin(), loop.getCount());
    Range range{address.getOffset(), address.getOffset()};
    if (address.getColumn())
      range.lo = range.hi = range.lo + row[*address.getColumn()];
    for (LoopTermAttr term : address.getTerms()) {
      int64_t count = trips[term.getDepth()];
      if (term.getModulus())
        count = std::min(count, term.getModulus());
      Range t = spanOf(count, term.getStride());
      range = {range.lo + t.lo, range.hi + t.hi};
    }
    range = {range.lo + access.lo, range.hi + access.hi};
    int64_t usable = model->node(*memory).memory.usable().count();
    if (range.lo < 0 || range.hi > usable)
      return op->emitError() << "program @" << program.getSymName() << " touches bytes ["
                             << range.lo << ", " << range.hi << ") of @" << base.getName()
                             << " (table row " << rowIndex << "), outside its usable "
                             << usable << " bytes";
    return success();
  }

  std::shared_ptr<const arch::ArchModel> model;
};

} // namespace

LogicalResult ktunit::checkCapacity(ProgramOp program, const arch::ArchModel &model) {
  CheckCapacityPass pass;
  // Not owned: the model outlives the check.
  pass.model = std::shared_ptr<const arch::ArchModel>(std::shared_ptr<void>(), &model);
  return pass.check(program);
}
