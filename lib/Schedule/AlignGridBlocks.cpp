//===- AlignGridBlocks.cpp - give grid tiles granule-aligned blocks of work -===//
//
// Strategy: global memory is written in whole DMA granules, and two cores
// must never both write part of one (neither can read-modify-write the
// other's bytes). A kernel that gives each grid tile a row block (or each
// iteration of a cyclic row loop one row) whose stored bytes are not whole
// granules makes neighbouring tiles share a granule: 592 f16 on a grid of
// two tiles of 296, or one row sum of 2 bytes per iteration of
// `for r = tile_id to n step tiles`. The results of such a group do not
// depend on which core computes which rows — every row is independent — so
// this pass re-divides the work: each grid tile gets one contiguous block
// of the rows whose stored bytes are whole granules (the last block ends
// where the data ends, and the lowering widens its store into the symbol's
// padding), holding a reduction's results in one buffer until whole
// granules leave it. Tiles left without rows are fully masked and do
// nothing.
//
// Two forms are re-divided, both in the initial pipeline's form (before
// flattening, which then sees dense blocks of rows):
//  * a row loop whose transfers move along one iteration dimension R as
//    `space[R] * iv + c` and depend on the grid only through iv: cyclic,
//    `for iv = lb(g) to ub step S` with lower bounds S consecutive values,
//    one per grid tile, or chunked, `for iv = lb(g) to min(lb(g) + C, n)
//    step 1` with lb(g) = C L(g) + c0 (contiguous chunks, the Triton/
//    Inductor form of rows dealt out in blocks): the loop is dropped and
//    the tile numbered i (lb(g) - c0, or L(g)) takes the iterations
//    [c0 + i B, c0 + i B + B) of a block of B iterations (reductions
//    too: the rows are never reduced across iterations);
//  * grid row blocks of an element-wise group: transfers along R at
//    `space[R] * L(g) + c`, L a numbering of the grid tiles along the grid
//    dimensions it uses: tile g takes rows [B * L(g), B * L(g) + B).
//    Reductions over row blocks are left to ktsched-merge-tiles;
//  * grid column blocks of an element-wise group of two dimensions (R, C):
//    transfers along C at `space[C] * L(g) + c` whose rows are not whole
//    granules (or whose row stride is not), so every row of every tile is
//    a DMA run the description may forbid and neighbouring tiles share
//    granules: tile g takes whole rows [r0 + B * L(g), r0 + B * L(g) + B)
//    instead, all columns, so its rows are one dense run (flattening then
//    sees whole rows). Only when every transfer along C spans its view's
//    columns over the grid and every transfer along R the same rows.
// B is the smallest whole number of granules of every dense store at least
// an even share of the rows (or all rows, when that is fewer). Only groups
// whose tiles' stores are not whole granules are touched, only when every
// transfer along R covers the same rows (the block's masking is then the
// kernel's), and only when each store's first granule is aligned. The
// decision is `granule_blocks = {dim, block}` on the group (with
// `loop_iterations`, over all grid tiles, when a loop was dropped); like
// `flatten` it is taken before the split and is not part of a plan.
//
// A loop whose rows are whole granules already is still dropped when each
// tile's iterations are contiguous (chunked, or cyclic on one tile): the
// block is the tile's own chunk, so the division stays the kernel's, and
// tile selection then sizes the tiles over it rather than one tile (one
// DMA descriptor each way) per iteration. That is `loop_blocks`, of the
// same form.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

#include <numeric>

namespace ktflow::ktsched {
#define GEN_PASS_DEF_ALIGNGRIDBLOCKS
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

namespace {

constexpr unsigned kIvDim = kOriginDims - 1;

/// The constant `expr` is with every dimension set to zero.
int64_t atZero(AffineExpr expr) {
  AffineMap map = AffineMap::get(kOriginDims, 0, expr);
  return map.compose(SmallVector<int64_t>(kOriginDims, 0))[0];
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// One component of one transfer running along the re-divided dimension.
struct AlongRef {
  StageOp stage;
  unsigned transfer, component;
};

class GroupBlocks {
public:
  GroupBlocks(KernelOp kernel, GroupOp group, Bytes granule)
      : kernel(kernel), group(group), granule(granule), ctx(group.getContext()) {}

  /// Re-divides the group if it qualifies; leaves it alone otherwise.
  void run();

private:
  /// The block index of each grid tile, as an affine expression of the grid
  /// coordinates, and how many blocks there are; `offset` is the first
  /// index of the loop (0 for grid blocks).
  struct Numbering {
    AffineExpr index;
    int64_t blocks = 0, offset = 0;
    /// How many steps of `space[R]` rows the kernel covers over all grid
    /// tiles: the loop's iterations, or the number of grid blocks.
    int64_t total = 0;
    /// A loop whose iterations on each tile are contiguous (chunked, or
    /// cyclic on one tile): how many there are per tile; 0 otherwise.
    int64_t chunk = 0;
  };

  bool collect();
  std::optional<Numbering> loopNumbering(int64_t &along);
  std::optional<Numbering> gridNumbering(int64_t &along);
  bool consistent(int64_t along, bool fromLoop, const Numbering &numbering);
  void rewrite(int64_t along, int64_t block, const Numbering &numbering, bool fromLoop,
               StringRef decision);
  bool columnsToRows(const Numbering &numbering);

  KernelOp kernel;
  GroupOp group;
  Bytes granule;
  MLIRContext *ctx;
  SmallVector<StageOp> movers;
  /// The transfer components running along R (set by `consistent`): the
  /// ones the rewrite moves by blocks.
  SmallVector<AlongRef> along;
  /// The stored extent along R from the first start (rows the kernel
  /// stores) and the smallest block (in indices of R) whose stored bytes
  /// are whole granules of every dense store.
  int64_t storedExtent = 0, granuleUnit = 1;
  /// Some dense store of a tile (or loop iteration) is not whole granules.
  bool needed = false;
};

bool GroupBlocks::collect() {
  std::optional<SmallVector<StageOp>> found = initialPipelineMovers(group);
  if (found)
    movers = std::move(*found);
  return found.has_value();
}

/// A cyclic loop (lower bounds lb(g) are `step` consecutive values, one per
/// grid tile; the upper bound is the same for every tile) or a chunked one
/// (step 1, tile g runs a contiguous chunk of C iterations from lb(g), its
/// end clamped to a common bound).
std::optional<GroupBlocks::Numbering> GroupBlocks::loopNumbering(int64_t &alongDim) {
  DictionaryAttr loop = group.getLoopAttr();
  // Only a plain loop: anything it carries from one iteration to the next
  // (a value or buffer the schedule records beside lb, ub and step) ties
  // the iterations together, and re-dividing them would change the result.
  // Inner loops absorbed into the group's reduction (`absorbed_loops`)
  // accumulate within one iteration, never across.
  if (loop.size() != 3)
    return std::nullopt;
  for (NamedAttribute attr : group->getAttrs())
    if (!llvm::is_contained({StringRef("sym_name"), StringRef("space"),
                             StringRef("reduce_dims"), StringRef("element_type"),
                             StringRef("loop"), StringRef("absorbed_loops")},
                            attr.getName().getValue()))
      return std::nullopt;
  auto lb = loop.getAs<AffineMapAttr>("lb"), ub = loop.getAs<AffineMapAttr>("ub");
  auto step = loop.getAs<IntegerAttr>("step");
  if (!lb || !ub || !step || step.getInt() <= 0 || lb.getValue().getNumResults() != 1 ||
      ub.getValue().getNumResults() < 1 || lb.getValue().getNumDims() > kOriginDims ||
      ub.getValue().getNumDims() > kOriginDims || lb.getValue().getNumSymbols() != 0 ||
      ub.getValue().getNumSymbols() != 0 || lb.getValue().isFunctionOfDim(kIvDim) ||
      ub.getValue().isFunctionOfDim(kIvDim))
    return std::nullopt;
  ArrayRef<int64_t> grid = kernel.getGrid();
  int64_t tiles = grid[0] * grid[1] * grid[2];
  // Each tile's bounds: lb(g) and the least of ub's results (a clamped
  // bound `min(lb + C, n)` is a map of two results).
  AffineMap lbMap = lb.getValue(), ubMap = ub.getValue();
  SmallVector<std::pair<int64_t, int64_t>> bounds; // (lb, ub) per tile, sorted by lb
  for (int64_t c = 0; c < tiles; ++c) {
    SmallVector<int64_t> at = {c % grid[0], (c / grid[0]) % grid[1], c / (grid[0] * grid[1])};
    SmallVector<int64_t> lbAt(at), ubAt(at);
    lbAt.resize(lbMap.getNumDims(), 0);
    ubAt.resize(ubMap.getNumDims(), 0);
    SmallVector<int64_t> ubs = ubMap.compose(ubAt);
    bounds.push_back({lbMap.compose(lbAt)[0], *llvm::min_element(ubs)});
  }
  llvm::sort(bounds);
  Numbering n;
  n.offset = bounds.front().first;
  n.blocks = tiles;
  if (step.getInt() == tiles) {
    // Cyclic: the lower bounds are `tiles` consecutive values and the upper
    // bound is one constant.
    for (size_t i = 0; i < bounds.size(); ++i)
      if (bounds[i].first != n.offset + (int64_t)i || bounds[i].second != bounds[0].second)
        return std::nullopt;
    n.index = lbMap.getResult(0) - n.offset;
    n.total = std::max<int64_t>(0, bounds[0].second - n.offset);
    if (tiles == 1)
      n.chunk = n.total;
  } else if (step.getInt() == 1) {
    // Chunked: tile i of the sorted order runs [offset + C i, min(offset +
    // C (i + 1), N)), contiguous chunks of C iterations, the last clamped
    // to the end N (tiles past N run none).
    int64_t chunk = tiles > 1 ? bounds[1].first - bounds[0].first
                              : bounds[0].second - bounds[0].first;
    if (chunk <= 0)
      return std::nullopt;
    int64_t end = n.offset;
    for (auto [lo, hi] : bounds)
      end = std::max(end, hi);
    for (auto [i, b] : llvm::enumerate(bounds)) {
      int64_t lo = n.offset + chunk * (int64_t)i;
      if (b.first != lo || std::max(b.second, lo) != std::max(std::min(lo + chunk, end), lo))
        return std::nullopt;
    }
    n.index = (lbMap.getResult(0) - n.offset).floorDiv(chunk);
    n.total = end - n.offset;
    n.chunk = chunk;
  } else {
    return std::nullopt;
  }
  // The dimension the loop moves the transfers along.
  alongDim = -1;
  ArrayRef<int64_t> space = group.getSpace();
  for (StageOp stage : movers)
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto dict = cast<DictionaryAttr>(attr);
      auto origin = dict.getAs<AffineMapAttr>("origin");
      auto dims = dict.getAs<DenseI64ArrayAttr>("dims");
      auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
      if (!origin || !dims || !shape || origin.getValue().getNumResults() != dims.size())
        return std::nullopt;
      for (auto [i, expr] : llvm::enumerate(origin.getValue().getResults())) {
        // The grid reaches the transfers only through the loop.
        for (unsigned g = 0; g < kIvDim; ++g)
          if (expr.isFunctionOfDim(g))
            return std::nullopt;
        std::optional<int64_t> coef = linearCoefficient(expr, kIvDim);
        if (!coef)
          return std::nullopt;
        if (*coef == 0)
          continue;
        int64_t d = dims[i];
        if (d < 0 || (alongDim >= 0 && d != alongDim) || *coef != space[d] ||
            shape[i] != space[d])
          return std::nullopt;
        alongDim = d;
      }
    }
  if (alongDim < 0 || llvm::is_contained(group.getReduceDims(), alongDim))
    return std::nullopt;
  // Every store writes other rows in every iteration (nothing accumulates
  // across iterations).
  for (StageOp stage : movers)
    if (stage.getRole() == "store")
      for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers"))
        if (!cast<DictionaryAttr>(attr).getAs<AffineMapAttr>("origin").getValue().isFunctionOfDim(
                kIvDim))
          return std::nullopt;
  return n;
}

/// Grid row blocks: along one iteration dimension, transfers start at
/// `space[R] * L(g) + c` where L numbers the tiles of the grid dimensions it
/// uses, and no other component depends on those grid dimensions.
std::optional<GroupBlocks::Numbering> GroupBlocks::gridNumbering(int64_t &alongDim) {
  ArrayRef<int64_t> space = group.getSpace();
  ArrayRef<int64_t> grid = kernel.getGrid();
  alongDim = -1;
  SmallVector<int64_t> weights;
  for (StageOp stage : movers)
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto dict = cast<DictionaryAttr>(attr);
      auto origin = dict.getAs<AffineMapAttr>("origin");
      auto dims = dict.getAs<DenseI64ArrayAttr>("dims");
      auto shape = dict.getAs<DenseI64ArrayAttr>("shape");
      if (!origin || !dims || !shape || origin.getValue().getNumResults() != dims.size())
        return std::nullopt;
      for (auto [i, expr] : llvm::enumerate(origin.getValue().getResults())) {
        SmallVector<int64_t> coefs;
        bool moves = false;
        for (unsigned g = 0; g < kIvDim; ++g) {
          std::optional<int64_t> coef = linearCoefficient(expr, g);
          if (!coef)
            return std::nullopt;
          coefs.push_back(*coef);
          moves |= *coef != 0;
        }
        if (!moves)
          continue;
        int64_t d = dims[i];
        if (d < 0 || shape[i] != space[d] || llvm::any_of(coefs, [&](int64_t c) {
              return c % space[d] != 0;
            }))
          return std::nullopt;
        SmallVector<int64_t> w;
        for (int64_t c : coefs)
          w.push_back(c / space[d]);
        if (alongDim < 0) {
          alongDim = d;
          weights = w;
        } else if (d != alongDim || w != weights) {
          return std::nullopt;
        }
      }
    }
  if (alongDim < 0)
    return std::nullopt;
  // L must number the sub-grid of the dimensions it uses 0, 1, 2, ...
  SmallVector<int64_t> values;
  int64_t used[3] = {weights[0] ? grid[0] : 1, weights[1] ? grid[1] : 1,
                     weights[2] ? grid[2] : 1};
  for (int64_t z = 0; z < used[2]; ++z)
    for (int64_t y = 0; y < used[1]; ++y)
      for (int64_t x = 0; x < used[0]; ++x)
        values.push_back(weights[0] * x + weights[1] * y + weights[2] * z);
  llvm::sort(values);
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i] != (int64_t)i)
      return std::nullopt;
  Numbering n;
  n.blocks = values.size();
  n.total = n.blocks;
  n.index = getAffineConstantExpr(0, ctx);
  for (unsigned g = 0; g < kIvDim; ++g)
    n.index = n.index + getAffineDimExpr(g, ctx) * weights[g];
  return n;
}

/// Every component along R, as `space[R]` times a block index plus a
/// constant start, covers the same rows from the same start; records the
/// stored extent and the granule unit of the dense stores.
bool GroupBlocks::consistent(int64_t alongDim, bool fromLoop, const Numbering &numbering) {
  ArrayRef<int64_t> space = group.getSpace();
  std::optional<int64_t> start, end;
  for (StageOp stage : movers) {
    bool isStore = stage.getRole() == "store";
    for (auto [t, attr] : llvm::enumerate(stage->getAttrOfType<ArrayAttr>("transfers"))) {
      auto dict = cast<DictionaryAttr>(attr);
      auto tensor = kernel.lookupSymbol<TensorOp>(dict.getAs<FlatSymbolRefAttr>("tensor"));
      if (!tensor)
        return false;
      AffineMap origin = dict.getAs<AffineMapAttr>("origin").getValue();
      ArrayRef<int64_t> dims = dict.getAs<DenseI64ArrayAttr>("dims").asArrayRef();
      ArrayRef<int64_t> tshape = tensor.getShape(), strides = tensor.getStrides(),
                        lower = tensor.getLowerCorner();
      if (tshape.size() != dims.size() || strides.size() != dims.size() ||
          lower.size() != dims.size())
        return false;
      for (auto [i, d] : llvm::enumerate(dims)) {
        if (d != alongDim)
          continue;
        AffineExpr expr = origin.getResult(i);
        if (fromLoop && !expr.isFunctionOfDim(kIvDim))
          return false; // along R but the same on every iteration
        // Its start at block index 0 and where its data ends.
        int64_t first = atZero(expr) + (fromLoop ? numbering.offset * space[alongDim] : 0);
        if (!fromLoop &&
            llvm::none_of(llvm::seq<unsigned>(0, kIvDim),
                          [&](unsigned g) { return expr.isFunctionOfDim(g); }))
          return false; // along R but the same on every grid tile
        int64_t last = lower[i] + tshape[i];
        if (start && (*start != first || *end != last))
          return false;
        start = first;
        end = last;
        along.push_back({stage, (unsigned)t, (unsigned)i});
        if (!isStore)
          continue;
        // A dense store: the dimensions inside R span the view from its
        // lower corner, rows follow without gaps.
        bool dense = true;
        int64_t inner = 1;
        for (size_t k = dims.size(); k-- > i + 1;) {
          int64_t extent = dims[k] >= 0 ? space[dims[k]] : 1;
          AffineExpr at = origin.getResult(k);
          dense &= strides[k] == inner && tshape[k] == extent &&
                   !at.isFunctionOfDim(kIvDim) && atZero(at) == lower[k] &&
                   llvm::none_of(llvm::seq<unsigned>(0, kIvDim),
                                 [&](unsigned g) { return at.isFunctionOfDim(g); });
          inner *= tshape[k];
        }
        dense &= strides[i] == inner;
        if (!dense)
          continue;
        ElementSize esize = elementSize(tensor.getElementType());
        Bytes perIndex = toBytes(Elements(strides[i]), esize);
        int64_t unit = granule.count() / std::gcd(granule.count(), perIndex.count());
        granuleUnit = std::lcm(granuleUnit, unit);
        // The block of index 0 must start on a granule, or no block does.
        int64_t startElement = tensor.getOffset();
        for (size_t k = 0; k < dims.size(); ++k) {
          int64_t at = atZero(origin.getResult(k));
          if (k == i)
            at = first;
          startElement += (at - lower[k]) * strides[k];
        }
        if (!toBytes(Elements(startElement), esize).isAlignedTo(granule))
          return false;
        if (!(perIndex * space[alongDim]).isAlignedTo(granule))
          needed = true;
      }
    }
  }
  if (!start)
    return false;
  // The kernel covers [start, start + total * space[R]); nothing past it may
  // be valid, or the blocks would store what the kernel does not.
  int64_t covered = numbering.total * space[alongDim];
  storedExtent = std::clamp<int64_t>(*end - *start, 0, covered);
  return *end - *start <= covered;
}

void GroupBlocks::rewrite(int64_t alongDim, int64_t block, const Numbering &numbering,
                          bool fromLoop, StringRef decision) {
  Builder b(ctx);
  ArrayRef<int64_t> space = group.getSpace();
  int64_t perIndex = space[alongDim];
  AffineExpr iv = getAffineDimExpr(kIvDim, ctx);
  for (StageOp stage : movers) {
    SmallVector<Attribute> transfers;
    for (auto [t, attr] : llvm::enumerate(stage->getAttrOfType<ArrayAttr>("transfers"))) {
      auto dict = cast<DictionaryAttr>(attr);
      AffineMap origin = dict.getAs<AffineMapAttr>("origin").getValue();
      SmallVector<AffineExpr> results(origin.getResults());
      SmallVector<int64_t> shape(dict.getAs<DenseI64ArrayAttr>("shape").asArrayRef());
      bool changed = false;
      for (const AlongRef &ref : along) {
        if (ref.stage != stage || ref.transfer != t)
          continue;
        AffineExpr &expr = results[ref.component];
        if (fromLoop) {
          // Iteration iv starts block index (lb - offset) at offset + index * B.
          expr = expr.replace(iv, numbering.offset + numbering.index * (block / perIndex));
        } else {
          // Keep the grid terms of other dimensions: only L's are replaced.
          AffineExpr rest = expr - numbering.index * perIndex;
          expr = rest + numbering.index * block;
        }
        expr = simplifyAffineExpr(expr, kOriginDims, 0);
        shape[ref.component] = block;
        changed = true;
      }
      if (!changed) {
        transfers.push_back(dict);
        continue;
      }
      NamedAttrList entries(dict);
      entries.set("origin", AffineMapAttr::get(AffineMap::get(kOriginDims, 0, results, ctx)));
      entries.set("shape", b.getDenseI64ArrayAttr(shape));
      transfers.push_back(entries.getDictionary(ctx));
    }
    stage->setAttr("transfers", b.getArrayAttr(transfers));
  }
  SmallVector<NamedAttribute> record = {
      b.getNamedAttr("dim", b.getI64IntegerAttr(alongDim)),
      b.getNamedAttr("block", b.getI64IntegerAttr(block))};
  if (fromLoop)
    record.push_back(b.getNamedAttr("loop_iterations", b.getI64IntegerAttr(numbering.total)));
  group->setAttr(decision, decide(b.getDictionaryAttr(record), kHeuristic));
  SmallVector<int64_t> newSpace(space);
  newSpace[alongDim] = block;
  group.setSpaceAttr(b.getDenseI64ArrayAttr(newSpace));
  if (fromLoop)
    group.removeLoopAttr();
}

/// Grid column blocks of an element-wise group (see the header): every
/// component along C moves with the grid and the tiles together cover the
/// view's columns from its lower corner; every component along R covers the
/// same rows on every tile; each store starts on a granule. Rewrites the
/// group to blocks of whole rows and returns true, or leaves it alone.
bool GroupBlocks::columnsToRows(const Numbering &numbering) {
  ArrayRef<int64_t> space = group.getSpace();
  if (space.size() != 2 || space[0] <= 1)
    return false;
  const int64_t rowDim = 0, colDim = 1;
  std::optional<int64_t> width, rowStart, rowEnd;
  bool columnsMove = false, rowsNeedIt = false;
  int64_t unit = 1;
  for (StageOp stage : movers) {
    bool isStore = stage.getRole() == "store";
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto dict = cast<DictionaryAttr>(attr);
      auto tensor = kernel.lookupSymbol<TensorOp>(dict.getAs<FlatSymbolRefAttr>("tensor"));
      if (!tensor)
        return false;
      AffineMap origin = dict.getAs<AffineMapAttr>("origin").getValue();
      ArrayRef<int64_t> dims = dict.getAs<DenseI64ArrayAttr>("dims").asArrayRef();
      ArrayRef<int64_t> shape = dict.getAs<DenseI64ArrayAttr>("shape").asArrayRef();
      ArrayRef<int64_t> tshape = tensor.getShape(), strides = tensor.getStrides(),
                        lower = tensor.getLowerCorner();
      if (tshape.size() != dims.size() || strides.size() != dims.size() ||
          lower.size() != dims.size())
        return false;
      int64_t rowComponent = -1, colComponent = -1;
      for (auto [i, d] : llvm::enumerate(dims)) {
        AffineExpr expr = origin.getResult(i);
        bool moves = llvm::any_of(llvm::seq<unsigned>(0, kIvDim),
                                  [&](unsigned g) { return expr.isFunctionOfDim(g); });
        if (d == colDim) {
          // Tile L(g) covers columns [lower + L space[C], ...): together the
          // tiles cover the view's columns, and nothing past them is valid.
          if (!moves || atZero(expr) != lower[i] || shape[i] != space[colDim] ||
              numbering.blocks * space[colDim] < tshape[i] || (width && *width != tshape[i]))
            return false;
          width = tshape[i];
          colComponent = i;
          columnsMove = true;
        } else if (d == rowDim) {
          // The same rows on every tile, all of them stored.
          int64_t first = atZero(expr), last = lower[i] + tshape[i];
          if (moves || shape[i] != space[rowDim] || last <= first ||
              last - first > space[rowDim] || (rowStart && (*rowStart != first || *rowEnd != last)))
            return false;
          rowStart = first;
          rowEnd = last;
          rowComponent = i;
        } else if (moves) {
          return false;
        }
      }
      if (!isStore)
        continue;
      // A store of rows: its row stride and each tile's row run decide
      // whether the kernel's division leaves DMA runs the description may
      // forbid; a block of B rows is whole granules when B * stride is.
      if (rowComponent < 0 || colComponent < 0 || strides[colComponent] != 1)
        return false;
      ElementSize esize = elementSize(tensor.getElementType());
      Bytes stride = toBytes(Elements(strides[rowComponent]), esize);
      Bytes run = toBytes(Elements(space[colDim]), esize);
      rowsNeedIt |= !stride.isAlignedTo(granule) || !run.isAlignedTo(granule);
      unit = std::lcm(unit, granule.count() / std::gcd(granule.count(), stride.count()));
      int64_t startElement = tensor.getOffset();
      for (size_t k = 0; k < dims.size(); ++k)
        startElement += (atZero(origin.getResult(k)) - lower[k]) * strides[k];
      if (!toBytes(Elements(startElement), esize).isAlignedTo(granule))
        return false;
    }
  }
  if (!columnsMove || !rowStart || !width || !rowsNeedIt)
    return false;
  int64_t rows = *rowEnd - *rowStart;
  int64_t block = llvm::alignTo(ceilDiv(rows, numbering.blocks), unit);
  if (block >= rows)
    block = rows;
  // Rewrite: columns are the view's from its lower corner on every tile,
  // rows the tile's block.
  Builder b(ctx);
  for (StageOp stage : movers) {
    SmallVector<Attribute> transfers;
    for (Attribute attr : stage->getAttrOfType<ArrayAttr>("transfers")) {
      auto dict = cast<DictionaryAttr>(attr);
      AffineMap origin = dict.getAs<AffineMapAttr>("origin").getValue();
      ArrayRef<int64_t> dims = dict.getAs<DenseI64ArrayAttr>("dims").asArrayRef();
      SmallVector<AffineExpr> results(origin.getResults());
      SmallVector<int64_t> shape(dict.getAs<DenseI64ArrayAttr>("shape").asArrayRef());
      for (auto [i, d] : llvm::enumerate(dims)) {
        if (d == colDim) {
          results[i] = getAffineConstantExpr(atZero(results[i]), ctx);
          shape[i] = *width;
        } else if (d == rowDim) {
          results[i] = simplifyAffineExpr(results[i] + numbering.index * block, kOriginDims, 0);
          shape[i] = block;
        }
      }
      NamedAttrList entries(dict);
      entries.set("origin", AffineMapAttr::get(AffineMap::get(kOriginDims, 0, results, ctx)));
      entries.set("shape", b.getDenseI64ArrayAttr(shape));
      transfers.push_back(entries.getDictionary(ctx));
    }
    stage->setAttr("transfers", b.getArrayAttr(transfers));
  }
  group->setAttr("granule_blocks",
                 decide(b.getDictionaryAttr({b.getNamedAttr("dim", b.getI64IntegerAttr(rowDim)),
                                             b.getNamedAttr("block", b.getI64IntegerAttr(block)),
                                             b.getNamedAttr("from_dim",
                                                            b.getI64IntegerAttr(colDim))}),
                        kHeuristic));
  group.setSpaceAttr(b.getDenseI64ArrayAttr({block, *width}));
  return true;
}

void GroupBlocks::run() {
  if (group.getSpace().empty() || !collect())
    return;
  bool fromLoop = (bool)group.getLoopAttr();
  int64_t alongDim = -1;
  std::optional<Numbering> numbering;
  if (fromLoop) {
    numbering = loopNumbering(alongDim);
  } else {
    // Reductions over grid row blocks are ktsched-merge-tiles' to coarsen.
    if (!group.getReduceDims().empty())
      return;
    numbering = gridNumbering(alongDim);
    if (numbering && numbering->blocks < 2)
      return;
  }
  if (!numbering)
    return;
  // Column blocks of rows that are not whole granules become row blocks.
  if (!fromLoop && alongDim == (int64_t)group.getSpace().size() - 1 &&
      columnsToRows(*numbering))
    return;
  if (!consistent(alongDim, fromLoop, *numbering))
    return;
  int64_t perIndex = group.getSpace()[alongDim];
  if (!needed) {
    // Whole granules already. A loop whose iterations on each tile are
    // contiguous rows still becomes one block of them per tile, the tile's
    // own chunk (the division is the kernel's): tile selection then sizes
    // the tiles, where one tile per iteration would pay a DMA descriptor
    // per row (rowloop on one core).
    if (fromLoop && numbering->chunk > 1)
      rewrite(alongDim, numbering->chunk * perIndex, *numbering, fromLoop, "loop_blocks");
    return;
  }
  // Per block: an even share of the stored indices of R, in whole granules
  // of every dense store, in whole iterations of the loop.
  int64_t unit = fromLoop ? std::lcm(granuleUnit, perIndex) : granuleUnit;
  int64_t block = llvm::alignTo(ceilDiv(storedExtent, numbering->blocks), unit);
  if (block >= storedExtent)
    block = fromLoop ? llvm::alignTo(storedExtent, perIndex) : storedExtent;
  if (block <= 0 || (!fromLoop && block == perIndex))
    return;
  rewrite(alongDim, block, *numbering, fromLoop, "granule_blocks");
}

struct AlignGridBlocksPass : ktflow::ktsched::impl::AlignGridBlocksBase<AlignGridBlocksPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::shared_ptr<const arch::ArchModel> model;
    std::optional<Placement> placement;
    if (failed(loadTarget(module, arch, model, placement)))
      return signalPassFailure();
    Bytes granule = memoryGranule(*model, placement->global);
    if (granule.count() <= 1)
      return;
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>())
        GroupBlocks(kernel, group, granule).run();
  }
};

} // namespace
