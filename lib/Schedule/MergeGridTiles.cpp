//===- MergeGridTiles.cpp - coarsen the grid so results are legal runs ----===//
//
// Strategy: a reduction's results (and a flattened element-wise group's
// whole tile, FlattenRows) leave each grid tile as one DMA run into
// global memory, and cores never share a DMA access (no read-modify-write
// of a neighbour's results), so a grid tile whose results are below the
// DMA's minimum access, not a multiple of its size or not aligned cannot
// be stored (example 04 on spyre: 16 row sums of f16 per tile are 32 bytes
// against a 128-byte access). Such a kernel gives up cores instead: k
// consecutive grid tiles along one grid dimension become one merged tile,
// run by one core, whose results are one run of k times the bytes.
//
// Merging along grid dimension g is legal when the merged tiles are
// contiguous: in every group, every transfer's origin depends on g only as
// `coef * g`, with coef the group's extent along the one iteration
// dimension S the transfer runs along there (rows of a row block), so k
// tiles' accesses are one block of k x space[S]; transfers that do not run
// along S must not depend on g (a broadcast row every tile reads), and the
// group's loop bounds must not either. The factor is the smallest k > 1
// dividing the grid dimension for which every merged tile's result run of
// every reducing or flattened group is legal: aligned at its start and either a legal
// DMA size or — like the lowering's widening — ending where its tensor
// ends, so it may be rounded up into the symbol's alignment padding. No
// merge happens when the unmerged runs are legal already, and none when no
// factor helps (the lowering then names the illegal run).
//
// An element-wise group stores a run per row: a grid of column blocks
// whose row runs are not legal accesses (a block of 24 f32 is 96 bytes
// against sample's 64-byte multiple) merges its blocks the same way, until
// the merged rows are legal runs. Whole rows that follow each other and
// are no legal run alone are packed by the row layout into one run per
// tile (dense stores), which is checked like a flattened group's: a grid
// of row blocks of 10 rows of 452 bytes (4520 bytes, no multiple of 64)
// merges into 19 rows that end the tensor.
//
// The rewrite is a schedule-level one, before the instance split, so split,
// tile selection, allocation and the lowering all see the merged kernel:
// grid[g] / k, space[S] x k, transfer shapes along S x k, origins with
// d_g -> k * d_g. The decision is `merge = {dim, factor}` on the kernel
// (factor 1 when nothing is merged), from a plan when `plan` names one
// that gives the kernel a `merge` (validated: it must divide, be
// contiguous, and leave legal runs). The roofline keeps the kernel's own
// grid (docs/schedule.md).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/Plan.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/Support/MemoryBuffer.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_MERGEGRIDTILES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

namespace {
/// One transfer of a stage: the dictionary of its `transfers` entry.
struct TransferRef {
  StageOp stage;
  unsigned index;
  DictionaryAttr dict;
};

struct MergeChoice {
  int64_t dim = 0, factor = 1;
};

class KernelMerge {
public:
  KernelMerge(KernelOp kernel, const ArchModel &model, const Placement &placement)
      : kernel(kernel), model(model), placement(placement) {}

  /// The iteration dimension each group's transfers run along where they
  /// depend on grid dimension `dim` (one per group, in group order), or why
  /// merging along it would not give contiguous merged tiles.
  FailureOr<SmallVector<int64_t>> contiguousDims(int64_t dim, std::string &why);

  /// Whether, merged by `factor` along grid dimension `dim` (with `spaceDims`
  /// from contiguousDims), every result run of every reducing group is a
  /// legal DMA access; `why` describes the first that is not.
  bool legalRuns(int64_t dim, int64_t factor, ArrayRef<int64_t> spaceDims, std::string &why);

  /// The rewrite: grid, spaces, transfer shapes and origins.
  void rewrite(int64_t dim, int64_t factor, ArrayRef<int64_t> spaceDims);

private:
  static SmallVector<TransferRef> transfersOf(GroupOp group);

  KernelOp kernel;
  const ArchModel &model;
  const Placement &placement;
};
} // namespace

SmallVector<TransferRef> KernelMerge::transfersOf(GroupOp group) {
  SmallVector<TransferRef> refs;
  group.walk([&](StageOp stage) {
    if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
      for (auto [i, t] : llvm::enumerate(transfers))
        if (auto dict = dyn_cast<DictionaryAttr>(t))
          refs.push_back({stage, (unsigned)i, dict});
  });
  return refs;
}

FailureOr<SmallVector<int64_t>> KernelMerge::contiguousDims(int64_t dim, std::string &why) {
  why.clear();
  llvm::raw_string_ostream os(why);
  SmallVector<int64_t> result;
  for (GroupOp group : kernel.getOps<GroupOp>()) {
    ArrayRef<int64_t> space = group.getSpace();
    // Merging would rescale a bound the lowering tables per grid tile.
    if (auto loop = group->getAttrOfType<DictionaryAttr>("loop"); loop && loop.get("ub_symbolic")) {
      os << "the loop of group @" << group.getSymName() << " ends at an unbound launch value";
      return failure();
    }
    if (auto loop = group->getAttrOfType<DictionaryAttr>("loop"))
      for (StringRef bound : {"lb", "ub"})
        if (auto map = loop.getAs<AffineMapAttr>(bound))
          if (llvm::any_of(map.getValue().getResults(),
                           [&](AffineExpr e) { return e.isFunctionOfDim(dim); })) {
            os << "the loop of group @" << group.getSymName() << " depends on grid dimension "
               << dim;
            return failure();
          }
    int64_t along = -1;
    SmallVector<TransferRef> refs = transfersOf(group);
    // First the dimension the grid dimension moves the transfers along...
    for (const TransferRef &ref : refs) {
      auto origin = ref.dict.getAs<AffineMapAttr>("origin");
      auto dims = ref.dict.getAs<DenseI64ArrayAttr>("dims");
      auto shape = ref.dict.getAs<DenseI64ArrayAttr>("shape");
      auto tensor = ref.dict.getAs<FlatSymbolRefAttr>("tensor");
      if (!origin || !dims || !shape || !tensor ||
          origin.getValue().getNumResults() != dims.size() || shape.size() != dims.size()) {
        os << "a transfer of group @" << group.getSymName() << " lacks origin, dims or shape";
        return failure();
      }
      for (auto [i, expr] : llvm::enumerate(origin.getValue().getResults())) {
        std::optional<int64_t> coef = linearCoefficient(expr, dim);
        if (!coef) {
          os << "the origin of @" << tensor.getValue() << " is not linear in grid dimension "
             << dim;
          return failure();
        }
        if (*coef == 0)
          continue;
        int64_t d = dims[i];
        if (d < 0 || (along >= 0 && d != along)) {
          os << "@" << tensor.getValue() << " moves with grid dimension " << dim
             << " along a dimension its group's other transfers do not";
          return failure();
        }
        if (*coef != space[d] || shape[i] != space[d]) {
          os << "@" << tensor.getValue() << " steps " << *coef << " per grid tile along a "
             << "dimension of " << space[d] << ": consecutive tiles are not adjacent";
          return failure();
        }
        along = d;
      }
    }
    if (along < 0) {
      // Every tile would do the same work on the same data: merging them
      // is not coarsening.
      os << "group @" << group.getSymName() << " does not depend on grid dimension " << dim;
      return failure();
    }
    // ... then every transfer running along it must move with the grid.
    for (const TransferRef &ref : refs) {
      auto origin = ref.dict.getAs<AffineMapAttr>("origin").getValue();
      auto dims = ref.dict.getAs<DenseI64ArrayAttr>("dims");
      for (auto [i, expr] : llvm::enumerate(origin.getResults()))
        if (dims[i] == along && linearCoefficient(expr, dim) == 0) {
          os << "@" << ref.dict.getAs<FlatSymbolRefAttr>("tensor").getValue()
             << " runs along the merged dimension but is the same on every grid tile";
          return failure();
        }
    }
    result.push_back(along);
  }
  return result;
}

bool KernelMerge::legalRuns(int64_t dim, int64_t factor, ArrayRef<int64_t> spaceDims,
                            std::string &why) {
  why.clear();
  llvm::raw_string_ostream os(why);
  SmallVector<int64_t> grid(kernel.getGrid());
  grid[dim] /= factor;
  MLIRContext *ctx = kernel.getContext();
  const Node &globalNode = model.node(placement.global);
  for (auto [index, group] : llvm::enumerate(kernel.getOps<GroupOp>())) {
    // A flattened element-wise group stores each grid tile as one run too
    // (FlattenRows); other element-wise groups store a run per row, which
    // merging tiles along the rows does not lengthen, but merging column
    // blocks does: their rows are checked below.
    bool perRow = group.getReduceDims().empty() && !group->hasAttr("flatten");
    int64_t along = index < spaceDims.size() ? spaceDims[index] : -1;
    SmallVector<int64_t> space(group.getSpace());
    if (factor > 1)
      space[along] *= factor;
    // The stage that stores to global memory, and the rule of its unit.
    StageOp store;
    group.walk([&](StageOp stage) {
      if (stage.getRole() == "dma_store" && stage->getAttrOfType<IntegerAttr>("level") &&
          stage->getAttrOfType<IntegerAttr>("level").getInt() == 0)
        store = stage;
    });
    auto unitName = store ? dyn_cast_or_null<StringAttr>(decisionValue(store, "unit")) : nullptr;
    std::optional<NodeId> unit = unitName ? model.lookupNode(unitName) : std::nullopt;
    const AccessRule *rule = unit ? model.node(*unit).accessTo(placement.global) : nullptr;
    if (!rule)
      continue; // nothing to satisfy (the lowering diagnoses a missing route)
    SmallVector<int64_t> loadedArgs;
    for (TransferRef ref : transfersOf(group))
      if (ref.stage.getRole() == "dma_load")
        if (auto t = kernel.lookupSymbol<TensorOp>(ref.dict.getAs<FlatSymbolRefAttr>("tensor")))
          loadedArgs.push_back(t.getArg());
    auto loop = group->getAttrOfType<DictionaryAttr>("loop");
    auto transfers = store->getAttrOfType<ArrayAttr>("transfers");
    for (Attribute attr : transfers) {
      auto dict = dyn_cast<DictionaryAttr>(attr);
      auto ref = dict ? dict.getAs<FlatSymbolRefAttr>("tensor") : nullptr;
      auto tensor = ref ? kernel.lookupSymbol<TensorOp>(ref) : TensorOp();
      auto originAttr = dict ? dict.getAs<AffineMapAttr>("origin") : nullptr;
      auto dimsAttr = dict ? dict.getAs<DenseI64ArrayAttr>("dims") : nullptr;
      auto shapeAttr = dict ? dict.getAs<DenseI64ArrayAttr>("shape") : nullptr;
      // A malformed transfer is the lowering's to diagnose.
      if (!tensor || !originAttr || !dimsAttr || !shapeAttr)
        continue;
      AffineMap origin = originAttr.getValue();
      origin = origin.replace(getAffineDimExpr(dim, ctx), getAffineDimExpr(dim, ctx) * factor,
                              origin.getNumDims(), origin.getNumSymbols());
      ArrayRef<int64_t> dims = dimsAttr.asArrayRef(), shape = shapeAttr.asArrayRef();
      ArrayRef<int64_t> tshape = tensor.getShape(), strides = tensor.getStrides(),
                        lower = tensor.getLowerCorner();
      ElementSize esize = elementSize(tensor.getElementType());
      size_t rank = dims.size();
      if (rank == 0 || tshape.size() != rank || strides.size() != rank || lower.size() != rank ||
          shape.size() != rank || origin.getNumResults() != rank ||
          llvm::any_of(dims, [&](int64_t d) { return d >= (int64_t)space.size(); }))
        continue;
      if (perRow && (rank < 2 || dims[rank - 1] < 0))
        continue;
      // Per-row stores of whole tensor rows that follow each other are
      // packed by the row layout (RowLayout.h) where a row alone is no
      // legal run: the tile's rows are then one run, checked like a
      // flattened group's. Other whole rows are the row layout's to judge.
      bool wholeRows = perRow && space[dims[rank - 1]] >= tshape[rank - 1];
      bool packable = wholeRows && rank == 2 && strides[1] == 1 && strides[0] == tshape[1];
      if (wholeRows && !packable)
        continue;
      Bytes end = toBytes(tensorDataEnd(tensor), esize);
      Bytes allocated = end.alignTo(globalNode.memory.alignment);
      for (int64_t tile = 0, tiles = grid[0] * grid[1] * grid[2]; tile < tiles; ++tile) {
        SmallVector<int64_t> coords = {tile % grid[0], (tile / grid[0]) % grid[1],
                                       tile / (grid[0] * grid[1]), 0};
        int64_t lb = 0, ub = 1, step = 1;
        if (loop) {
          // The bounds do not depend on the merged dimension (contiguousDims).
          auto eval = [&](StringRef key) {
            return evalLoopBound(loop.getAs<AffineMapAttr>(key).getValue(), coords,
                                 key == "ub");
          };
          lb = eval("lb");
          ub = eval("ub");
          auto stepAttr = loop.getAs<IntegerAttr>("step");
          step = std::max<int64_t>(1, stepAttr ? stepAttr.getInt() : 1);
        }
        // The starts of successive iterations are an arithmetic progression
        // and masking shortens runs only near a tensor's end, so the first
        // and last iterations of a long loop say everything.
        constexpr int64_t kEnds = 64;
        int64_t trips = ub > lb ? (ub - lb + step - 1) / step : 0;
        auto next = [&](int64_t n) {
          return n + 1 == kEnds && trips > 2 * kEnds ? trips - kEnds : n + 1;
        };
        for (int64_t n = 0; n < trips; n = next(n)) {
          int64_t iv = lb + n * step;
          coords[3] = iv;
          SmallVector<int64_t> at(coords);
          at.resize(origin.getNumDims(), 0);
          SmallVector<int64_t> o = origin.compose(at);
          int64_t start = tensor.getOffset(), run = 0;
          int64_t validRows = 1;
          bool masked = false, unalignedRows = false;
          for (size_t i = 0; i < rank; ++i) {
            int64_t extent = dims[i] >= 0 ? space[dims[i]] : shape[i];
            int64_t valid = std::clamp<int64_t>(tshape[i] - (o[i] - lower[i]), 0, extent);
            if (o[i] < lower[i] || valid == 0)
              masked = true;
            if (i + 1 < rank)
              validRows *= valid;
            start += (o[i] - lower[i]) * strides[i];
            if (i + 1 == rank)
              run = valid;
            else if (valid > 1 && !rule->allowsAddress(toBytes(Elements(strides[i]), esize)))
              unalignedRows = true;
          }
          if (masked)
            continue; // a fully masked tile moves nothing
          Bytes startBytes = toBytes(Elements(start), esize);
          Bytes runBytes = toBytes(Elements(run), esize);
          if (packable && validRows > 1 &&
              !(rule->allowsAddress(startBytes) && rule->allowsSize(runBytes) && !unalignedRows)) {
            runBytes = runBytes * validRows;
            validRows = 1;
            unalignedRows = false;
          }
          auto fail = [&](StringRef what) {
            os << "merged tile " << tile << " stores " << runBytes.count() << " bytes of @"
               << tensor.getSymName() << " at byte " << startBytes.count() << ", " << what;
            return false;
          };
          if (unalignedRows)
            return fail("in rows whose stride breaks the DMA's alignment");
          if (!rule->allowsAddress(startBytes))
            return fail(
                ("not aligned to the DMA's " + Twine(rule->alignment.count()) + " bytes").str());
          bool multiple =
              rule->sizeMultiple.count() <= 0 || runBytes.isAlignedTo(rule->sizeMultiple);
          if (runBytes >= rule->minSize && multiple)
            continue;
          // The lowering widens a run that ends where its tensor ends into
          // the symbol's alignment padding, if nothing loads that argument
          // (a tile's single run: per-row stores of one row).
          if (perRow && validRows > 1)
            return fail("a run per row that is not a legal DMA access");
          Bytes widened = std::max(runBytes, rule->minSize);
          if (rule->sizeMultiple.count() > 0)
            widened = widened.alignTo(rule->sizeMultiple);
          if (startBytes + runBytes == end && startBytes + widened <= allocated &&
              rule->allowsSize(widened) && !llvm::is_contained(loadedArgs, tensor.getArg()))
            continue;
          if (runBytes < rule->minSize)
            return fail(
                ("below the DMA minimum of " + Twine(rule->minSize.count()) + " bytes").str());
          return fail(("not a multiple of the DMA's " + Twine(rule->sizeMultiple.count()) +
                       "-byte access size")
                          .str());
        }
      }
    }
  }
  return true;
}

void KernelMerge::rewrite(int64_t dim, int64_t factor, ArrayRef<int64_t> spaceDims) {
  MLIRContext *ctx = kernel.getContext();
  Builder b(ctx);
  SmallVector<int64_t> grid(kernel.getGrid());
  grid[dim] /= factor;
  kernel.setGrid(grid);
  AffineExpr g = getAffineDimExpr(dim, ctx);
  for (auto [index, group] : llvm::enumerate(kernel.getOps<GroupOp>())) {
    int64_t along = spaceDims[index];
    SmallVector<int64_t> space(group.getSpace());
    space[along] *= factor;
    group.setSpace(space);
    group.walk([&](StageOp stage) {
      auto transfers = stage->getAttrOfType<ArrayAttr>("transfers");
      if (!transfers)
        return;
      SmallVector<Attribute> rewritten;
      for (Attribute attr : transfers) {
        auto dict = cast<DictionaryAttr>(attr);
        AffineMap origin = dict.getAs<AffineMapAttr>("origin").getValue();
        origin = origin.replace(g, g * factor, origin.getNumDims(), origin.getNumSymbols());
        auto dims = dict.getAs<DenseI64ArrayAttr>("dims").asArrayRef();
        SmallVector<int64_t> shape(dict.getAs<DenseI64ArrayAttr>("shape").asArrayRef());
        for (auto [i, d] : llvm::enumerate(dims))
          if (d == along)
            shape[i] *= factor;
        NamedAttrList entries(dict);
        entries.set("origin", AffineMapAttr::get(origin));
        entries.set("shape", b.getDenseI64ArrayAttr(shape));
        rewritten.push_back(entries.getDictionary(ctx));
      }
      stage->setAttr("transfers", b.getArrayAttr(rewritten));
    });
  }
}

namespace {
struct MergeGridTilesPass : ktflow::ktsched::impl::MergeGridTilesBase<MergeGridTilesPass> {
  using Base::Base;

  LogicalResult runOn(KernelOp kernel, const ArchModel &model, const Placement &placement,
                      std::optional<StringRef> planText) {
    Builder b(kernel.getContext());
    KernelMerge merge(kernel, model, placement);
    auto record = [&](int64_t dim, int64_t factor, StringRef source) {
      kernel->setAttr("merge", decide(b.getDictionaryAttr(
                                          {b.getNamedAttr("dim", b.getI64IntegerAttr(dim)),
                                           b.getNamedAttr("factor", b.getI64IntegerAttr(factor))}),
                                      source));
    };
    ArrayRef<int64_t> grid = kernel.getGrid();
    if (grid.size() != 3)
      return kernel.emitError("kernel grid must have 3 extents");

    // A plan's merge replaces the heuristic, checked like one.
    if (planText) {
      FailureOr<std::optional<PlanMerge>> planned = readPlanMerge(kernel, *planText, plan);
      if (failed(planned))
        return failure();
      if (*planned) {
        int64_t dim = (*planned)->dim, factor = (*planned)->factor;
        auto error = [&]() {
          return kernel.emitError("plan ")
                 << plan << ", kernel '" << kernel.getSymName() << "': merge factor " << factor
                 << " along grid dimension " << dim << " ";
        };
        if (dim < 0 || dim > 2)
          return kernel.emitError("plan ")
                 << plan << ", kernel '" << kernel.getSymName() << "': merge dimension " << dim
                 << " is not a grid dimension (0, 1 or 2)";
        if (factor < 1 || grid[dim] % factor != 0)
          return error() << "does not divide its " << grid[dim] << " tiles";
        if (factor > 1) {
          std::string why;
          FailureOr<SmallVector<int64_t>> along = merge.contiguousDims(dim, why);
          if (failed(along))
            return error() << "does not give contiguous merged tiles: " << why;
          if (!merge.legalRuns(dim, factor, *along, why))
            return error() << "leaves a result run the DMA cannot store: " << why;
          merge.rewrite(dim, factor, *along);
        }
        record(dim, factor, kPlan);
        return success();
      }
    }

    // The heuristic: nothing when the runs are legal unmerged, else the
    // smallest factor that makes them legal (the lowest grid dimension on
    // a tie).
    std::string why;
    std::optional<MergeChoice> best;
    SmallVector<int64_t> bestAlong;
    bool legal = merge.legalRuns(0, 1, {}, why);
    for (int64_t dim = 0; dim < 3 && !legal; ++dim) {
      if (grid[dim] < 2)
        continue;
      FailureOr<SmallVector<int64_t>> along = merge.contiguousDims(dim, why);
      if (failed(along))
        continue;
      for (int64_t factor = 2; factor <= grid[dim]; ++factor) {
        if (best && factor >= best->factor)
          break;
        if (grid[dim] % factor == 0 && merge.legalRuns(dim, factor, *along, why)) {
          best = MergeChoice{dim, factor};
          bestAlong = *along;
          break;
        }
      }
    }
    if (best) {
      merge.rewrite(best->dim, best->factor, bestAlong);
      record(best->dim, best->factor, kHeuristic);
    } else {
      record(0, 1, kHeuristic);
    }
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    std::unique_ptr<llvm::MemoryBuffer> planBuffer;
    if (!plan.empty()) {
      auto buffer = llvm::MemoryBuffer::getFile(plan);
      if (!buffer) {
        emitError(module.getLoc(), "cannot read plan '")
            << plan << "': " << buffer.getError().message();
        return signalPassFailure();
      }
      planBuffer = std::move(*buffer);
    }
    for (KernelOp kernel : module.getOps<KernelOp>())
      if (failed(
              runOn(kernel, *model, *placement,
                    planBuffer ? std::optional<StringRef>(planBuffer->getBuffer()) : std::nullopt)))
        return signalPassFailure();
  }
};
} // namespace
