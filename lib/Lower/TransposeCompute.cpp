//===- TransposeCompute.cpp - a transpose relayed by a vector unit --------===//
//
// Strategy. A ktsched.transpose arrives with every choice made by
// ktsched-schedule-transpose: `transpose = vector`, the vector unit, the
// sub-block [H, W] and the scratchpad regions. This lowering follows them
// mechanically, one bundle per round of grid tiles (tile t on core
// t mod cores) and per class of tiles whose source rows start at the same
// lane of a granule:
//
//  1. the DMA copies the grid tile's R source rows into `rows`, each as the
//     span of whole granules covering it (the row's first element `lead`
//     bytes into the span);
//  2. per band of H source rows, per access-wide column of the rows, per
//     pass of W columns: the load unit pushes the band's H accesses of that
//     column to the vector unit, which slices each row's W elements one by
//     one and concatenates them onto W accumulators (after H rows each is
//     an H-element piece of a transposed row); pieces of A / H consecutive
//     transposed rows are joined into one access and sent to the store
//     unit, which writes it into `cols` (the C x R transposed rows, dense);
//  3. the DMA copies `cols` to the stored block (rows of whole granules, or
//     runs of several rows when the stored rows are back to back).
//
// The copy class pays per issue (slice of one element: one issue; concat:
// one per lanes of its result), so a transposed element costs a slice and
// a concat: about 2 x R x C copy issues per tile. docs/run.md, "Transposes".
//
//===----------------------------------------------------------------------===//
#include "TransposeCompute.h"
#include "TileOperand.h"

#include "ktflow/Schedule/ArchAccess.h"

#include <map>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

namespace {

using ktunit::Reg;
using ktunit::Side;

/// Where a grid tile's blocks start, and the lane class it belongs to.
struct TilePlace {
  int64_t tile = 0, srcStart = 0, dstStart = 0, lead = 0, span = 0;
};

class TransposeLowering {
public:
  TransposeLowering(const arch::ArchModel &model, ks::KernelOp kernel, ks::TransposeOp op,
                    LoweredKernel &out, KernelSymbols &symbols)
      : model(model), kernel(kernel), op(op), out(out), symbols(symbols) {}

  LogicalResult collect();
  /// Every grid tile placed, or a diagnostic.
  FailureOr<SmallVector<TilePlace>> placeTiles();
  LogicalResult emitBundle(ktunit::BundleOp bundle, ArrayRef<TilePlace> tiles);
  int64_t gridTiles() const { return grid[0] * grid[1] * grid[2]; }
  int64_t cores = 1;

private:
  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::TransposeOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  SmallVector<int64_t> grid;
  TileOperand src, dst;
  int64_t rows = 0, cols = 0, es = 2, access = 0, pieceRows = 0, width = 0, granule = 0;
  int64_t maxRun = 0;
  std::string dmaUnit, ldUnit, stUnit, vecUnit, memory;
  int64_t unitsPerCore = 1;
  std::map<std::string, std::pair<int64_t, int64_t>> region;
};

LogicalResult TransposeLowering::collect() {
  grid.assign(kernel.getGrid().begin(), kernel.getGrid().end());
  while (grid.size() < 3)
    grid.push_back(1);
  FailureOr<TileOperand> s = resolveTileOperand(kernel, op, op.getSrc());
  FailureOr<TileOperand> d = resolveTileOperand(kernel, op, op.getDst());
  if (failed(s) || failed(d))
    return failure();
  src = *s, dst = *d;
  rows = src.shape[0], cols = src.shape[1], es = src.esize;
  // Every decision the lowering follows; a missing one is an error.
  auto how = dyn_cast_or_null<StringAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "transpose"));
  auto vec = dyn_cast_or_null<StringAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "vector_unit"));
  auto block = dyn_cast_or_null<DenseI64ArrayAttr>(ktflow::lower::detail::decisionValue(op.getOperation(), "block"));
  auto regions = op->getAttrOfType<DictionaryAttr>("regions");
  auto granuleAttr = op->getAttrOfType<IntegerAttr>("granule");
  if (!how || !vec || !block || block.size() != 2 || !regions || !granuleAttr ||
      !op->getAttrOfType<StringAttr>("load_unit") ||
      !op->getAttrOfType<StringAttr>("store_unit") || !op->getAttrOfType<StringAttr>("memory"))
    return op.emitError("transpose without the decisions of ktsched-schedule-transpose");
  if (how.getValue() != "vector")
    return op.emitError("transpose = ") << how.getValue() << " is not lowered (only vector)";
  pieceRows = block[0], width = block[1], granule = granuleAttr.getInt();
  vecUnit = vec.getValue().str();
  ldUnit = op->getAttrOfType<StringAttr>("load_unit").getValue().str();
  stUnit = op->getAttrOfType<StringAttr>("store_unit").getValue().str();
  memory = op->getAttrOfType<StringAttr>("memory").getValue().str();
  for (NamedAttribute entry : regions) {
    auto span = cast<DenseI64ArrayAttr>(entry.getValue());
    region[entry.getName().str()] = {span[0], span[1]};
  }

  std::optional<ktsched::Placement> placement = ktsched::findPlacement(model, op.getLoc());
  if (!placement)
    return failure();
  cores = placement->cores;
  std::optional<arch::Route> in =
      model.routeFrom(placement->global, arch::NodeInstance{placement->scratchpad, 0});
  SmallVector<arch::NodeId, 8> movers = in ? model.unitsOn(*in) : SmallVector<arch::NodeId, 8>();
  if (movers.size() != 1)
    return op.emitError("global memory must reach the scratchpad through one mover (a DMA)");
  dmaUnit = model.node(movers.front()).name;
  const arch::AccessRule *dmaGlobal = model.node(movers.front()).accessTo(placement->global);
  maxRun = dmaGlobal ? dmaGlobal->maxSize.count() : 0;
  std::optional<arch::NodeId> ld = model.lookupNode(ldUnit);
  std::optional<arch::NodeId> st = model.lookupNode(stUnit);
  if (!ld || !st)
    return op.emitError("transpose's load or store unit is not in the description");
  unitsPerCore = model.nodeInstanceCount(*ld) / std::max<int64_t>(cores, 1);
  const arch::AccessRule *ldRule = model.node(*ld).accessTo(placement->scratchpad);
  if (!ldRule)
    return op.emitError("transpose's load unit cannot access the scratchpad");
  access = ldRule->minSize.count() / es;
  if (pieceRows <= 0 || width <= 0 || access % pieceRows || width % (access / pieceRows) ||
      rows % pieceRows || std::min(cols, access) % width)
    return op.emitError("transpose block ") << pieceRows << "x" << width
                                            << " does not fit the tile and the accesses";
  if (granule > model.node(placement->global).memory.alignment.count())
    return op.emitError("transpose granule of ")
           << granule << " bytes exceeds global memory's alignment: its rows' spans are "
           << "not known to start on a granule";
  return success();
}

FailureOr<SmallVector<TilePlace>> TransposeLowering::placeTiles() {
  SmallVector<TilePlace> placed;
  int64_t srcStride = src.tensor.getStrides()[0] * es;
  int64_t dstStride = dst.tensor.getStrides()[0] * es;
  int64_t rowBytes = cols * es, outRowBytes = rows * es;
  bool dstDense = dst.tensor.getStrides()[0] == rows;
  if (rows > 1 && srcStride % granule)
    return op.emitError("the source rows are ")
           << srcStride << " bytes apart, not whole " << granule
           << "-byte granules: each would start at another lane";
  if (!dstDense && (outRowBytes % granule || dstStride % granule))
    return op.emitError("the transposed rows (")
           << outRowBytes << " bytes, " << dstStride << " apart) are not whole " << granule
           << "-byte granules; writing part of a granule is missing";
  for (int64_t t = 0; t < gridTiles(); ++t) {
    TilePlace p;
    p.tile = t;
    int64_t start = tileOperandOffset(src, grid, t);
    p.lead = start % granule;
    p.srcStart = start - p.lead;
    p.span = (p.lead + rowBytes + granule - 1) / granule * granule;
    p.dstStart = tileOperandOffset(dst, grid, t);
    int64_t laneLead = p.lead / es % access;
    if ((cols >= access && laneLead) || (cols < access && laneLead + cols > access))
      return op.emitError("grid tile ")
             << t << "'s source rows start " << p.lead << " bytes into a granule and cross "
             << "an access there; realigning them is missing";
    if (p.dstStart % granule)
      return op.emitError("grid tile ") << t << "'s transposed block starts " << p.dstStart
                                        << " bytes into its tensor, not on a granule";
    if (p.span > maxRun)
      return op.emitError("a source row's span of ") << p.span << " bytes exceeds one DMA run";
    placed.push_back(p);
  }
  return placed;
}

LogicalResult TransposeLowering::emitBundle(ktunit::BundleOp bundle, ArrayRef<TilePlace> tiles) {
  using dc::ProgramBuilder;
  MLIRContext *ctx = op.getContext();
  uint32_t symSrc = tileOperandSymbol(model, kernel, src, false, out, symbols);
  uint32_t symDst = tileOperandSymbol(model, kernel, dst, true, out, symbols);
  std::vector<int64_t> dmaInstances, unitInstances;
  for (const TilePlace &p : tiles) {
    int64_t core = p.tile % cores;
    dmaInstances.push_back(core);
    unitInstances.push_back(core * unitsPerCore);
  }
  Location loc = op.getLoc();
  auto program = [&](StringRef name, StringRef unit, std::vector<int64_t> instances,
                     uint32_t columns) {
    return std::make_unique<ktunit::ProgramBuilder>(bundle, name, unit, std::move(instances),
                                                    columns, symbols.names, loc);
  };
  auto channel = [&](StringRef name, StringRef producer, StringRef consumer,
                     const dc::NodeRef &consumerRef, const dc::NodeRef &producerRef) {
    OpBuilder builder(ctx);
    builder.setInsertionPointToStart(&bundle.getBody().front());
    return ktunit::ChannelOp::create(builder, loc, name, 1, producer, consumer,
                                     ktunit::ProgramBuilder::nodeRef(ctx, consumerRef),
                                     ktunit::ProgramBuilder::nodeRef(ctx, producerRef));
  };
  auto nearest = [](StringRef unit) { return ProgramBuilder::node(unit); };
  auto fromTable = [](StringRef unit, int64_t column) {
    return ProgramBuilder::node(unit, {dc::InstanceSelector::Kind::TableColumn, column});
  };
  // DMA table: source and stored byte offsets of the core's grid tile; ld
  // and st peers.
  auto inputs = channel("in", "dma", "ld", fromTable(ldUnit, 2), nearest(dmaUnit));
  auto outputs = channel("out", "st", "dma", nearest(dmaUnit), fromTable(stUnit, 3));
  auto spad = [&](StringRef name, int64_t offset = 0) {
    return ProgramBuilder::memoryAddress(memory, Bytes(region[name.str()].first + offset));
  };
  auto term = [](dc::Address addr, uint32_t depth, int64_t stride) {
    addr.terms.push_back({depth, Bytes(stride), 0});
    return addr;
  };

  // One class of tiles: one lead, one span.
  const int64_t lead = tiles.front().lead, span = tiles.front().span;
  const int64_t msg = access * es, laneLead = lead / es;
  const int64_t firstAccess = laneLead / access, lane0 = laneLead % access;
  const int64_t perAccess = access / pieceRows;         // transposed rows per access
  const int64_t bands = rows / pieceRows;               // pieces per transposed row
  const int64_t accessCols = std::min(cols, access);    // source columns per access
  const int64_t columnAccesses = cols / accessCols;     // accesses per source row
  const int64_t passes = accessCols / width;            // passes per access column
  const int64_t sends = width / perAccess;              // accesses per pass
  const int64_t outRow = rows * es;                     // one transposed row's bytes
  {
    auto dma = program("dma", dmaUnit, dmaInstances, 4);
    for (const TilePlace &p : tiles) {
      int64_t core = p.tile % cores;
      dma->addTableRow({p.srcStart, p.dstStart, core * unitsPerCore, core * unitsPerCore});
    }
    auto global = [&](uint32_t sym, uint32_t column) {
      dc::Address addr = ProgramBuilder::symbolAddress(sym);
      addr.tableColumn = column;
      return addr;
    };
    dma->acquire(inputs, Side::producer);
    dma->copy(spad("rows"), global(symSrc, 0), Bytes(span),
              {{rows, Bytes(src.tensor.getStrides()[0] * es), Bytes(span)}});
    dma->release(inputs, Side::producer);
    dma->acquire(outputs, Side::consumer);
    if (dst.tensor.getStrides()[0] == rows) {
      // Back-to-back stored rows: runs of as many rows as a DMA run holds,
      // each a whole number of granules.
      int64_t runRows = 0;
      for (int64_t k = 1; k <= cols; ++k)
        if (cols % k == 0 && (k * outRow) % granule == 0 && k * outRow <= maxRun)
          runRows = k;
      if (!runRows)
        return op.emitError("no run of the transposed rows is whole granules within one DMA "
                            "run");
      dma->copy(global(symDst, 1), spad("cols"), Bytes(runRows * outRow),
                {{cols / runRows, Bytes(runRows * outRow), Bytes(runRows * outRow)}});
    } else {
      dma->copy(global(symDst, 1), spad("cols"), Bytes(outRow),
                {{cols, Bytes(outRow), Bytes(dst.tensor.getStrides()[0] * es)}});
    }
    dma->release(outputs, Side::consumer);
    if (failed(dma->status()))
      return failure();
  }
  {
    // The band's H accesses of one access column, once per pass.
    auto ld = program("ld", ldUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit);
    ld->acquire(inputs, Side::consumer);
    ld->loop(bands);
    ld->loop(columnAccesses);
    ld->loop(passes);
    ld->loop(pieceRows);
    ld->push(vec,
             term(term(term(spad("rows", firstAccess * msg), 0, pieceRows * span), 1, msg), 3,
                  span),
             Bytes(msg));
    ld->end();
    ld->end();
    ld->end();
    ld->end();
    ld->release(inputs, Side::consumer);
    if (failed(ld->status()))
      return failure();
  }
  {
    auto vec = program("vec", vecUnit, unitInstances, 0);
    dc::NodeRef ld = nearest(ldUnit), st = nearest(stUnit);
    vec->loop(bands);
    vec->loop(columnAccesses);
    for (int64_t pass = 0; pass < passes; ++pass) {
      SmallVector<Reg> piece(width);
      for (int64_t r = 0; r < pieceRows; ++r) {
        Reg row = vec->newReg();
        vec->recv(row, src.regType, Elements(access), ld);
        for (int64_t c = 0; c < width; ++c) {
          Reg element = vec->newReg();
          vec->slice(element, row, lane0 + pass * width + c, Elements(1));
          if (r == 0) {
            piece[c] = element;
            continue;
          }
          Reg joined = vec->newReg();
          vec->concat(joined, piece[c], element);
          piece[c] = joined;
        }
      }
      for (int64_t s = 0; s < sends; ++s) {
        Reg joined = piece[s * perAccess];
        for (int64_t p = 1; p < perAccess; ++p) {
          Reg next = vec->newReg();
          vec->concat(next, joined, piece[s * perAccess + p]);
          joined = next;
        }
        vec->send(st, joined);
      }
    }
    vec->end();
    vec->end();
    if (failed(vec->status()))
      return failure();
  }
  {
    // Access s of pass p in access column c of band b holds transposed rows
    // from j = c * A + p * W + s * (A / H) on, their elements b * H on.
    auto st = program("st", stUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit);
    st->acquire(outputs, Side::producer);
    st->loop(bands);
    st->loop(columnAccesses);
    st->loop(passes);
    for (int64_t s = 0; s < sends; ++s)
      st->pop(vec,
              term(term(term(spad("cols", s * perAccess * outRow), 0, pieceRows * es), 1,
                        accessCols * outRow),
                   2, width * outRow),
              Bytes(msg));
    st->end();
    st->end();
    st->end();
    st->release(outputs, Side::producer);
    if (failed(st->status()))
      return failure();
  }
  return success();
}

} // namespace

LogicalResult ktflow::lower::detail::lowerTranspose(
    const arch::ArchModel &model, ks::KernelOp kernel, ks::TransposeOp op, LoweredKernel &out,
    KernelSymbols &symbols, llvm::function_ref<ktunit::BundleOp()> newBundle) {
  TransposeLowering lowering(model, kernel, op, out, symbols);
  if (failed(lowering.collect()))
    return failure();
  FailureOr<SmallVector<TilePlace>> places = lowering.placeTiles();
  if (failed(places))
    return failure();
  // Rounds of one tile per core; within a round, one bundle per lane class
  // (the vector program's slices name lanes).
  int64_t tiles = lowering.gridTiles(), cores = std::max<int64_t>(lowering.cores, 1);
  for (int64_t first = 0; first < tiles; first += cores) {
    std::map<std::pair<int64_t, int64_t>, SmallVector<TilePlace>> classes;
    for (int64_t t = first; t < std::min(tiles, first + cores); ++t)
      classes[{(*places)[t].lead, (*places)[t].span}].push_back((*places)[t]);
    for (auto &[key, round] : classes)
      if (failed(lowering.emitBundle(newBundle(), round)))
        return failure();
  }
  return success();
}
