//===- VectorContraction.cpp - a contraction on a vector unit -------------===//
//
// Strategy. A ktsched.contraction with `compute = vector` arrives with
// every choice made by ktsched-schedule-contraction
// (ScheduleVectorContraction.cpp): the vector unit, the multiply-
// accumulate, the step [TM, TN, TK] (panels, K steps), the block [bm, TN,
// A] (bm accumulator rows of the panel's TN columns, K consumed A elements
// at a time), the row-major regions and the staging copies. This lowering
// follows them mechanically, one bundle per round of grid tiles (tile t on
// core t mod cores), every program looping over the panels and, within a
// panel, over its K steps:
//
//  1. the outer DMA copies each tile's A (TM x TK) and B (TK x TN) rows of
//     the step and the epilogue's row operands (the panel's columns) into
//     the core's staging copy of the regions, and each core's tile DMA
//     moves them on into its scratchpad;
//  2. the vector unit, per block of bm output rows: presets bm accumulator
//     rows of TN elements (`vconst` of the init) in a panel's first step,
//     else reads them back from the `acc` region; per access of A elements
//     along K it loads that access of each of the bm A rows (cast to the
//     accumulator type once), then per k in it loads B's row k (whole
//     accesses joined with `concat`, cast) and folds it into each
//     accumulator row: `bcast` of the row's A element over N lanes, then
//     `fma` (or `mul` and `add`, the `multiply_accumulate` decision) —
//     every output element folds k = 0, 1, ... in order with the
//     interpreter's roundings;
//  3. in a panel's last step each accumulator row runs the epilogue body
//     (or the cast to the stored type), is cut into accesses with `slice`
//     and stored into the stored rows; in the others it is written back to
//     `acc` (the accumulator type both ways: exact);
//  4. after a panel's steps the tile DMA moves its stored rows to the
//     staging copy and the outer DMA to global memory.
//
// The k loop within one access of A is unrolled (a `bcast` lane is an
// immediate); the loops over row blocks and over A's accesses are device
// loops whose addresses step by loop terms. docs/run.md, "Matrix units".
//
//===----------------------------------------------------------------------===//
#include "VectorContraction.h"
#include "ContractionEpilogue.h"
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

dc::Address withTerm(dc::Address addr, uint32_t depth, int64_t stride) {
  addr.terms.push_back({depth, Bytes(stride), 0});
  return addr;
}

class VectorContractionLowering {
public:
  VectorContractionLowering(const arch::ArchModel &model, ks::KernelOp kernel,
                            ks::ContractionOp op, LoweredKernel &out, KernelSymbols &symbols)
      : model(model), kernel(kernel), op(op), out(out), symbols(symbols) {}

  LogicalResult collect();
  LogicalResult emitRound(ktunit::BundleOp bundle, ArrayRef<int64_t> tiles);
  int64_t gridTiles() const { return grid[0] * grid[1] * grid[2]; }
  int64_t cores = 1;

private:
  Attribute decision(StringRef name) { return ktflow::lower::detail::decisionValue(op, name); }
  ktunit::ChannelOp channel(ktunit::BundleOp bundle, StringRef name, StringRef producer,
                            StringRef consumer, const dc::NodeRef &consumerRef,
                            const dc::NodeRef &producerRef);
  /// A row of `count` elements of `type` at `addr` (whole accesses joined).
  Reg loadRow(ktunit::ProgramBuilder &vec, dc::Address addr, dc::ElemType type, int64_t esize,
              int64_t count);
  LogicalResult emitVector(ktunit::ProgramBuilder &vec, ktunit::ChannelOp in,
                           ktunit::ChannelOp out);
  /// One K step of a panel: the accumulators preset (first) or read back
  /// from scratchpad, the step's multiply-accumulates, then the epilogue
  /// and stored rows (last) or the accumulators written back.
  LogicalResult emitStep(ktunit::ProgramBuilder &vec, ktunit::ChannelOp in,
                         ktunit::ChannelOp out, bool first, bool last);

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  ks::ContractionOp op;
  LoweredKernel &out;
  KernelSymbols &symbols;

  SmallVector<int64_t> grid;
  TileOperand a, b, c;
  SmallVector<TileOperand> rowOperands;
  Block *epilogue = nullptr;
  dc::ElemType accType = dc::ElemType::F32;
  int64_t m = 0, n = 0, k = 0, bm = 0, perAccess = 0, access = 0;
  /// The step [tm, tn, tk]: panels of tm x tn, K in steps of tk.
  int64_t tm = 0, tn = 0, tk = 0, accBytes = 4;
  bool fused = true;
  std::string outerDmaUnit, tileDmaUnit, vecUnit, memory, stagingMemory;
  int64_t stagingStride = 0, tileDmaMax = 0, unitsPerCore = 1;
  std::map<std::string, std::pair<int64_t, int64_t>> region;
};

LogicalResult VectorContractionLowering::collect() {
  auto merged = op->getAttrOfType<DenseI64ArrayAttr>("grid");
  if (!merged || !decision("merge"))
    return op.emitError("contraction without its merge decision and grid");
  grid.assign(merged.asArrayRef().begin(), merged.asArrayRef().end());
  while (grid.size() < 3)
    grid.push_back(1);
  FailureOr<TileOperand> oa = resolveTileOperand(kernel, op, op.getA());
  FailureOr<TileOperand> ob = resolveTileOperand(kernel, op, op.getB());
  FailureOr<TileOperand> oc = resolveTileOperand(kernel, op, op.getC());
  if (failed(oa) || failed(ob) || failed(oc))
    return failure();
  a = *oa, b = *ob, c = *oc;
  std::optional<dc::ElemType> acc = registerType(op.getAccumulatorType());
  if (!acc)
    return op.emitError("accumulator type without vector registers");
  accType = *acc;
  m = a.shape[0], k = a.shape[1], n = b.shape[1];
  // Every decision the lowering follows; a missing one is an error.
  auto block = dyn_cast_or_null<DenseI64ArrayAttr>(decision("block"));
  auto step = dyn_cast_or_null<DenseI64ArrayAttr>(decision("step"));
  auto vec = dyn_cast_or_null<StringAttr>(decision("vector_unit"));
  auto mac = dyn_cast_or_null<StringAttr>(decision("multiply_accumulate"));
  auto layout = dyn_cast_or_null<StringAttr>(decision("layout"));
  auto path = dyn_cast_or_null<StringAttr>(decision("accumulator_path"));
  auto init = dyn_cast_or_null<StringAttr>(decision("accumulator_init"));
  auto order = dyn_cast_or_null<ArrayAttr>(decision("loop_order"));
  auto regions = op->getAttrOfType<DictionaryAttr>("regions");
  auto staging = op->getAttrOfType<StringAttr>("staging_memory");
  auto stride = op->getAttrOfType<IntegerAttr>("staging_stride");
  if (!block || block.size() != 3 || !step || step.size() != 3 || !vec || !mac || !layout || !path || !init || !order ||
      !regions || !staging || !stride || !op->getAttrOfType<StringAttr>("memory"))
    return op.emitError(
        "contraction on the vector unit without the decisions of ktsched-schedule-contraction");
  if (layout.getValue() != "rows" || path.getValue() != "registers" ||
      init.getValue() != "constant" || order.size() != 3 ||
      cast<StringAttr>(order[2]).getValue() != "k")
    return op.emitError("a contraction on the vector unit is lowered with layout rows, the "
                        "accumulator in registers preset by a constant and K innermost");
  fused = mac.getValue() == "fma";
  bm = block[0], perAccess = block[2];
  tm = step[0], tn = step[1], tk = step[2];
  accBytes = ks::elementSize(op.getAccumulatorType()).bytes.count();
  if (tm <= 0 || tn <= 0 || tk <= 0 || m % tm || n % tn || k % tk)
    return op.emitError("contraction step ")
           << tm << "x" << tn << "x" << tk << " does not divide the tile";
  if (bm <= 0 || tm % bm || block[1] != tn || perAccess <= 0 || tk % perAccess)
    return op.emitError("contraction block ")
           << block[0] << "x" << block[1] << "x" << block[2] << " does not divide the step";
  if (tk < k && !regions.get("acc"))
    return op.emitError("contraction in K steps without its accumulator region");
  vecUnit = vec.getValue().str();
  memory = op->getAttrOfType<StringAttr>("memory").getValue().str();
  stagingMemory = staging.getValue().str();
  stagingStride = stride.getInt();
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
  if (movers.size() != 2)
    return op.emitError("a contraction on the vector unit is lowered through two DMAs and "
                        "the staging memory");
  outerDmaUnit = model.node(movers[0]).name;
  tileDmaUnit = model.node(movers[1]).name;
  tileDmaMax = std::numeric_limits<int64_t>::max();
  for (const arch::AccessRule &rule : model.node(movers[1]).access)
    tileDmaMax = std::min(tileDmaMax, rule.maxSize.count());
  std::optional<arch::NodeId> unit = model.lookupNode(vecUnit);
  const arch::AccessRule *rule =
      unit ? model.node(*unit).accessTo(placement->scratchpad) : nullptr;
  if (!rule)
    return op.emitError("the contraction's vector unit does not access the scratchpad");
  unitsPerCore = model.nodeInstanceCount(*unit) / std::max<int64_t>(cores, 1);
  access = rule->minSize.count();
  if (perAccess * a.esize != access || (tk * a.esize) % access || (tn * b.esize) % access ||
      (tn * c.esize) % access || (tn * accBytes) % access)
    return op.emitError("contraction rows are not whole accesses of the vector unit");
  if (!op.getEpilogue().empty()) {
    auto decided = dyn_cast_or_null<DictionaryAttr>(decision("epilogue"));
    auto who = decided ? dyn_cast_or_null<StringAttr>(decided.get("unit")) : StringAttr();
    if (!who || who.getValue() != vecUnit)
      return op.emitError("contraction epilogue without its decision (the vector unit)");
    epilogue = &op.getEpilogue().front();
    if (ArrayAttr operands = op.getEpilogueOperandsAttr())
      for (Attribute t : operands) {
        FailureOr<TileOperand> row = resolveTileOperand(kernel, op, cast<DictionaryAttr>(t));
        if (failed(row))
          return failure();
        if (row->shape.size() != 2 || row->shape[0] != 1 || row->shape[1] != n ||
            (tn * row->esize) % access)
          return op.emitError("epilogue row operand of other shape than 1 x N in whole "
                              "accesses of the vector unit");
        rowOperands.push_back(*row);
      }
  }
  return success();
}

ktunit::ChannelOp VectorContractionLowering::channel(ktunit::BundleOp bundle, StringRef name,
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

Reg VectorContractionLowering::loadRow(ktunit::ProgramBuilder &vec, dc::Address addr,
                                       dc::ElemType type, int64_t esize, int64_t count) {
  Reg row = 0;
  for (int64_t piece = 0; piece < count * esize / access; ++piece) {
    dc::Address at = addr;
    at.offset = at.offset + Bytes(piece * access);
    Reg loaded = vec.newReg();
    vec.vload(loaded, type, Elements(access / esize), at);
    if (piece == 0) {
      row = loaded;
      continue;
    }
    Reg joined = vec.newReg();
    vec.concat(joined, row, loaded);
    row = joined;
  }
  return row;
}

LogicalResult VectorContractionLowering::emitVector(ktunit::ProgramBuilder &vec,
                                                    ktunit::ChannelOp in,
                                                    ktunit::ChannelOp out) {
  // Depths 0 and 1: the panels' rows and columns; the K steps within a
  // panel: the first and the last peeled (they preset and finish the
  // accumulators), the ones between one loop.
  const int64_t steps = k / tk;
  vec.loop(m / tm);
  vec.loop(n / tn);
  if (failed(emitStep(vec, in, out, /*first=*/true, /*last=*/steps == 1)))
    return failure();
  if (steps > 2) {
    vec.loop(steps - 2);
    if (failed(emitStep(vec, in, out, false, false)))
      return failure();
    vec.end();
  }
  if (steps > 1 && failed(emitStep(vec, in, out, false, true)))
    return failure();
  vec.end();
  vec.end();
  return success();
}

LogicalResult VectorContractionLowering::emitStep(ktunit::ProgramBuilder &vec,
                                                  ktunit::ChannelOp in, ktunit::ChannelOp out,
                                                  bool first, bool last) {
  auto local = [&](StringRef name, int64_t offset = 0) {
    return dc::ProgramBuilder::memoryAddress(memory, Bytes(region[name.str()].first + offset));
  };
  const int64_t es = a.esize, eo = c.esize;
  vec.acquire(in, Side::consumer);
  if (last)
    vec.acquire(out, Side::producer);
  // The epilogue's row operands (the panel's columns), for its last step.
  SmallVector<Reg> rows;
  if (last)
    for (auto [i, row] : llvm::enumerate(rowOperands))
      rows.push_back(loadRow(vec, local("epilogue_" + std::to_string(i)), row.regType,
                             row.esize, tn));
  // Blocks of bm output rows, then accesses of A along the step's K.
  const unsigned blockDepth = vec.loopDepth();
  vec.loop(tm / bm);
  SmallVector<Reg> acc;
  for (int64_t r = 0; r < bm; ++r) {
    if (first) {
      acc.push_back(vec.newReg());
      vec.vconst(acc.back(), accType, Elements(tn), op.getInit().convertToDouble());
    } else {
      acc.push_back(loadRow(vec,
                            withTerm(local("acc", r * tn * accBytes), blockDepth,
                                     bm * tn * accBytes),
                            accType, accBytes, tn));
    }
  }
  const unsigned accessDepth = vec.loopDepth();
  vec.loop(tk / perAccess);
  SmallVector<Reg> lhs;
  for (int64_t r = 0; r < bm; ++r) {
    Reg loaded = vec.newReg();
    vec.vload(loaded, a.regType, Elements(perAccess),
              withTerm(withTerm(local("a_rows", r * tk * es), blockDepth, bm * tk * es),
                       accessDepth, access));
    if (a.regType != accType) {
      Reg wide = vec.newReg();
      vec.cast(wide, accType, loaded);
      loaded = wide;
    }
    lhs.push_back(loaded);
  }
  for (int64_t kk = 0; kk < perAccess; ++kk) {
    Reg rhs = loadRow(vec,
                      withTerm(local("b_rows", kk * tn * es), accessDepth, perAccess * tn * es),
                      b.regType, es, tn);
    if (b.regType != accType) {
      Reg wide = vec.newReg();
      vec.cast(wide, accType, rhs);
      rhs = wide;
    }
    for (int64_t r = 0; r < bm; ++r) {
      Reg element = vec.newReg();
      vec.bcast(element, lhs[r], kk, Elements(tn));
      if (fused) {
        vec.ternary(dc::Opcode::Fma, acc[r], element, rhs, acc[r]);
      } else {
        Reg product = vec.newReg();
        vec.binary(dc::Opcode::Mul, product, element, rhs);
        vec.binary(dc::Opcode::Add, acc[r], acc[r], product);
      }
    }
  }
  vec.end();
  // A row cut into accesses of `esize` elements, stored from `addr` on.
  auto storeRow = [&](Reg row, int64_t esize, dc::Address addr) {
    int64_t perStore = access / esize;
    for (int64_t piece = 0; piece < tn / perStore; ++piece) {
      Reg part = row;
      if (tn != perStore) {
        part = vec.newReg();
        vec.slice(part, row, piece * perStore, Elements(perStore));
      }
      dc::Address at = addr;
      at.offset = at.offset + Bytes(piece * access);
      vec.vstore(at, part);
    }
  };
  for (int64_t r = 0; r < bm; ++r) {
    if (!last) {
      // The accumulators wait in scratchpad for the next step (exact: the
      // accumulator type both ways).
      storeRow(acc[r], accBytes,
               withTerm(local("acc", r * tn * accBytes), blockDepth, bm * tn * accBytes));
      continue;
    }
    // Each row's epilogue (or cast), stored one access at a time.
    Reg result = acc[r];
    if (epilogue) {
      DenseMap<Value, Reg> values;
      values[epilogue->getArgument(0)] = acc[r];
      for (auto [i, row] : llvm::enumerate(rows))
        values[epilogue->getArgument(i + 1)] = row;
      FailureOr<Reg> body = emitEpilogueBody(vec, *epilogue, values, Elements(tn));
      if (failed(body))
        return failure();
      result = *body;
    } else if (c.regType != accType) {
      Reg narrowed = vec.newReg();
      vec.cast(narrowed, c.regType, result);
      result = narrowed;
    }
    storeRow(result, eo, withTerm(local("c_rows", r * tn * eo), blockDepth, bm * tn * eo));
  }
  vec.end();
  vec.release(in, Side::consumer);
  if (last)
    vec.release(out, Side::producer);
  return success();
}

LogicalResult VectorContractionLowering::emitRound(ktunit::BundleOp bundle,
                                                   ArrayRef<int64_t> tiles) {
  using dc::ProgramBuilder;
  uint32_t symA = tileOperandSymbol(model, kernel, a, false, out, symbols);
  uint32_t symB = tileOperandSymbol(model, kernel, b, false, out, symbols);
  uint32_t symC = tileOperandSymbol(model, kernel, c, true, out, symbols);
  SmallVector<uint32_t> symRows;
  for (const TileOperand &row : rowOperands)
    symRows.push_back(tileOperandSymbol(model, kernel, row, false, out, symbols));
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
  const int64_t es = a.esize, eo = c.esize;
  // Per core: outer in (outer DMA -> tile DMA), inner in (tile DMA ->
  // vector unit), inner out (vector unit -> tile DMA), outer out (tile DMA
  // -> outer DMA).
  std::map<int64_t, ktunit::ChannelOp> outerIn, innerIn, innerOut, outerOut;
  for (int64_t tile : tiles) {
    int64_t core = tile % cores;
    std::string id = std::to_string(core);
    dc::NodeRef tileDma =
        ProgramBuilder::node(tileDmaUnit, {dc::InstanceSelector::Kind::Absolute, core});
    outerIn[core] = channel(bundle, "outer_in" + id, "dma", "tdma" + id, tileDma,
                            nearest(outerDmaUnit));
    innerIn[core] = channel(bundle, "inner_in" + id, "tdma" + id, "vec" + id,
                            nearest(vecUnit), nearest(tileDmaUnit));
    innerOut[core] = channel(bundle, "inner_out" + id, "vec" + id, "tdma" + id,
                             nearest(tileDmaUnit), nearest(vecUnit));
    outerOut[core] = channel(bundle, "outer_out" + id, "tdma" + id, "dma",
                             nearest(outerDmaUnit), tileDma);
  }
  const int64_t panelsM = m / tm, panelsN = n / tn, steps = k / tk;
  const int64_t strideA = a.tensor.getStrides()[0], strideB = b.tensor.getStrides()[0],
                strideC = c.tensor.getStrides()[0];
  {
    // The outer DMA serves every tile of the round from one program: per
    // panel (depths 0 and 1) and K step (depth 2) each tile's A and B rows
    // of the step and the row operands' panel columns; after a panel's
    // steps, each tile's stored rows of the panel.
    auto dma = program("dma", outerDmaUnit, {0});
    dma->loop(panelsM);
    dma->loop(panelsN);
    dma->loop(steps);
    for (int64_t tile : tiles) {
      int64_t core = tile % cores;
      dma->acquire(outerIn[core], Side::producer);
      dma->copy(staged(core, "a_rows"),
                withTerm(withTerm(global(symA, tileOperandOffset(a, grid, tile)), 0,
                                  tm * strideA * es),
                         2, tk * es),
                Bytes(tk * es), {{tm, Bytes(strideA * es), Bytes(tk * es)}});
      dma->copy(staged(core, "b_rows"),
                withTerm(withTerm(global(symB, tileOperandOffset(b, grid, tile)), 1, tn * es),
                         2, tk * strideB * es),
                Bytes(tn * es), {{tk, Bytes(strideB * es), Bytes(tn * es)}});
      for (auto [i, row] : llvm::enumerate(rowOperands))
        dma->copy(staged(core, "epilogue_" + std::to_string(i)),
                  withTerm(global(symRows[i], tileOperandOffset(row, grid, tile)), 1,
                           tn * row.esize),
                  Bytes(tn * row.esize), {});
      dma->release(outerIn[core], Side::producer);
    }
    dma->end();
    for (int64_t tile : tiles) {
      int64_t core = tile % cores;
      dma->acquire(outerOut[core], Side::consumer);
      dma->copy(withTerm(withTerm(global(symC, tileOperandOffset(c, grid, tile)), 0,
                                  tm * strideC * eo),
                         1, tn * eo),
                staged(core, "c_rows"), Bytes(tn * eo),
                {{tm, Bytes(tn * eo), Bytes(strideC * eo)}});
      dma->release(outerOut[core], Side::consumer);
    }
    dma->end();
    dma->end();
    if (failed(dma->status()))
      return failure();
  }
  // A region's bytes between the levels, cut to the tile DMA's largest run.
  auto copyRegion = [&](ktunit::ProgramBuilder &builder, dc::Address to, dc::Address from,
                        int64_t bytes) {
    for (int64_t done = 0; done < bytes; done += tileDmaMax) {
      dc::Address d = to, s = from;
      d.offset = d.offset + Bytes(done);
      s.offset = s.offset + Bytes(done);
      builder.copy(d, s, Bytes(std::min(tileDmaMax, bytes - done)), {});
    }
  };
  SmallVector<std::string> inputs = {"a_rows", "b_rows"};
  for (size_t i = 0; i < rowOperands.size(); ++i)
    inputs.push_back("epilogue_" + std::to_string(i));
  for (int64_t tile : tiles) {
    int64_t core = tile % cores;
    std::string id = std::to_string(core);
    {
      // Per panel, each K step's inputs in; then the panel's stored rows out.
      auto tdma = program("tdma" + id, tileDmaUnit, {core});
      tdma->loop(panelsM);
      tdma->loop(panelsN);
      tdma->loop(steps);
      tdma->acquire(outerIn[core], Side::consumer);
      tdma->acquire(innerIn[core], Side::producer);
      for (const std::string &name : inputs)
        copyRegion(*tdma, local(name), staged(core, name), region[name].second);
      tdma->release(outerIn[core], Side::consumer);
      tdma->release(innerIn[core], Side::producer);
      tdma->end();
      tdma->acquire(innerOut[core], Side::consumer);
      tdma->acquire(outerOut[core], Side::producer);
      copyRegion(*tdma, staged(core, "c_rows"), local("c_rows"), region["c_rows"].second);
      tdma->release(innerOut[core], Side::consumer);
      tdma->release(outerOut[core], Side::producer);
      tdma->end();
      tdma->end();
      if (failed(tdma->status()))
        return failure();
    }
    {
      auto vec = program("vec" + id, vecUnit, {core * unitsPerCore});
      if (failed(emitVector(*vec, innerIn[core], innerOut[core])))
        return failure();
      if (failed(vec->status()))
        return failure();
    }
  }
  return success();
}

} // namespace

LogicalResult ktflow::lower::detail::lowerVectorContraction(
    const arch::ArchModel &model, ks::KernelOp kernel, ks::ContractionOp op,
    LoweredKernel &out, KernelSymbols &symbols,
    llvm::function_ref<ktunit::BundleOp()> newBundle) {
  VectorContractionLowering lowering(model, kernel, op, out, symbols);
  if (failed(lowering.collect()))
    return failure();
  int64_t tiles = lowering.gridTiles(), cores = std::max<int64_t>(lowering.cores, 1);
  for (int64_t first = 0; first < tiles; first += cores) {
    SmallVector<int64_t> round;
    for (int64_t t = first; t < std::min(tiles, first + cores); ++t)
      round.push_back(t);
    if (failed(lowering.emitRound(newBundle(), round)))
      return failure();
  }
  return success();
}
