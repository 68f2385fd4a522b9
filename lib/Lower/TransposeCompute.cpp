//===- TransposeCompute.cpp - a transpose relayed by a vector unit --------===//
//
// Strategy. A ktsched.transpose arrives with every choice made by
// ktsched-schedule-transpose: `transpose = vector`, the vector unit, the
// sub-block [H, W] and the scratchpad regions. This lowering follows them
// mechanically, one bundle per round of grid tiles (tile t on core
// t mod cores) and per class of tiles whose source rows start at the same
// lane of a granule:
//
//  0. per step of S source rows (`step`; one step of all R rows where the
//     tile fits the scratchpad), 1 to 3 run on the step's rows;
//  1. the DMA copies the step's S source rows into `rows`, each as the
//     span of whole granules covering it (the row's first element `lead`
//     bytes into the span);
//  2. per band of H source rows, per access-wide column of the rows, per
//     pass of W columns: the load unit pushes the band's H accesses of that
//     column to the vector unit, which slices each row's W elements one by
//     one and concatenates them onto W accumulators (after H rows each is
//     an H-element piece of a transposed row); pieces of A / H consecutive
//     transposed rows are joined into one access and sent to the store
//     unit, which writes it into `cols` (the C x S transposed pieces, dense);
//  3. the DMA copies `cols` to the stored block (rows of whole granules, or
//     runs of several rows when the stored rows are back to back and the
//     tile is one step; a step's pieces S columns further on than the last).
//
// Where the vector unit accesses the scratchpad itself and two DMAs reach
// it through a staging memory (deep: HBM -> L2 -> L1), the vector unit
// vloads the rows and vstores the transposed accesses at the same
// addresses, and the copies go through each core's staging copy of the
// regions: the outer DMA serves every tile of the round from one program,
// each core's tile DMA moves its regions between the levels, and channels
// of one slot hand over as on one level.
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
  /// The geometry of one class of tiles (one lead and span).
  void setClass(const TilePlace &first);
  /// The vector unit's passes: `rowIn(reg, r, pass)` fills a register with
  /// source row r of the band's pass, `accessOut(reg, pass, s)` writes
  /// transposed access s of the pass; both inside the band and
  /// access-column loops (depths 0 and 1).
  void emitPasses(ktunit::ProgramBuilder &vec,
                  llvm::function_ref<void(Reg, int64_t, int64_t)> rowIn,
                  llvm::function_ref<void(Reg, int64_t, int64_t)> accessOut);
  /// Addresses in the scratchpad regions (`memory`) of source row r of a
  /// pass and of transposed access s of a pass, with the band and
  /// access-column loop terms at depths `band` and `band + 1`.
  dc::Address rowAddress(int64_t r, uint32_t band) const;
  dc::Address accessAddress(int64_t pass, int64_t s, uint32_t band) const;
  LogicalResult emitOneLevel(ktunit::BundleOp bundle, ArrayRef<TilePlace> tiles);
  LogicalResult emitTwoLevel(ktunit::BundleOp bundle, ArrayRef<TilePlace> tiles);
  /// The copy of the stored rows out of `from` (a scratchpad or staging
  /// address of `cols`) into the stored block at `to`.
  LogicalResult copyOut(ktunit::ProgramBuilder &dma, dc::Address to, dc::Address from);
  /// A grid tile's first source row `from`, S rows further on per step (the
  /// loop at depth 0) where the tile runs in several.
  dc::Address stepSource(dc::Address from) const;
  ktunit::ChannelOp channel(ktunit::BundleOp bundle, StringRef name, StringRef producer,
                            StringRef consumer, const dc::NodeRef &consumerRef,
                            const dc::NodeRef &producerRef);

  // One class's geometry (setClass).
  int64_t lead = 0, span = 0, msg = 0, firstAccess = 0, lane0 = 0, perAccess = 0, bands = 0,
          accessCols = 0, columnAccesses = 0, passes = 0, sends = 0, outRow = 0;
  // Two levels: the outer and tile DMAs and the staging copies.
  bool twoLevel = false;
  std::string outerDmaUnit, tileDmaUnit, stagingMemory;
  int64_t stagingStride = 0, tileDmaMax = 0;

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::TransposeOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  SmallVector<int64_t> grid;
  TileOperand src, dst;
  int64_t rows = 0, cols = 0, es = 2, access = 0, pieceRows = 0, width = 0, granule = 0;
  /// Source rows per step, the steps, and the loop depth the band loop is
  /// at (1 inside a loop over several steps, else 0).
  int64_t stepRows = 0, steps = 1;
  uint32_t bandDepth = 0;
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
      !op->getAttrOfType<StringAttr>("memory"))
    return op.emitError("transpose without the decisions of ktsched-schedule-transpose");
  if (how.getValue() != "vector")
    return op.emitError("transpose = ") << how.getValue() << " is not lowered (only vector)";
  pieceRows = block[0], width = block[1], granule = granuleAttr.getInt();
  auto stepAttr = dyn_cast_or_null<IntegerAttr>(
      ktflow::lower::detail::decisionValue(op.getOperation(), "step"));
  stepRows = stepAttr ? stepAttr.getInt() : rows;
  if (stepRows <= 0 || rows % stepRows || stepRows % pieceRows)
    return op.emitError("transpose step ") << stepRows << " does not divide the " << rows
                                           << " rows in whole pieces of " << pieceRows;
  steps = rows / stepRows;
  bandDepth = steps > 1 ? 1 : 0;
  vecUnit = vec.getValue().str();
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
  auto stagingAttr = op->getAttrOfType<StringAttr>("staging_memory");
  auto strideAttr = op->getAttrOfType<IntegerAttr>("staging_stride");
  twoLevel = movers.size() == 2 && stagingAttr && strideAttr;
  if (movers.size() != 1 && !twoLevel)
    return op.emitError("global memory must reach the scratchpad through one mover (a DMA), "
                        "or two through the transpose's staging memory");
  dmaUnit = model.node(movers.front()).name;
  const arch::AccessRule *dmaGlobal = model.node(movers.front()).accessTo(placement->global);
  maxRun = dmaGlobal ? dmaGlobal->maxSize.count() : 0;
  if (twoLevel) {
    outerDmaUnit = dmaUnit;
    tileDmaUnit = model.node(movers[1]).name;
    stagingMemory = stagingAttr.getValue().str();
    stagingStride = strideAttr.getInt();
    tileDmaMax = std::numeric_limits<int64_t>::max();
    for (const arch::AccessRule &rule : model.node(movers[1]).access)
      tileDmaMax = std::min(tileDmaMax, rule.maxSize.count());
  }
  // Through a load and a store unit, or the vector unit's own accesses.
  bool direct = !op->getAttrOfType<StringAttr>("load_unit");
  if (direct != twoLevel)
    return op.emitError("a transpose is lowered through load and store units below one DMA, "
                        "or by the vector unit's own accesses below two");
  if (!direct) {
    ldUnit = op->getAttrOfType<StringAttr>("load_unit").getValue().str();
    stUnit = op->getAttrOfType<StringAttr>("store_unit").getValue().str();
  }
  std::optional<arch::NodeId> ld = model.lookupNode(direct ? vecUnit : ldUnit);
  std::optional<arch::NodeId> st = model.lookupNode(direct ? vecUnit : stUnit);
  if (!ld || !st)
    return op.emitError("transpose's units are not in the description");
  unitsPerCore = model.nodeInstanceCount(*ld) / std::max<int64_t>(cores, 1);
  const arch::AccessRule *ldRule = model.node(*ld).accessTo(placement->scratchpad);
  if (!ldRule)
    return op.emitError("transpose's load unit cannot access the scratchpad");
  access = ldRule->minSize.count() / es;
  if (pieceRows <= 0 || width <= 0 || access % pieceRows || width % (access / pieceRows) ||
      rows % pieceRows || std::min(cols, access) % width)
    return op.emitError("transpose block ") << pieceRows << "x" << width
                                            << " does not fit the tile and the accesses";
  // Spans start at granule offsets from a symbol's start, which is aligned
  // to global memory's alignment: the DMA needs no more than that.
  if (!dmaGlobal || !model.node(placement->global)
                        .memory.alignment.isAlignedTo(dmaGlobal->alignment) ||
      granule % dmaGlobal->alignment.count())
    return op.emitError("the DMA's alignment in global memory does not divide global "
                        "memory's alignment and the transpose's granule");
  return success();
}

FailureOr<SmallVector<TilePlace>> TransposeLowering::placeTiles() {
  SmallVector<TilePlace> placed;
  int64_t srcStride = src.tensor.getStrides()[0] * es;
  int64_t dstStride = dst.tensor.getStrides()[0] * es;
  int64_t rowBytes = cols * es, outRowBytes = stepRows * es;
  bool dstDense = dst.tensor.getStrides()[0] == rows && steps == 1;
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

void TransposeLowering::setClass(const TilePlace &first) {
  lead = first.lead, span = first.span;
  msg = access * es;
  int64_t laneLead = lead / es;
  firstAccess = laneLead / access, lane0 = laneLead % access;
  perAccess = access / pieceRows;       // transposed rows per access
  bands = stepRows / pieceRows;         // pieces per transposed row and step
  accessCols = std::min(cols, access);  // source columns per access
  columnAccesses = cols / accessCols;   // accesses per source row
  passes = accessCols / width;          // passes per access column
  sends = width / perAccess;            // accesses per pass
  outRow = stepRows * es;               // one transposed row's bytes per step
}

static dc::Address withTerm(dc::Address addr, uint32_t depth, int64_t stride) {
  addr.terms.push_back({depth, Bytes(stride), 0});
  return addr;
}

dc::Address TransposeLowering::rowAddress(int64_t r, uint32_t band) const {
  dc::Address addr = dc::ProgramBuilder::memoryAddress(
      memory, Bytes(region.at("rows").first + firstAccess * msg + r * span));
  return withTerm(withTerm(addr, band, pieceRows * span), band + 1, msg);
}

// Access s of pass p in access column c of band b holds transposed rows
// from j = c * A + p * W + s * (A / H) on, their elements b * H on.
dc::Address TransposeLowering::accessAddress(int64_t pass, int64_t s, uint32_t band) const {
  dc::Address addr = dc::ProgramBuilder::memoryAddress(
      memory,
      Bytes(region.at("cols").first + pass * width * outRow + s * perAccess * outRow));
  return withTerm(withTerm(addr, band, pieceRows * es), band + 1, accessCols * outRow);
}

void TransposeLowering::emitPasses(ktunit::ProgramBuilder &vec,
                                   llvm::function_ref<void(Reg, int64_t, int64_t)> rowIn,
                                   llvm::function_ref<void(Reg, int64_t, int64_t)> accessOut) {
  vec.loop(bands);
  vec.loop(columnAccesses);
  for (int64_t pass = 0; pass < passes; ++pass) {
    SmallVector<Reg> piece(width);
    for (int64_t r = 0; r < pieceRows; ++r) {
      Reg row = vec.newReg();
      rowIn(row, r, pass);
      for (int64_t c = 0; c < width; ++c) {
        Reg element = vec.newReg();
        vec.slice(element, row, lane0 + pass * width + c, Elements(1));
        if (r == 0) {
          piece[c] = element;
          continue;
        }
        Reg joined = vec.newReg();
        vec.concat(joined, piece[c], element);
        piece[c] = joined;
      }
    }
    for (int64_t s = 0; s < sends; ++s) {
      Reg joined = piece[s * perAccess];
      for (int64_t p = 1; p < perAccess; ++p) {
        Reg next = vec.newReg();
        vec.concat(next, joined, piece[s * perAccess + p]);
        joined = next;
      }
      accessOut(joined, pass, s);
    }
  }
  vec.end();
  vec.end();
}

ktunit::ChannelOp TransposeLowering::channel(ktunit::BundleOp bundle, StringRef name,
                                             StringRef producer, StringRef consumer,
                                             const dc::NodeRef &consumerRef,
                                             const dc::NodeRef &producerRef) {
  MLIRContext *ctx = op.getContext();
  OpBuilder builder(ctx);
  builder.setInsertionPointToStart(&bundle.getBody().front());
  return ktunit::ChannelOp::create(builder, op.getLoc(), name, 1, producer, consumer,
                                   ktunit::ProgramBuilder::nodeRef(ctx, consumerRef),
                                   ktunit::ProgramBuilder::nodeRef(ctx, producerRef));
}

dc::Address TransposeLowering::stepSource(dc::Address from) const {
  return steps > 1 ? withTerm(from, 0, stepRows * src.tensor.getStrides()[0] * es) : from;
}

LogicalResult TransposeLowering::copyOut(ktunit::ProgramBuilder &dma, dc::Address to,
                                         dc::Address from) {
  if (dst.tensor.getStrides()[0] == rows && steps == 1) {
    // Back-to-back stored rows: runs of as many rows as a DMA run holds,
    // each a whole number of granules.
    int64_t runRows = 0;
    for (int64_t k = 1; k <= cols; ++k)
      if (cols % k == 0 && (k * outRow) % granule == 0 && k * outRow <= maxRun)
        runRows = k;
    if (!runRows)
      return op.emitError("no run of the transposed rows is whole granules within one DMA run");
    dma.copy(to, from, Bytes(runRows * outRow),
             {{cols / runRows, Bytes(runRows * outRow), Bytes(runRows * outRow)}});
  } else {
    // A step's pieces: S elements of each transposed row, S further on
    // per step.
    if (steps > 1)
      to = withTerm(to, 0, outRow);
    dma.copy(to, from, Bytes(outRow),
             {{cols, Bytes(outRow), Bytes(dst.tensor.getStrides()[0] * es)}});
  }
  return success();
}

LogicalResult TransposeLowering::emitBundle(ktunit::BundleOp bundle, ArrayRef<TilePlace> tiles) {
  setClass(tiles.front());
  return twoLevel ? emitTwoLevel(bundle, tiles) : emitOneLevel(bundle, tiles);
}

LogicalResult TransposeLowering::emitOneLevel(ktunit::BundleOp bundle,
                                              ArrayRef<TilePlace> tiles) {
  using dc::ProgramBuilder;
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
  auto nearest = [](StringRef unit) { return ProgramBuilder::node(unit); };
  auto fromTable = [](StringRef unit, int64_t column) {
    return ProgramBuilder::node(unit, {dc::InstanceSelector::Kind::TableColumn, column});
  };
  // DMA table: source and stored byte offsets of the core's grid tile; ld
  // and st peers.
  auto inputs = channel(bundle, "in", "dma", "ld", fromTable(ldUnit, 2), nearest(dmaUnit));
  auto outputs = channel(bundle, "out", "st", "dma", nearest(dmaUnit), fromTable(stUnit, 3));
  auto spad = [&](StringRef name) {
    return ProgramBuilder::memoryAddress(memory, Bytes(region[name.str()].first));
  };
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
    if (steps > 1)
      dma->loop(steps);
    dma->acquire(inputs, Side::producer);
    dma->copy(spad("rows"), stepSource(global(symSrc, 0)), Bytes(span),
              {{stepRows, Bytes(src.tensor.getStrides()[0] * es), Bytes(span)}});
    dma->release(inputs, Side::producer);
    dma->acquire(outputs, Side::consumer);
    if (failed(copyOut(*dma, global(symDst, 1), spad("cols"))))
      return failure();
    dma->release(outputs, Side::consumer);
    if (steps > 1)
      dma->end();
    if (failed(dma->status()))
      return failure();
  }
  {
    // The band's H accesses of one access column, once per pass.
    auto ld = program("ld", ldUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit);
    if (steps > 1)
      ld->loop(steps);
    ld->acquire(inputs, Side::consumer);
    ld->loop(bands);
    ld->loop(columnAccesses);
    ld->loop(passes);
    ld->loop(pieceRows);
    ld->push(vec, withTerm(rowAddress(0, bandDepth), bandDepth + 3, span), Bytes(msg));
    ld->end();
    ld->end();
    ld->end();
    ld->end();
    ld->release(inputs, Side::consumer);
    if (steps > 1)
      ld->end();
    if (failed(ld->status()))
      return failure();
  }
  {
    auto vec = program("vec", vecUnit, unitInstances, 0);
    dc::NodeRef ld = nearest(ldUnit), st = nearest(stUnit);
    if (steps > 1)
      vec->loop(steps);
    emitPasses(
        *vec, [&](Reg row, int64_t, int64_t) { vec->recv(row, src.regType, Elements(access), ld); },
        [&](Reg joined, int64_t, int64_t) { vec->send(st, joined); });
    if (steps > 1)
      vec->end();
    if (failed(vec->status()))
      return failure();
  }
  {
    auto st = program("st", stUnit, unitInstances, 0);
    dc::NodeRef vec = nearest(vecUnit);
    if (steps > 1)
      st->loop(steps);
    st->acquire(outputs, Side::producer);
    st->loop(bands);
    st->loop(columnAccesses);
    st->loop(passes);
    for (int64_t s = 0; s < sends; ++s)
      st->pop(vec, withTerm(accessAddress(0, s, bandDepth), bandDepth + 2, width * outRow),
              Bytes(msg));
    st->end();
    st->end();
    st->end();
    st->release(outputs, Side::producer);
    if (steps > 1)
      st->end();
    if (failed(st->status()))
      return failure();
  }
  return success();
}

LogicalResult TransposeLowering::emitTwoLevel(ktunit::BundleOp bundle,
                                              ArrayRef<TilePlace> tiles) {
  using dc::ProgramBuilder;
  uint32_t symSrc = tileOperandSymbol(model, kernel, src, false, out, symbols);
  uint32_t symDst = tileOperandSymbol(model, kernel, dst, true, out, symbols);
  Location loc = op.getLoc();
  auto program = [&](StringRef name, StringRef unit, std::vector<int64_t> instances) {
    return std::make_unique<ktunit::ProgramBuilder>(bundle, name, unit, std::move(instances),
                                                    0, symbols.names, loc);
  };
  auto nearest = [](StringRef unit) { return ProgramBuilder::node(unit); };
  auto staged = [&](int64_t core, StringRef name) {
    return ProgramBuilder::memoryAddress(
        stagingMemory, Bytes(core * stagingStride + region[name.str()].first));
  };
  auto local = [&](StringRef name) {
    return ProgramBuilder::memoryAddress(memory, Bytes(region[name.str()].first));
  };
  auto global = [&](uint32_t sym, int64_t offset) {
    dc::Address addr = ProgramBuilder::symbolAddress(sym);
    addr.offset = Bytes(offset);
    return addr;
  };
  // Per core: outer in (outer DMA -> tile DMA), inner in (tile DMA ->
  // vector unit), inner out (vector unit -> tile DMA), outer out (tile DMA
  // -> outer DMA).
  std::map<int64_t, ktunit::ChannelOp> outerIn, innerIn, innerOut, outerOut;
  for (const TilePlace &p : tiles) {
    int64_t core = p.tile % cores;
    std::string c = std::to_string(core);
    dc::NodeRef tileDma =
        ProgramBuilder::node(tileDmaUnit, {dc::InstanceSelector::Kind::Absolute, core});
    outerIn[core] = channel(bundle, "outer_in" + c, "dma", "tdma" + c, tileDma,
                            nearest(outerDmaUnit));
    innerIn[core] = channel(bundle, "inner_in" + c, "tdma" + c, "vec" + c, nearest(vecUnit),
                            nearest(tileDmaUnit));
    innerOut[core] = channel(bundle, "inner_out" + c, "vec" + c, "tdma" + c,
                             nearest(tileDmaUnit), nearest(vecUnit));
    outerOut[core] = channel(bundle, "outer_out" + c, "tdma" + c, "dma",
                             nearest(outerDmaUnit), tileDma);
  }
  {
    // The outer DMA serves every tile of the round from one program.
    // Per step, every tile's rows in, then every tile's pieces out: a tile's
    // next rows need its tile DMA to have taken this step's.
    auto dma = program("dma", outerDmaUnit, {0});
    if (steps > 1)
      dma->loop(steps);
    for (const TilePlace &p : tiles) {
      int64_t core = p.tile % cores;
      dma->acquire(outerIn[core], Side::producer);
      dma->copy(staged(core, "rows"), stepSource(global(symSrc, p.srcStart)), Bytes(span),
                {{stepRows, Bytes(src.tensor.getStrides()[0] * es), Bytes(span)}});
      dma->release(outerIn[core], Side::producer);
    }
    for (const TilePlace &p : tiles) {
      int64_t core = p.tile % cores;
      dma->acquire(outerOut[core], Side::consumer);
      if (failed(copyOut(*dma, global(symDst, p.dstStart), staged(core, "cols"))))
        return failure();
      dma->release(outerOut[core], Side::consumer);
    }
    if (steps > 1)
      dma->end();
    if (failed(dma->status()))
      return failure();
  }
  // A region's bytes between the levels, cut to the tile DMA's largest run.
  auto copyRegion = [&](ktunit::ProgramBuilder &b, dc::Address to, dc::Address from,
                        int64_t bytes) {
    for (int64_t done = 0; done < bytes; done += tileDmaMax) {
      dc::Address d = to, s = from;
      d.offset = d.offset + Bytes(done);
      s.offset = s.offset + Bytes(done);
      b.copy(d, s, Bytes(std::min(tileDmaMax, bytes - done)), {});
    }
  };
  for (const TilePlace &p : tiles) {
    int64_t core = p.tile % cores;
    std::string c = std::to_string(core);
    {
      auto tdma = program("tdma" + c, tileDmaUnit, {core});
      if (steps > 1)
        tdma->loop(steps);
      tdma->acquire(outerIn[core], Side::consumer);
      tdma->acquire(innerIn[core], Side::producer);
      copyRegion(*tdma, local("rows"), staged(core, "rows"), stepRows * span);
      tdma->release(outerIn[core], Side::consumer);
      tdma->release(innerIn[core], Side::producer);
      tdma->acquire(innerOut[core], Side::consumer);
      tdma->acquire(outerOut[core], Side::producer);
      copyRegion(*tdma, staged(core, "cols"), local("cols"), stepRows * cols * es);
      tdma->release(innerOut[core], Side::consumer);
      tdma->release(outerOut[core], Side::producer);
      if (steps > 1)
        tdma->end();
      if (failed(tdma->status()))
        return failure();
    }
    {
      auto vec = program("vec" + c, vecUnit, {core * unitsPerCore});
      if (steps > 1)
        vec->loop(steps);
      vec->acquire(innerIn[core], Side::consumer);
      vec->acquire(innerOut[core], Side::producer);
      emitPasses(
          *vec,
          [&](Reg row, int64_t r, int64_t) {
            vec->vload(row, src.regType, Elements(access), rowAddress(r, bandDepth));
          },
          [&](Reg joined, int64_t pass, int64_t s) {
            vec->vstore(accessAddress(pass, s, bandDepth), joined);
          });
      vec->release(innerIn[core], Side::consumer);
      vec->release(innerOut[core], Side::producer);
      if (steps > 1)
        vec->end();
      if (failed(vec->status()))
        return failure();
    }
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
