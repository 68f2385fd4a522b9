//===- SplitInstances.cpp - distribute a group over sub-core instances ----===//
//
// Strategy: the cores run the grid tiles; inside a core, the sub-core
// instances that share its scratchpad (the compute unit's instances per
// scratchpad instance, from the description) split each grid tile's work.
// The split dimension is the outermost dimension that is not reduced and
// has more than one unit of work; along the innermost dimension a unit is
// one vector, elsewhere one index. Units are dealt out evenly, the first
// `units mod instances` instances taking one more, so shares differ by at
// most one unit and sum to the extent (a last partial vector goes to the
// last non-empty share). When nothing can be split, one instance works and
// the others get empty shares. A reduction's results leave each share as
// one DMA run per tile, so along the dimension its results run on, a unit
// is one granule of global memory's transfers (64 f16 results on spyre): a
// split never cuts results finer than the DMA moves them, and a dimension
// with a single unit of results is not split (a group of phases keeps its
// reductions' results and stores whole rows: no granule unit). A column
// reduction whose rows are dense (RowLayout.h) is not split along its
// columns; an element-wise group whose stores pack their rows splits
// whole rows in units that start on a granule (packedRowUnit). A table
// updated in place through its indices (a scatter-add) is not split: one
// instance reads all of a grid tile's rows before it writes any. The
// decision is `split` on the outer pipeline: {dim, instances, shares}.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "ktflow/Schedule/SplitUnits.h"

#include <numeric>

namespace ktflow::ktsched {
#define GEN_PASS_DEF_SPLITINSTANCES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {
struct SplitInstancesPass : ktflow::ktsched::impl::SplitInstancesBase<SplitInstancesPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    Builder b(module.getContext());
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>()) {
        std::optional<NodeId> unit = boundComputeUnit(group, *model);
        PipelineOp pipeline = outerPipeline(group);
        StageOp compute = pipeline ? computeStage(group) : StageOp();
        auto unitName =
            compute ? dyn_cast_or_null<StringAttr>(decisionValue(compute, "unit")) : StringAttr();
        if (!unitName) {
          group.emitError("expected a pipeline bound to a compute unit");
          return signalPassFailure();
        }
        if (!unit) {
          // A schedule made for another description, or an edited one.
          compute.emitError("compute stage is not bound to a compute unit of @")
              << model->name() << " (bound to @" << unitName.getValue() << ")";
          return signalPassFailure();
        }
        int64_t instances = sharersOf(*model, placement->scratchpad, *unit);
        ArrayRef<int64_t> space = group.getSpace();
        int64_t rank = space.size();
        // Elements per unit of work along each dimension.
        SmallVector<int64_t> unitSizes = splitUnitSizes(group, *model, *placement);
        auto unitsAlong = [&](int64_t d) {
          return (space[d] + unitSizes[d] - 1) / unitSizes[d];
        };
        int64_t dim = -1;
        // A table updated in place through its indices runs on one
        // instance (updatesGatheredRows: every row read before any written).
        bool updatesInPlace = updatesGatheredRows(group);
        for (int64_t d = 0; d < rank && !updatesInPlace; ++d)
          if (!llvm::is_contained(group.getReduceDims(), d) && unitsAlong(d) > 1) {
            dim = d;
            break;
          }
        SmallVector<int64_t> shares(instances, 0);
        if (dim < 0) {
          dim = 0;
          shares[0] = rank ? space[0] : 1;
        } else {
          int64_t units = unitsAlong(dim);
          int64_t unitSize = unitSizes[dim];
          int64_t left = space[dim];
          for (int64_t i = 0; i < instances; ++i) {
            int64_t mine = units / instances + (i < units % instances ? 1 : 0);
            shares[i] = std::min(left, mine * unitSize);
            left -= shares[i];
          }
        }
        auto split = b.getDictionaryAttr(
            {b.getNamedAttr("dim", b.getI64IntegerAttr(dim)),
             b.getNamedAttr("instances", b.getI64IntegerAttr(instances)),
             b.getNamedAttr("shares", b.getDenseI64ArrayAttr(shares))});
        pipeline->setAttr("split", decide(split, kHeuristic));
      }
  }
};
} // namespace
