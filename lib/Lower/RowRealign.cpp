//===- RowRealign.cpp - dense rows realigned in the compute unit ------------===//
//
// Strategy. A load whose buffer the schedule decided dense (`row_layout`,
// ktsched-allocate) holds a tile's rows back to back, exactly as they lie
// in global memory: the DMA moves the tile's covering byte range as one
// run from the DMA unit it starts in (`lead` bytes before the first wanted
// byte), and the load unit pushes the slot's aligned vectors A[0], A[1],
// ... in order, each once. Row r's vector k starts at slot byte
// o = lead + r * rowBytes + k * vectorBytes, so the compute unit builds it
// as `ext(A[o / V], A[o / V + 1], (o mod V) / elementBytes)` (V the vector
// bytes), holding the current and the next aligned vector in two
// registers and advancing (mov, recv) when o / V grows. From one read to
// the next o grows by at most V, so it advances at most once: always
// between vectors of a row, and at a row's start exactly when that row
// starts less than d = rowBytes - (vectorsPerRow - 1) * V bytes into its
// vector. Shifts repeat every P = V / gcd(rowBytes mod V, V) rows (P
// divides the vector width), so the reduction nest visits rows in counted
// loops over periods of P rows emitted one by one (ReductionNest's row
// period) and every emitted read has a fixed shift and advance. A row's
// last partial vector carries the next row's bytes in its padding lanes,
// which the reduction replaces by its combiner's identity as it does for
// padded rows.
//
// Lowered: row reductions (and column reductions, whose fold then reads
// the rows in memory order, one accumulator per vector of a row) of a
// two-dimensional space whose loads with rows are all dense, of one
// element type, and start at the same lead on every core; row operands and
// scalars beside them are pushed per vector between the dense loads'
// aligned vectors, in the order the compute unit reads them
// (ReductionNest::emitInputOrder with the same row period); column
// operands are held a vector of rows at a time, pushed at each block's
// start (the period divides the vector width, so blocks start on
// periods). On two scratchpad levels the tile DMA copies the dense slot as
// it is and the compute unit, which reads its memory directly, vloads the
// two aligned vectors each read spans (loadDenseRows) instead of holding
// a pushed pair. Anything else is diagnosed.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

Bytes GroupLowering::denseLead(const Transfer &t, const Tile &tile) {
  const arch::AccessRule *rule = globalDmaRule();
  Bytes unit = rule ? std::max(Bytes(1), rule->alignment) : Bytes(1);
  FailureOr<int64_t> offset = gridOffset(t, coreIds.empty() ? 0 : coreIds.front());
  Bytes start = Bytes(succeeded(offset) ? *offset : 0) +
                toBytes(Elements(tileElementOffset(t, tile)), t.esize);
  return start % unit;
}

FailureOr<DenseRowTile> GroupLowering::denseRowTile(const Tile &tile) {
  auto notLowered = [&](const Transfer &t, const Twine &why) {
    return t.tensor.emitError("dense rows of @")
           << t.tensor.getSymName() << " " << why << ": not lowered";
  };
  const Transfer *first = nullptr;
  for (const Transfer &t : loads) {
    if (!t.denseRows)
      continue;
    first = &t;
    break;
  }
  assert(first && "no dense load");
  // A column reduction over dense rows reads them in memory order, each
  // row's vectors into their own accumulators (ReductionNest's dense
  // column fold).
  bool columnFold = reduction && !reduction->isRowReduction() &&
                    reduction->reducedDim() == (int64_t)space.size() - 2;
  // Or beside dense stores: the element-wise steps in their packing's
  // order (DenseStores.cpp).
  bool elementwise = !reduction && !phased && hasDenseStores();
  if (!elementwise && (!reduction || (!reduction->isRowReduction() && !columnFold)))
    return notLowered(*first, "outside a row or column reduction");
  for (auto [i, in] : llvm::enumerate(computeInputs)) {
    if (in.splat)
      continue;
    const Transfer &t = loads[in.loadIndex];
    // Beside dense rows, a load without the row dimension (a row operand,
    // a scalar) is pushed per vector as in any reduction, and a column
    // operand is held a vector of rows at a time (its blocks start on
    // periods: the period divides the vector width); rows of another
    // layout are not realigned.
    bool rowFree = !llvm::is_contained(t.dims, (int64_t)space.size() - 2);
    if (!t.denseRows && !rowFree && !isColumnLoad(t))
      return notLowered(*first, "beside @" + t.tensor.getSymName() +
                                    ", which has rows but not dense ones (each load with "
                                    "rows is realigned alike)");
    if (!t.denseRows)
      continue;
    // Dense loads of a type wider than the step are realigned piece by
    // piece (each access holds a step's bytes); all share one type.
    if (t.esize.bytes < esize.bytes || (t.esize.bytes % esize.bytes).count() != 0 ||
        t.esize.bytes != first->esize.bytes || t.regType != first->regType)
      return notLowered(t, "of a type other than the group's vector steps' and the other "
                           "dense loads'");
  }
  // Loads are pushed in order, so the inputs must read them in that order.
  int64_t previous = -1;
  for (const ComputeInput &in : computeInputs)
    if (!in.splat && !isColumnLoad(loads[in.loadIndex])) {
      if (in.loadIndex <= previous)
        return notLowered(*first, "read in another order than loaded");
      previous = in.loadIndex;
    }
  DenseRowTile dense;
  dense.vectorBytes = toBytes(Elements(vectorWidth), esize);
  int64_t rowDim = (int64_t)space.size() - 2;
  dense.rows = tile.extent[rowDim];
  dense.columns = tile.extent.back();
  dense.elementSize = first->esize;
  dense.piecesPerStep = first->esize.bytes / esize.bytes;
  dense.rowBytes = toBytes(Elements(tile.extent.back()), dense.elementSize);
  // Rows of a column block lie a tensor row apart in the slot (a strided
  // span, gaps and all); whole rows, back to back.
  auto rowStrideOf = [&](const Transfer &t) {
    ArrayRef<int64_t> strides = t.tensor.getStrides();
    return strides.size() == 2 ? toBytes(Elements(strides[0]), t.esize) : dense.rowBytes;
  };
  dense.rowStride = rowStrideOf(*first);
  if (elementwise && dense.rowStride != dense.rowBytes)
    return notLowered(*first, "of a column block beside packed stores");
  // Only the pieces that start inside the row are read: a wide row's last
  // step may end in pieces wholly past it (padding lanes, which the fold
  // masks), and reading them would take aligned vectors of the next row
  // before its first one. Those pieces are built from the held pair as is.
  int64_t steps = vectorsPerRow(tile);
  Bytes lastStepStart = toBytes(Elements((steps - 1) * vectorWidth), dense.elementSize);
  dense.lastStepPieces = std::min<int64_t>(
      dense.piecesPerStep,
      ((dense.rowBytes - lastStepStart).count() + dense.vectorBytes.count() - 1) /
          dense.vectorBytes.count());
  dense.vectorsPerRow = (steps - 1) * dense.piecesPerStep + dense.lastStepPieces;
  Bytes vector = dense.vectorBytes;
  Bytes lead = denseLead(*first, tile);
  const arch::AccessRule *rule = globalDmaRule();
  Bytes unit = rule ? std::max(Bytes(1), rule->alignment) : Bytes(1);
  for (const Transfer &t : loads) {
    if (!t.denseRows)
      continue;
    if (denseLead(t, tile) != lead)
      return notLowered(t, "starting at another offset into a DMA unit than @" +
                               first->tensor.getSymName() + "'s");
    if (rowStrideOf(t) != dense.rowStride)
      return notLowered(t, "with another row stride than @" + first->tensor.getSymName() +
                               "'s (each load's rows are realigned alike)");
    Bytes tileStart = toBytes(Elements(tileElementOffset(t, tile)), t.esize);
    for (int64_t c : coreIds) {
      FailureOr<int64_t> offset = gridOffset(t, c);
      if (failed(offset))
        return failure();
      if ((Bytes(*offset) + tileStart) % unit != lead)
        return notLowered(t, "starting " + Twine(((Bytes(*offset) + tileStart) % unit).count()) +
                                 " bytes into a DMA unit on one core and " +
                                 Twine(lead.count()) + " on another");
    }
  }
  dense.pushBase = vector * (lead / vector);
  dense.lead = lead % vector;
  Bytes rowRemainder = dense.rowStride % vector;
  dense.period = vector.count() / std::gcd(rowRemainder.count(), vector.count());
  if (vectorWidth % dense.period != 0)
    return notLowered(*first, "whose shifts repeat every " + Twine(dense.period) +
                                  " rows, which does not divide a vector's " +
                                  Twine(vectorWidth) + " rows");
  Bytes lastRead = dense.lead + dense.rowStride * (dense.rows - 1) +
                   vector * (dense.vectorsPerRow - 1);
  dense.pushes = lastRead / vector + 2;
  // The first row takes as many aligned vectors at its start as later
  // rows that start as far into their vector would: the held pair is
  // primed with the ones it does not take.
  dense.firstAdvance = rowStartAdvance(dense, 0);
  for (auto [i, t] : llvm::enumerate(loads)) {
    if (!t.denseRows)
      continue;
    // On two levels the compute unit reads the inner copy of the slot.
    if (twoLevel && !innerLoads[i].denseRows)
      return notLowered(t, "copied into an inner slot of padded rows");
    Bytes slot = twoLevel ? std::min(t.bytes, innerLoads[i].bytes) : t.bytes;
    if (dense.pushBase + vector * dense.pushes > slot)
      return notLowered(t, "reading " + Twine((dense.pushBase + vector * dense.pushes).count()) +
                               " bytes of aligned vectors from a " + Twine(slot.count()) +
                               "-byte slot");
  }
  return dense;
}

int64_t GroupLowering::denseReads(const DenseRowTile &dense, const SpacePosition &pos) const {
  int64_t last = (int64_t)space.size() - 1;
  // A loop over a row's vectors never runs over its last one when that
  // one takes fewer pieces (ReductionNest::setLastVectorApart).
  if (!pos.terms[last].empty())
    return dense.piecesPerStep;
  Bytes start = toBytes(Elements(pos.constant[last]), dense.elementSize);
  if (start + dense.vectorBytes * dense.piecesPerStep <= dense.rowBytes)
    return dense.piecesPerStep;
  return dense.lastStepPieces;
}

int64_t GroupLowering::rowStartAdvance(const DenseRowTile &dense, int64_t row) {
  // The row of the period before (the tile's first row follows the
  // period's last one alike: the shifts repeat) reads its last vector
  // `vectorsPerRow - 1` aligned vectors after the one it starts in; this
  // row starts `rowStride` bytes after it.
  int64_t before = (row + dense.period - 1) % dense.period;
  Bytes into = (dense.lead + dense.rowStride * before) % dense.vectorBytes;
  return (into + dense.rowStride) / dense.vectorBytes - (dense.vectorsPerRow - 1);
}

int64_t GroupLowering::denseAdvance(const DenseRowTile &dense, const SpacePosition &pos) const {
  int64_t rowDim = (int64_t)space.size() - 2, last = (int64_t)space.size() - 1;
  // Loop terms move whole periods of rows and whole vectors: only the
  // constant part decides. Inside a row (k > 0, or the loop over its
  // vectors) every read takes the next aligned vector; a row's first read
  // takes none, one, or (past a column block's gap) more.
  if (pos.constant[last] > 0 || !pos.terms[last].empty())
    return 1;
  return rowStartAdvance(dense, pos.constant[rowDim] % dense.period);
}

void GroupLowering::primeDenseLoads(ktunit::ProgramBuilder &ld, const DenseRowTile &dense,
                                    int64_t j, int64_t k) {
  auto compute = dc::ProgramBuilder::node(computeUnit);
  // Up front: the aligned vectors of the held pair the first read does
  // not take (both where it takes none, none where it skips).
  for (const ComputeInput &in : computeInputs)
    if (!in.splat && loads[in.loadIndex].denseRows)
      for (int64_t v = 0; v < std::max<int64_t>(0, 2 - dense.firstAdvance); ++v) {
        dc::Address address = slotAddress(loads[in.loadIndex], j, k);
        address.offset = address.offset + dense.pushBase + dense.vectorBytes * v;
        ld.push(compute, address, dense.vectorBytes);
      }
}

void GroupLowering::pushDenseStep(
    ktunit::ProgramBuilder &ld, const DenseRowTile &dense, int64_t j, int64_t k,
    const SpacePosition &pos,
    llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
    bool heldColumns) {
  auto compute = dc::ProgramBuilder::node(computeUnit);
  int64_t rowDim = (int64_t)space.size() - 2, last = (int64_t)space.size() - 1;
  Bytes vector = dense.vectorBytes;
  int64_t advance = denseAdvance(dense, pos);
  // The vector after the one the read starts in: its bytes from the
  // position's constant part, the loop terms whole vectors and periods.
  Bytes start = dense.lead + dense.rowStride * pos.constant[rowDim] +
                toBytes(Elements(pos.constant[last]), dense.elementSize);
  for (const ComputeInput &in : computeInputs) {
    if (in.splat)
      continue;
    const Transfer &t = loads[in.loadIndex];
    if (!t.denseRows) {
      // Column operands are pushed per block of rows (`held`).
      if (!heldColumns || !isColumnLoad(t))
        pushOther(t, pos);
      continue;
    }
    // A step's first piece takes the next vector when it advances by
    // one, the pair it starts in when it skips, every further piece (a
    // vector's bytes on) the next one.
    auto pushAligned = [&](int64_t index) {
      dc::Address address = slotAddress(t, j, k);
      address.offset = address.offset + dense.pushBase + vector * index;
      for (auto [depth, rows] : pos.terms[rowDim])
        address.terms.push_back({depth, dense.rowStride * rows, 0});
      for (auto [depth, elements] : pos.terms[last])
        address.terms.push_back({depth, toBytes(Elements(elements), dense.elementSize), 0});
      ld.push(compute, address, vector);
    };
    if (advance >= 2)
      pushAligned(start / vector);
    for (int64_t piece = advance >= 1 ? 0 : 1; piece < denseReads(dense, pos); ++piece)
      pushAligned(start / vector + 1 + piece);
  }
}

LogicalResult GroupLowering::pushDenseRows(
    ktunit::ProgramBuilder &ld, const DenseRowTile &dense, int64_t j, int64_t k,
    llvm::function_ref<void(const Transfer &, const SpacePosition &)> pushOther,
    const ReductionNest::HeldRows *held) {
  primeDenseLoads(ld, dense, j, k);
  reduction->setRowPeriod(dense.period);
  reduction->setLastVectorApart(dense.lastStepPieces < dense.piecesPerStep);
  reduction->setDenseColumns(true);
  auto resetPeriod = llvm::make_scope_exit([&] {
    reduction->setRowPeriod(1);
    reduction->setLastVectorApart(false);
    reduction->setDenseColumns(false);
  });
  return reduction->emitInputOrder(
      ld, {dense.rows, dense.columns},
      [&](const SpacePosition &pos) {
        pushDenseStep(ld, dense, j, k, pos, pushOther, held != nullptr);
      },
      held);
}

void GroupLowering::primeDenseRows(ktunit::ProgramBuilder &vec, const DenseRowTile &dense,
                                   ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held) {
  auto loadUnit = dc::ProgramBuilder::node(ldUnit);
  for (const ComputeInput &in : computeInputs) {
    if (in.splat || !loads[in.loadIndex].denseRows)
      continue;
    const Transfer &t = loads[in.loadIndex];
    auto [current, next] = held[in.loadIndex];
    dc::ElemType type = t.regType.value_or(elemType);
    Elements perAccess = toElements(dense.vectorBytes, dense.elementSize);
    if (dense.firstAdvance <= 0)
      vec.recv(current, type, perAccess, loadUnit);
    if (dense.firstAdvance <= 1)
      vec.recv(next, type, perAccess, loadUnit);
  }
}

void GroupLowering::readDenseRows(ktunit::ProgramBuilder &vec, const DenseRowTile &dense,
                                  const SpacePosition &pos,
                                  llvm::DenseMap<Value, ktunit::Reg> &reg,
                                  ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held,
                                  llvm::function_ref<void(unsigned, BlockArgument)> receiveOther) {
  int64_t rowDim = (int64_t)space.size() - 2;
  int64_t advance = denseAdvance(dense, pos);
  int64_t row = pos.constant[rowDim] % dense.period;
  Bytes into = (dense.lead + dense.rowStride * row) % dense.vectorBytes;
  int64_t lane = toElements(into, dense.elementSize).count();
  auto loadUnit = dc::ProgramBuilder::node(ldUnit);
  Block &body = computeStage->getRegion(0).front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    const ComputeInput &in = computeInputs[i];
    if (in.splat)
      continue;
    if (!loads[in.loadIndex].denseRows) {
      receiveOther(i, arg);
      continue;
    }
    // Each piece of the step starts `lane` elements into its aligned
    // vector (pieces are a vector's bytes apart); all but the first take
    // the next one.
    const Transfer &t = loads[in.loadIndex];
    auto [current, next] = held[in.loadIndex];
    int64_t reads = denseReads(dense, pos);
    gatherPieces(vec, reg[arg], t, dense.piecesPerStep,
                 [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t piece) {
                   if (piece == 0 && advance >= 2) {
                     // Past a gap: the pair the read starts in, afresh.
                     vec.recv(current, type, count, loadUnit);
                     vec.recv(next, type, count, loadUnit);
                   } else if (piece < reads && (advance > 0 || piece > 0)) {
                     vec.unary(dc::Opcode::Mov, current, next);
                     vec.recv(next, type, count, loadUnit);
                   }
                   vec.ext(r, current, next, lane);
                 });
  }
}

void GroupLowering::loadDenseRows(
    ktunit::ProgramBuilder &vec, const DenseRowTile &dense, const SpacePosition &pos,
    llvm::DenseMap<Value, ktunit::Reg> &reg, ArrayRef<std::pair<ktunit::Reg, ktunit::Reg>> held,
    llvm::function_ref<dc::Address(const Transfer &)> slotOf,
    llvm::function_ref<void(const Transfer &, const dc::Address &)> checkVector,
    llvm::function_ref<void(unsigned, BlockArgument)> loadOther) {
  int64_t rowDim = (int64_t)space.size() - 2, last = (int64_t)space.size() - 1;
  Bytes vector = dense.vectorBytes;
  // The shift of the read at `pos` (as readDenseRows), and the aligned
  // vector its first piece starts in: the position's constant part, the
  // loop terms whole periods of rows and whole vectors.
  int64_t row = pos.constant[rowDim] % dense.period;
  Bytes into = (dense.lead + dense.rowStride * row) % vector;
  int64_t lane = toElements(into, dense.elementSize).count();
  Bytes start = dense.lead + dense.rowStride * pos.constant[rowDim] +
                toBytes(Elements(pos.constant[last]), dense.elementSize);
  int64_t reads = denseReads(dense, pos);
  Block &body = computeStage->getRegion(0).front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    const ComputeInput &in = computeInputs[i];
    if (in.splat)
      continue;
    if (!loads[in.loadIndex].denseRows) {
      loadOther(i, arg);
      continue;
    }
    const Transfer &t = innerLoads[in.loadIndex];
    auto [current, next] = held[in.loadIndex];
    // A piece wholly past the row's end is built from the pair as it is
    // (padding lanes, which the fold masks).
    gatherPieces(vec, reg[arg], t, dense.piecesPerStep,
                 [&](ktunit::Reg r, dc::ElemType type, Elements count, int64_t piece) {
                   if (piece < reads) {
                     dc::Address address = slotOf(t);
                     address.offset =
                         address.offset + dense.pushBase + vector * (start / vector + piece);
                     for (auto [depth, rows] : pos.terms[rowDim])
                       address.terms.push_back({depth, dense.rowStride * rows, 0});
                     for (auto [depth, elements] : pos.terms[last])
                       address.terms.push_back(
                           {depth, toBytes(Elements(elements), dense.elementSize), 0});
                     checkVector(t, address);
                     vec.vload(current, type, count, address);
                     address.offset = address.offset + vector;
                     vec.vload(next, type, count, address);
                   }
                   vec.ext(r, current, next, lane);
                 });
  }
}
