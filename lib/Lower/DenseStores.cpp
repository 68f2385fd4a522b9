//===- DenseStores.cpp - result rows packed into whole vectors --------------===//
//
// Strategy. An element-wise group whose rows are not whole vectors stores
// each row as its own DMA run in a padded slot, which a DMA whose global
// access rule forbids such runs (rows of 100 f16 are 200 bytes: not whole
// 64- or 128-byte units) cannot do. Where the tile's rows follow each other
// in global memory, the schedule makes the store slots dense (`row_layout`,
// RowLayout.cpp): the slot holds the rows back to back, as in global
// memory, and the DMA stores the tile as one run (widened into the
// symbol's padding where the data ends). The compute unit packs them: it
// holds a `pending` register per store whose top f lanes are the packed
// rows' elements not yet sent, and takes each result vector x of c valid
// lanes (c is the vector width but for a row's last vector) as
//   f + c >= W: send ext(pending, x, W - f)      (f lanes, then x's first)
//   always:     pending = ext(pending, x, c)     (x's c lanes on top)
// (a whole vector with f = 0 is sent as it is, and a whole one moves into
// `pending` with mov); the tile's last partial vector is sent by a final
// ext. f after a row is (rows so far x n) mod W, so the shifts repeat
// every P = W / gcd(n mod W, W) rows: steps are visited in counted loops
// over periods of P rows, each row emitted on its own (its first vector, a
// loop over its middle ones, its last one), every emitted step with a
// fixed f and c. The store unit pops the packed vectors into consecutive
// vectors of each slot. Dense loads beside them are realigned as in a
// reduction (RowRealign.cpp) in the same step order; row operands and
// scalars are pushed per step. Column operands (one value per row) are
// held a vector of rows at a time as beside any rows: the rows go in
// blocks of a vector's worth, each block's values pushed and received at
// its start, one broadcast per row; P divides the vector width, so each
// block is whole periods and the shifts stay those of its rows.
//
// On two scratchpad levels the compute unit packs alike and vstores each
// packed vector into the next vector of the inner slot (packedVectorAddress:
// the vector its step's first lane falls in), which the tile DMA copies
// whole into the outer one.
//
// Lowered: element-wise groups of a two-dimensional space whose stores are
// all dense (on both levels) and of the group's element size and whose
// loads with rows are dense or column operands; anything else is
// diagnosed.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::checkDenseStores(const Tile &tile) {
  const Transfer &first = *llvm::find_if(stores, [](const Transfer &t) { return t.denseRows; });
  auto notLowered = [&](const Transfer &t, const Twine &why) {
    return t.tensor.emitError("dense stores of @")
           << t.tensor.getSymName() << " " << why << ": not lowered";
  };
  if (reduction || phased || space.size() != 2)
    return notLowered(first, "outside an element-wise group of two dimensions");
  // On two levels the compute unit packs into the inner slot, which the
  // tile DMA copies whole into the outer one: both dense.
  for (const Transfer &t : innerStores)
    if (!t.denseRows)
      return notLowered(first, "whose inner-level slot of @" + t.tensor.getSymName() +
                                   " is not dense");
  int64_t rowDim = (int64_t)space.size() - 2, last = rowDim + 1;
  for (const Transfer &t : stores) {
    if (!t.denseRows)
      return notLowered(first, "beside @" + t.tensor.getSymName() +
                                   ", which is not stored dense (each store with rows is "
                                   "packed alike)");
    auto strides = t.tensor.getStrides();
    if (t.dims.size() != 2 || t.dims[0] != rowDim || t.dims[1] != last || strides.size() != 2 ||
        strides[0] != tile.extent[last] || strides[1] != 1)
      return notLowered(t, "whose tile rows do not follow each other in memory");
    if (piecesOf(t) != 1)
      return notLowered(t, "of a type other than the group's vector steps'");
  }
  for (const Transfer &t : loads)
    if (llvm::is_contained(t.dims, rowDim) && !t.denseRows && !isColumnLoad(t))
      return notLowered(first, "beside @" + t.tensor.getSymName() +
                                   ", which has rows but not dense ones");
  if (hasDenseLoads()) {
    FailureOr<DenseRowTile> dense = denseRowTile(tile);
    if (failed(dense))
      return failure();
    if (dense->piecesPerStep != 1 || dense->period != denseStorePeriod(tile))
      return notLowered(first, "beside dense loads of another element size");
  }
  return success();
}

int64_t GroupLowering::denseStoreVectors(const Tile &tile) const {
  int64_t elements = tile.extent[space.size() - 2] * tile.extent.back();
  return (elements + vectorWidth - 1) / vectorWidth;
}

int64_t GroupLowering::denseStorePeriod(const Tile &tile) const {
  return vectorWidth / std::gcd(tile.extent.back() % vectorWidth, vectorWidth);
}

LogicalResult GroupLowering::walkDenseSteps(
    ktunit::ProgramBuilder &b, const Tile &tile, int64_t period,
    llvm::function_ref<void(const SpacePosition &, int64_t, int64_t)> visit,
    const ReductionNest::HeldRows *held) {
  int64_t rowDim = (int64_t)space.size() - 2, last = rowDim + 1;
  int64_t vectors = vectorsPerRow(tile);
  int64_t lastLanes = tile.extent[last] - (vectors - 1) * vectorWidth;
  uint32_t depth = 0;
  SpacePosition pos(space.size());
  // Row `base + row` of the tile, `phase` rows into its period.
  auto visitRow = [&](int64_t base, int64_t row, int64_t phase) {
    pos.constant[rowDim] = base + row;
    pos.constant[last] = 0;
    if (held && held->row)
      held->row();
    visit(pos, phase, vectors == 1 ? lastLanes : vectorWidth);
    if (vectors > 2) {
      pos.constant[last] = vectorWidth;
      bool opened = openNestLoop(b, depth, vectors - 2, last, vectorWidth, pos);
      visit(pos, phase, vectorWidth);
      closeNestLoop(b, depth, opened, last, pos);
    }
    if (vectors > 1) {
      pos.constant[last] = (vectors - 1) * vectorWidth;
      visit(pos, phase, lastLanes);
    }
    pos.constant[last] = 0;
  };
  // `rows` rows from row `base`: a loop over whole periods, then the rest.
  auto visitRows = [&](int64_t base, int64_t rows) {
    int64_t periods = rows / period, rest = rows % period;
    if (periods > 0) {
      bool opened = openNestLoop(b, depth, periods, rowDim, period, pos);
      for (int64_t row = 0; row < period; ++row)
        visitRow(base, row, row);
      closeNestLoop(b, depth, opened, rowDim, pos);
    }
    for (int64_t row = 0; row < rest; ++row)
      visitRow(base, periods * period + row, row);
    pos.constant[rowDim] = base;
  };
  int64_t rows = tile.extent[rowDim];
  if (!held) {
    visitRows(0, rows);
    return success();
  }
  // Held column operands: blocks of a vector's worth of rows, each one's
  // values fetched at its start (a whole number of periods: the period
  // divides the vector width).
  int64_t blocks = rows / vectorWidth, rest = rows % vectorWidth;
  if (blocks > 0) {
    bool opened = openNestLoop(b, depth, blocks, rowDim, vectorWidth, pos);
    pos.constant[rowDim] = 0;
    if (failed(held->block(pos, vectorWidth)))
      return failure();
    visitRows(0, vectorWidth);
    closeNestLoop(b, depth, opened, rowDim, pos);
  }
  if (rest > 0) {
    pos.constant[rowDim] = blocks * vectorWidth;
    if (failed(held->block(pos, rest)))
      return failure();
    visitRows(blocks * vectorWidth, rest);
  }
  pos.constant[rowDim] = 0;
  return success();
}

void GroupLowering::packDenseStep(ktunit::ProgramBuilder &vec, const Tile &tile, ktunit::Reg r,
                                  ktunit::Reg pending, ktunit::Reg out, int64_t phase,
                                  int64_t lanes, llvm::function_ref<void(ktunit::Reg)> sendOut) {
  auto store = dc::ProgramBuilder::node(stUnit);
  auto send = [&](ktunit::Reg v) {
    if (sendOut)
      sendOut(v);
    else
      vec.send(store, v);
  };
  // The lanes pending before this step: those of the rows before it in
  // its period (a row's vectors before its last one are whole).
  int64_t f = (phase * tile.extent.back()) % vectorWidth;
  if (f == 0 && lanes == vectorWidth) {
    send(r);
    return;
  }
  if (f + lanes >= vectorWidth) {
    vec.ext(out, pending, r, vectorWidth - f);
    send(out);
  }
  if (lanes == vectorWidth)
    vec.unary(dc::Opcode::Mov, pending, r);
  else
    vec.ext(pending, f == 0 ? r : pending, r, lanes);
}

void GroupLowering::flushDenseStores(ktunit::ProgramBuilder &vec, const Tile &tile,
                                     ArrayRef<ktunit::Reg> pending, ktunit::Reg out,
                                     llvm::function_ref<void(unsigned, ktunit::Reg)> sendOut) {
  int64_t elements = tile.extent[space.size() - 2] * tile.extent.back();
  int64_t f = elements % vectorWidth;
  if (f == 0)
    return;
  auto store = dc::ProgramBuilder::node(stUnit);
  for (auto [i, p] : llvm::enumerate(pending)) {
    vec.ext(out, p, p, vectorWidth - f);
    if (sendOut)
      sendOut(i, out);
    else
      vec.send(store, out);
  }
}

dc::Address GroupLowering::packedVectorAddress(dc::Address slot, const Tile &tile,
                                               const SpacePosition &pos) const {
  int64_t rowDim = (int64_t)space.size() - 2, last = rowDim + 1;
  int64_t n = tile.extent[last];
  // The vector a step completes (packDenseStep sends at most one): the
  // one the step's first lane falls in, which the lanes pending before it
  // started. Loop terms move whole periods of rows (whole vectors of
  // packed elements) and whole vectors of a row.
  int64_t before = pos.constant[rowDim] * n + pos.constant[last];
  slot.offset = slot.offset + toBytes(Elements(vectorWidth), esize) * (before / vectorWidth);
  for (auto [depth, rows] : pos.terms[rowDim])
    slot.terms.push_back({depth, toBytes(Elements(rows * n), esize), 0});
  for (auto [depth, elements] : pos.terms[last])
    slot.terms.push_back({depth, toBytes(Elements(elements), esize), 0});
  return slot;
}

dc::Address GroupLowering::lastPackedVectorAddress(dc::Address slot, const Tile &tile) const {
  int64_t elements = tile.extent[space.size() - 2] * tile.extent.back();
  slot.offset = slot.offset + toBytes(Elements(vectorWidth), esize) * (elements / vectorWidth);
  return slot;
}

LogicalResult GroupLowering::pushDenseSteps(
    ktunit::ProgramBuilder &ld, const DenseRowTile *dense, const Tile &tile, int64_t j, int64_t k,
    llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
    const ReductionNest::HeldRows *held) {
  if (dense)
    primeDenseLoads(ld, *dense, j, k);
  return walkDenseSteps(
      ld, tile, denseStorePeriod(tile),
      [&](const SpacePosition &pos, int64_t, int64_t) {
        if (dense) {
          pushDenseStep(ld, *dense, j, k, pos, pushOther, held != nullptr);
          return;
        }
        // Column operands are pushed per block of rows (`held`).
        for (const ComputeInput &in : computeInputs)
          if (!in.splat && !(held && isColumnLoad(loads[in.loadIndex])))
            pushOther(loads[in.loadIndex], pos);
      },
      held);
}

void GroupLowering::popDenseStores(ktunit::ProgramBuilder &st, const Tile &tile, int64_t j,
                                   int64_t k) {
  int64_t count = denseStoreVectors(tile);
  Bytes vector = toBytes(Elements(vectorWidth), esize);
  auto compute = dc::ProgramBuilder::node(computeUnit);
  bool opened = count > 1;
  if (opened)
    st.loop(count);
  for (const Transfer &t : stores) {
    dc::Address address = slotAddress(t, j, k);
    if (opened)
      address.terms.push_back({0, vector, 0});
    st.pop(compute, address, vector);
  }
  if (opened)
    st.end();
}
