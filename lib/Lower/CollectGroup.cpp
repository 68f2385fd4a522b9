//===- CollectGroup.cpp - collecting a group from the schedule IR -----------===//
//
// Strategy. Reads what the scheduling passes decided for one compute group
// (tile, split, loop order, units, buffers, the `classes`, `hoist` and
// `lead` decisions; a missing decision is an error, never a default) into
// GroupLowering's view: the load and store transfers resolved against their
// tensors, the tiles of every sub-core instance in loop order, the units and
// their instances. Nothing here emits unit IR.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"

#include <map>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

LogicalResult GroupLowering::resolveTransfer(Operation *stage, ArrayAttr transfers,
                                             unsigned index, Value bufferValue, Transfer &t) {
  if (!transfers || index >= transfers.size())
    return stage->emitError("stage has no transfer ") << index;
  auto dict = llvm::dyn_cast<DictionaryAttr>(transfers[index]);
  auto tensorRef = dict ? dict.getAs<FlatSymbolRefAttr>("tensor") : nullptr;
  if (!tensorRef)
    return stage->emitError("transfer ") << index << " names no tensor";
  t.tensor = kernel.lookupSymbol<ks::TensorOp>(tensorRef.getValue());
  if (!t.tensor)
    return stage->emitError("unknown tensor ") << tensorRef;
  t.arg = t.tensor.getArg();
  auto size = dc::elementSizeOf(
      [&] {
        std::string s;
        llvm::raw_string_ostream os(s);
        t.tensor.getElementType().print(os);
        return s;
      }());
  if (!size)
    return stage->emitError("element type ") << t.tensor.getElementType()
                                             << " has no device-code size";
  t.esize = *size;
  t.regType = registerType(t.tensor.getElementType());
  auto origin = dict.getAs<AffineMapAttr>("origin");
  if (!origin)
    return stage->emitError("transfer ") << index << " has no origin";
  t.origin = origin.getValue();
  t.shape = i64Array(dict.get("shape"));
  t.dims = i64Array(dict.get("dims"));
  if (t.tensor.getStrides().empty() || t.tensor.getStrides().back() != 1)
    return stage->emitError("transfer of @")
           << t.tensor.getSymName() << " is not contiguous in its last dimension: "
           << "strided element transfers are not lowered";
  t.buffer = bufferValue.getDefiningOp<ks::BufferOp>();
  if (!t.buffer)
    return stage->emitError("transfer ") << index << " does not go through a buffer";
  Operation *b = t.buffer;
  auto memory = b->getAttrOfType<StringAttr>("memory");
  t.memory = memory ? memory.getValue().str() : "";
  t.address = Bytes(i64Of(decisionValue(b, "address"), -1));
  t.bytes = Bytes(i64Of(b->getAttr("bytes")));
  t.depth = i64Of(decisionValue(b, "depth"), 0);
  t.instanceStride = Bytes(i64Of(b->getAttr("instance_stride")));
  if (Attribute pitch = decisionValue(b, "row_pitch")) {
    if (i64Of(pitch) <= 0 || t.dims.size() < 2)
      return b->emitError("row_pitch of ") << pitch << " on a buffer of "
                                           << t.dims.size() << " dimensions";
    t.rowPitch = Bytes(i64Of(pitch));
  }
  t.denseRows = ks::hasDenseRows(b);
  if (t.denseRows && (t.dims.size() != 2 || t.rowPitch.count() > 0))
    return b->emitError("dense rows on a buffer of ")
           << t.dims.size() << " dimensions or with a row pitch";
  if (t.address.count() < 0 || t.memory.empty() || t.depth < 1)
    return b->emitError("buffer is not allocated (no memory, address or depth)");
  return success();
}

LogicalResult GroupLowering::collect() {
  // The outer pipeline and its stages.
  auto pipelines = group.getBody().getOps<ks::PipelineOp>();
  if (std::distance(pipelines.begin(), pipelines.end()) != 1)
    return group.emitError("group must hold exactly one pipeline");
  outer = *pipelines.begin();
  SmallVector<int64_t> reduceDims = i64Array(group->getAttr("reduce_dims"));
  if (reduceDims.size() > 1)
    return group.emitError("a reduction over ") << reduceDims.size()
                                               << " dimensions is not lowered";
  if (!reduceDims.empty())
    reduceDim = reduceDims.front();
  space = i64Array(group->getAttr("space"));
  tileShape = i64Array(decisionValue(outer, "tile"));
  loopOrder = i64Array(decisionValue(outer, "loop_order"));
  auto split = llvm::dyn_cast_or_null<DictionaryAttr>(decisionValue(outer, "split"));
  if (space.empty() || tileShape.size() != space.size() || !split)
    return outer->emitError("pipeline lacks tile or split decisions");
  splitDim = i64Of(split.get("dim"));
  shares = i64Array(split.get("shares"));
  if (restriction && restriction->space.size() == space.size() && splitDim >= 0 &&
      splitDim < (int64_t)space.size()) {
    // A partly masked grid tile: the split's instances share what is valid
    // of the split dimension (rebalanced below, once the vector is known).
    space = restriction->space;
  }
  if (loopOrder.size() != space.size())
    return outer->emitError("pipeline lacks a `loop_order` decision over its ")
           << space.size() << " dimensions";

  Operation *dmaLoad = nullptr, *nested = nullptr, *dmaStore = nullptr;
  for (Operation &op : outer->getRegion(0).front()) {
    auto stage = llvm::dyn_cast<ks::StageOp>(op);
    if (!stage)
      continue;
    StringRef role = stage.getRole();
    if (role == "dma_load")
      dmaLoad = stage;
    else if (role == "nested")
      nested = stage;
    else if (role == "dma_store")
      dmaStore = stage;
    else
      return stage.emitError("stage '") << role << "' at the tile level is not lowered";
  }
  if (!dmaLoad || !nested || !dmaStore)
    return outer->emitError("pipeline is not of the form dma_load, nested, dma_store");
  auto unitOf = [&](Operation *stage) -> std::string {
    if (auto name = llvm::dyn_cast_or_null<StringAttr>(decisionValue(stage, "unit")))
      return name.getValue().str();
    return "";
  };
  dmaUnit = unitOf(dmaLoad);
  if (unitOf(dmaStore) != dmaUnit)
    return dmaStore->emitError("loads and stores on different DMA units are not lowered");

  // The inner (vector) pipeline.
  Operation *inner = nullptr;
  for (Operation &op : nested->getRegion(0).front())
    if (llvm::isa<ks::PipelineOp>(op))
      inner = &op;
  if (!inner)
    return nested->emitError("nested stage holds no pipeline");
  Operation *ldStage = nullptr, *stStage = nullptr;
  // A second scratchpad level (a per-core DMA between the outer buffers
  // and buffers the compute unit reads and writes directly).
  for (Operation &op : inner->getRegion(0).front())
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op); stage && stage.getRole() == "dma_load")
      twoLevel = true;
  if (twoLevel) {
    if (failed(collectTwoLevelStages(dmaLoad, dmaStore, inner)))
      return failure();
  } else {
  for (Operation &op : inner->getRegion(0).front()) {
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op)) {
      StringRef role = stage.getRole();
      if (role == "load")
        ldStage = stage;
      else if (role == "compute")
        computeStage = stage;
      else if (role == "store")
        stStage = stage;
      else
        return stage.emitError("stage '")
               << role << "' inside a tile is not lowered (only load, compute, store: "
               << "one scratchpad level)";
    }
  }
  if (!ldStage || !computeStage || !stStage)
    return inner->emitError("inner pipeline is not of the form load, compute, store");
  ldUnit = unitOf(ldStage);
  computeUnit = unitOf(computeStage);
  stUnit = unitOf(stStage);
  vectorWidth = i64Of(decisionValue(computeStage, "vector"));
  if (vectorWidth <= 0)
    return computeStage->emitError("compute stage has no vector width");

  // Loads: the dma_load's transfers, read back by the load stage in order.
  auto loadTransfers = dmaLoad->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(ldStage->getOperands())) {
    Transfer t;
    if (failed(resolveTransfer(ldStage, loadTransfers, i, value, t)))
      return failure();
    loads.push_back(t);
  }
  // Stores: the store stage's results are the nested stage's results, each
  // buffered and then stored by dma_store in operand order.
  auto storeTransfers = dmaStore->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(dmaStore->getOperands())) {
    Transfer t;
    if (failed(resolveTransfer(dmaStore, storeTransfers, i, value, t)))
      return failure();
    stores.push_back(t);
  }

  // Compute inputs: FIFOs from the load stage, or scalar arguments.
  if (failed(collectComputeInputs(ldStage)))
    return failure();
  }

  // Element types. The group computes in its element type; each buffer
  // holds its own, and the body converts with `cast` vops. Messages and
  // memory accesses move buffer elements: a step is as many elements as
  // fill the bytes of one compute vector with the narrowest buffer type
  // (ks::vectorStep, which the scheduler's splits and tiles use too), so
  // the narrowest buffers move one access of `vectorBytes` per step and a
  // wider one several (`pieces`), joined in a register by `concat` and cut
  // for the store unit by `slice`. f16 and f32 buffers of an f32 group on
  // sample: 16 lanes x 4 bytes = 64 bytes = 32 elements per step; an f32
  // buffer moves two 64-byte accesses per step, and the f32 registers of 32
  // elements take two issues per op.
  mlirElemType = group.getElementType();
  auto groupType = registerType(mlirElemType);
  if (!groupType)
    return group.emitError("element type ") << mlirElemType << " has no vector registers";
  Bytes computeBytes = toBytes(Elements(vectorWidth), dc::elemTypeSize(*groupType));
  elemType = *groupType;
  const Transfer *narrowest = nullptr;
  for (const Transfer &t : llvm::concat<const Transfer>(loads, stores)) {
    if (!t.regType)
      return t.tensor.emitError("element type ")
             << t.tensor.getElementType() << " has no vector registers";
    if (!narrowest || t.esize.bytes < narrowest->esize.bytes)
      narrowest = &t;
  }
  if (narrowest)
    elemType = *narrowest->regType;
  esize = dc::elemTypeSize(elemType);
  vectorWidth = ks::vectorStep(group, vectorWidth);
  if (toBytes(Elements(vectorWidth), esize) != computeBytes)
    return group.emitError("a vector of ")
           << computeBytes.count() << " bytes is not a whole number of "
           << dc::elemTypeName(elemType) << " elements: element type conversions are not lowered";
  for (const Transfer &t : llvm::concat<const Transfer>(loads, stores))
    if (t.esize.bytes.count() % esize.bytes.count() != 0)
      return t.tensor.emitError("a ")
             << t.tensor.getElementType() << " buffer next to a " << dc::elemTypeName(elemType)
             << " buffer: a step of the narrower is not whole accesses of the wider, "
                "element type conversions between buffer types are not lowered";
  for (Operation &op : computeStage->getRegion(0).front())
    for (Type type : llvm::concat<const Type>(op.getOperandTypes(), op.getResultTypes()))
      if (!registerType(mlir::getElementTypeOrSelf(type)))
        return op.emitError("a ") << mlir::getElementTypeOrSelf(type)
                                  << " value has no vector registers";
  // Each input register is received in its buffer's type and each result
  // sent in its buffer's: the body's values must agree with them.
  Block &computeBody = computeStage->getRegion(0).front();
  for (auto [i, arg] : llvm::enumerate(computeBody.getArguments()))
    if (i < computeInputs.size() && computeInputs[i].loadIndex >= 0) {
      const Transfer &t = (twoLevel ? innerLoads : loads)[computeInputs[i].loadIndex];
      if (registerType(arg.getType()) != t.regType)
        return computeStage->emitError("a ")
               << arg.getType() << " input loaded from a " << t.tensor.getElementType()
               << " buffer: not lowered";
    }
  if (reduceDim >= 0 && group->hasAttr("phases")) {
    SmallVector<bool> splat;
    for (const ComputeInput &in : computeInputs)
      splat.push_back(in.splat.has_value());
    Attribute values = ks::decisionValue(group, ks::kPhaseValues);
    auto carry = llvm::dyn_cast_or_null<StringAttr>(values);
    llvm::DenseSet<Value> scratchValues;
    if (carry && carry.getValue() == ks::kPhaseValuesInScratchpad)
      scratchValues = ks::phaseScratchValues(group, computeStage->getRegion(0).front());
    auto nest = PhaseNest::analyze(computeStage, space, reduceDim, vectorWidth, splat,
                                   carry && carry.getValue() == ks::kPhaseValuesInRegisters,
                                   scratchValues.empty() ? nullptr : &scratchValues);
    if (failed(nest))
      return failure();
    phased = std::move(*nest);
    streamColumns = ks::streamColumns(group);
  } else if (reduceDim >= 0) {
    auto nest = ReductionNest::analyze(computeStage, space, reduceDim, vectorWidth, elemType);
    if (failed(nest))
      return failure();
    reduction = std::move(*nest);
    // A held column operand is set once per row, not read every vector.
    SmallVector<bool> splat;
    for (const ComputeInput &in : computeInputs)
      splat.push_back(in.splat.has_value() ||
                      (in.loadIndex >= 0 && isColumnLoad(loads[in.loadIndex])));
    reduction->setSplatArguments(splat);
  }

  // Units and instances. Cores are the instances of the DMA's group; the
  // sub-core instances those of the load unit's group inside one core.
  if (twoLevel) {
    if (failed(collectTwoLevelUnits()))
      return failure();
  } else {
  auto dmaNode = model.lookupNode(dmaUnit), ldNode = model.lookupNode(ldUnit),
       stNode = model.lookupNode(stUnit);
  computeNode = model.lookupNode(computeUnit);
  if (!dmaNode || !ldNode || !stNode || !computeNode)
    return group.emitError("schedule names a unit the description lacks");
  coreGroup = model.node(*dmaNode).group;
  subGroup = model.node(*ldNode).group;
  cores = model.instanceCount(coreGroup);
  subcores = model.instanceCount(subGroup) / cores;
  if ((int64_t)shares.size() > subcores)
    return outer->emitError("split over ") << shares.size() << " instances but a core has "
                                           << subcores;
  }
  auto grid = kernel.getGrid();
  int64_t gridTiles = grid[0] * grid[1] * grid[2];
  if (restriction && llvm::any_of(restriction->cores, [&](int64_t c) {
        return coreOf(c) < 0 || coreOf(c) >= cores;
      }))
    return kernel.emitError("a round of grid tiles does not fit the ") << cores << " cores";
  // The group's loop: every grid tile must run the same number of
  // iterations, so one program (unrolled over them) serves every core.
  if (auto loop = group->getAttrOfType<DictionaryAttr>("loop")) {
    auto lbMap = loop.getAs<AffineMapAttr>("lb"), ubMap = loop.getAs<AffineMapAttr>("ub");
    loopStep = i64Of(loop.get("step"), 0);
    if (!lbMap || !ubMap || loopStep <= 0)
      return group.emitError("group loop lacks lb, ub or a positive step");
    for (int64_t c = 0; c < gridTiles; ++c) {
      SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1],
                                     c / (grid[0] * grid[1])};
      int64_t lb = ks::evalLoopBound(lbMap.getValue(), coords, /*upper=*/false);
      int64_t ub = ks::evalLoopBound(ubMap.getValue(), coords, /*upper=*/true);
      int64_t trips = ub > lb ? (ub - lb + loopStep - 1) / loopStep : 0;
      loopTripsOf.push_back(trips);
      loopLower.push_back(lb);
    }
    if (loop.get("ub_symbolic") && failed(collectSymbolicTrips(loop, grid)))
      return failure();
    // One program is unrolled over the iterations: the tiles lowered
    // together run the same number (coreClasses() separates the others).
    loopTrips = restriction && !restriction->cores.empty()
                    ? loopTripsOf[restriction->cores.front()]
                    : loopTripsOf.front();
    if (restriction)
      for (int64_t c : restriction->cores)
        if (loopTripsOf[c] != loopTrips)
          return group.emitError("grid tiles run different numbers of loop iterations (")
                 << loopTrips << " and " << loopTripsOf[c] << "): not lowered";
  } else {
    loopLower.assign(gridTiles, 0);
    loopTripsOf.assign(gridTiles, 1);
  }
  ldInstances.assign(gridTiles, {});
  stInstances.assign(gridTiles, {});
  for (int64_t c = 0; c < gridTiles; ++c) {
    if (!restriction || llvm::is_contained(restriction->cores, c))
      coreIds.push_back(c);
    for (int64_t i = 0; i < model.instanceCount(subGroup); ++i)
      if (model.ancestorInstance(subGroup, i, coreGroup) == coreOf(c)) {
        ldInstances[c].push_back(i);
        stInstances[c].push_back(i);
      }
  }

  if (restriction && restriction->space.size() == space.size() && splitDim >= 0 &&
      splitDim < (int64_t)space.size()) {
    // The schedule's shares of the class's valid extent (ktsched-classify-tiles).
    if (restriction->shares.size() != shares.size())
      return outer->emitError("a class of grid tiles has ")
             << restriction->shares.size() << " shares, the split " << shares.size();
    shares = restriction->shares;
  }

  // Tiles of each sub-core instance, in loop order (outermost first).
  int64_t start = 0;
  for (int64_t share : shares) {
    SmallVector<int64_t> lo(space.size(), 0), hi(space.begin(), space.end());
    lo[splitDim] = start;
    hi[splitDim] = start + share;
    start += share;
    std::vector<Tile> list;
    for (int64_t iteration = 0; iteration < loopTrips; ++iteration) {
    SmallVector<int64_t> counts;
    for (size_t d = 0; d < space.size(); ++d)
      counts.push_back((hi[d] - lo[d] + tileShape[d] - 1) / tileShape[d]);
    SmallVector<int64_t> index(space.size(), 0);
    int64_t total = 1;
    for (int64_t c : counts)
      total *= c;
    for (int64_t n = 0; n < total; ++n) {
      // Decompose n over loopOrder (last = fastest).
      int64_t rest = n;
      for (int k = (int)loopOrder.size() - 1; k >= 0; --k) {
        int64_t d = loopOrder[k];
        index[d] = rest % counts[d];
        rest /= counts[d];
      }
      Tile tile;
      tile.iteration = iteration;
      for (size_t d = 0; d < space.size(); ++d) {
        int64_t o = lo[d] + index[d] * tileShape[d];
        tile.origin.push_back(o);
        tile.extent.push_back(std::min(tileShape[d], hi[d] - o));
      }
      list.push_back(tile);
    }
    }
    tiles.push_back(std::move(list));
  }
  if (symbolic())
    for (const std::vector<Tile> &list : tiles)
      tilesPerIteration.push_back(loopTrips > 0 ? int64_t(list.size()) / loopTrips : 0);

  if (phased)
    for (const Transfer &t : stores)
      out.reducedOutputs.push_back({t.arg, "phases", space[reduceDim]});
  if (reduction) {
    if (!deferStoreChecks && failed(checkReductionStores()))
      return failure();
    for (auto [i, t] : llvm::enumerate(stores)) {
      const ReducedOutput &r = reduction->outputs()[std::min(i, reduction->outputs().size() - 1)];
      out.reducedOutputs.push_back({t.arg, dc::combinerName(r.combiner).str(),
                                    space[reduceDim]});
    }
  }

  if (failed(planColumnLeads()))
    return failure();

  return success();
}

LogicalResult GroupLowering::collectComputeInputs(Operation *loadStage) {
  for (Value input : computeStage->getOperands()) {
    ComputeInput in;
    // Through the FIFO (one level) or the buffer (two levels) to the stage.
    if (auto fifo = input.getDefiningOp<ks::FifoOp>())
      input = fifo.getSource();
    else if (auto buffer = input.getDefiningOp<ks::BufferOp>())
      input = buffer.getSource();
    if (auto scalar = input.getDefiningOp<ks::ScalarArgOp>()) {
      auto it = options.scalarArgs.find(scalar.getArg());
      if (it == options.scalarArgs.end()) {
        // The kernel source names its arguments by location (KernelSource).
        std::string name = "arg" + std::to_string(scalar.getArg());
        if (auto named = llvm::dyn_cast<NameLoc>(scalar.getLoc()))
          name = named.getName().str();
        return scalar.emitError("scalar argument '")
               << name << "' needs a value at compile time (pass --arg " << name << "=VALUE)";
      }
      in.splat = it->second;
    } else if (auto result = llvm::dyn_cast<OpResult>(input);
               result && result.getOwner() == loadStage) {
      in.loadIndex = result.getResultNumber();
    } else {
      return computeStage->emitError("compute input is neither a load nor a scalar");
    }
    computeInputs.push_back(in);
  }
  return success();
}

LogicalResult GroupLowering::collectTwoLevelStages(Operation *dmaLoad, Operation *dmaStore,
                                                   Operation *inner) {
  auto unitOf = [&](Operation *stage) -> std::string {
    if (auto name = llvm::dyn_cast_or_null<StringAttr>(decisionValue(stage, "unit")))
      return name.getValue().str();
    return "";
  };
  Operation *innerLoad = nullptr, *innerNested = nullptr, *innerStore = nullptr;
  for (Operation &op : inner->getRegion(0).front()) {
    auto stage = llvm::dyn_cast<ks::StageOp>(op);
    if (!stage)
      continue;
    StringRef role = stage.getRole();
    if (role == "dma_load")
      innerLoad = stage;
    else if (role == "nested")
      innerNested = stage;
    else if (role == "dma_store")
      innerStore = stage;
    else
      return stage.emitError("stage '") << role << "' at the second scratchpad level is not "
                                        << "lowered";
  }
  if (!innerLoad || !innerNested || !innerStore)
    return inner->emitError("second-level pipeline is not of the form dma_load, nested, "
                            "dma_store");
  if (decisionValue(inner, "tile"))
    return inner->emitError("a second-level tile decision is not lowered (the inner "
                            "buffers must hold the outer tile)");
  tileDmaUnit = unitOf(innerLoad);
  if (unitOf(innerStore) != tileDmaUnit)
    return innerStore->emitError("loads and stores on different DMA units are not lowered");
  Operation *vectorPipeline = nullptr;
  for (Operation &op : innerNested->getRegion(0).front())
    if (llvm::isa<ks::PipelineOp>(op))
      vectorPipeline = &op;
  if (!vectorPipeline)
    return innerNested->emitError("nested stage holds no pipeline");
  for (Operation &op : vectorPipeline->getRegion(0).front())
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op)) {
      if (stage.getRole() != "compute")
        return stage.emitError("stage '")
               << stage.getRole() << "' beside a compute unit that reads its scratchpad "
               << "directly is not lowered";
      computeStage = stage;
    }
  if (!computeStage)
    return vectorPipeline->emitError("vector pipeline holds no compute stage");
  computeUnit = unitOf(computeStage);
  vectorWidth = i64Of(decisionValue(computeStage, "vector"));
  if (vectorWidth <= 0)
    return computeStage->emitError("compute stage has no vector width");

  auto outerLoads = dmaLoad->getAttrOfType<ArrayAttr>("transfers");
  auto innerLoadTransfers = innerLoad->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(innerLoad->getOperands())) {
    Transfer t, u;
    if (failed(resolveTransfer(dmaLoad, outerLoads, i, value, t)))
      return failure();
    Value innerBuffer;
    for (Operation *user : innerLoad->getResult(i).getUsers())
      if (llvm::isa<ks::BufferOp>(user))
        innerBuffer = user->getResult(0);
    if (!innerBuffer)
      return innerLoad->emitError("load ") << i << " is not buffered";
    if (failed(resolveTransfer(innerLoad, innerLoadTransfers, i, innerBuffer, u)))
      return failure();
    loads.push_back(t);
    innerLoads.push_back(u);
  }
  auto outerStores = dmaStore->getAttrOfType<ArrayAttr>("transfers");
  auto innerStoreTransfers = innerStore->getAttrOfType<ArrayAttr>("transfers");
  if (dmaStore->getNumOperands() != innerStore->getNumOperands())
    return dmaStore->emitError("stores of the two levels differ");
  for (unsigned i = 0; i < dmaStore->getNumOperands(); ++i) {
    Transfer t, u;
    if (failed(resolveTransfer(dmaStore, outerStores, i, dmaStore->getOperand(i), t)) ||
        failed(resolveTransfer(innerStore, innerStoreTransfers, i, innerStore->getOperand(i),
                               u)))
      return failure();
    stores.push_back(t);
    innerStores.push_back(u);
  }
  return collectComputeInputs(innerLoad);
}

LogicalResult GroupLowering::collectTwoLevelUnits() {
  auto outerDma = model.lookupNode(dmaUnit), tileDma = model.lookupNode(tileDmaUnit);
  computeNode = model.lookupNode(computeUnit);
  if (!outerDma || !tileDma || !computeNode)
    return group.emitError("schedule names a unit the description lacks");
  if (model.nodeInstanceCount(*outerDma) != 1)
    return group.emitError("an outer DMA with ")
           << model.nodeInstanceCount(*outerDma) << " instances is not lowered";
  coreGroup = model.node(*tileDma).group;
  subGroup = model.node(*computeNode).group;
  cores = model.instanceCount(coreGroup);
  subcores = model.instanceCount(subGroup) / cores;
  if (shares.size() != 1)
    return outer->emitError("a split over ")
           << shares.size() << " sub-cores with two scratchpad levels is not lowered";
  return success();
}

FailureOr<SmallVector<GroupLowering::CoreClass>> GroupLowering::coreClasses() {
  auto classes = llvm::dyn_cast_or_null<ArrayAttr>(decisionValue(outer, "classes"));
  if (!classes)
    return outer->emitError("pipeline lacks the `classes` decision (ktsched-classify-tiles)");
  SmallVector<CoreClass> result;
  for (Attribute entry : classes) {
    auto dict = llvm::dyn_cast<DictionaryAttr>(entry);
    auto tiles = dict ? dict.getAs<DenseI64ArrayAttr>("tiles") : nullptr;
    auto valid = dict ? dict.getAs<DenseI64ArrayAttr>("space") : nullptr;
    auto classShares = dict ? dict.getAs<DenseI64ArrayAttr>("shares") : nullptr;
    if (!tiles || !valid || !classShares || tiles.empty())
      return outer->emitError("a class of grid tiles lacks tiles, space or shares");
    CoreClass cls;
    cls.cores.assign(tiles.asArrayRef().begin(), tiles.asArrayRef().end());
    cls.space.assign(valid.asArrayRef().begin(), valid.asArrayRef().end());
    cls.shares.assign(classShares.asArrayRef().begin(), classShares.asArrayRef().end());
    if (llvm::any_of(cls.cores, [&](int64_t c) { return !llvm::is_contained(coreIds, c); }))
      return outer->emitError("a class of grid tiles names a tile outside the grid");
    result.push_back(std::move(cls));
  }
  // Grid tiles whose distributed transfers touch other partitions, or
  // split at other places, need other copies: one SPMD DMA program cannot
  // serve them together, so they are lowered apart. Two levels' outer DMA
  // copies for each core on its own (servedCore) and needs no split.
  if (!hasDistributed() || twoLevel)
    return result;
  SmallVector<CoreClass> split;
  for (const CoreClass &cls : result) {
    std::map<std::vector<std::vector<int64_t>>, size_t> byPieces;
    for (int64_t c : cls.cores) {
      std::vector<std::vector<int64_t>> key;
      // The whole grid tile's pieces in every iteration of the loop.
      int64_t trips = loopTripsOf.empty() ? 1 : loopTripsOf[c];
      for (int64_t k = 0; k < trips; ++k) {
        Tile whole{SmallVector<int64_t>(cls.space.size(), 0), cls.space, k};
        for (const Transfer &t : llvm::concat<const Transfer>(loads, stores))
          if (isDistributed(t))
            for (const PartitionPiece &piece : partitionPieces(t, c, &whole)) {
              std::vector<int64_t> entry = {k, piece.partition};
              entry.insert(entry.end(), piece.start.begin(), piece.start.end());
              entry.insert(entry.end(), piece.extent.begin(), piece.extent.end());
              key.push_back(entry);
            }
      }
      auto [it, added] = byPieces.try_emplace(key, split.size());
      if (added)
        split.push_back(CoreClass{{}, cls.space, cls.shares, cls.firstTile});
      split[it->second].cores.push_back(c);
    }
  }
  return split;
}

LogicalResult GroupLowering::markHoistedLoads() {
  for (Transfer &t : loads) {
    auto hoist = llvm::dyn_cast_or_null<BoolAttr>(decisionValue(t.buffer.getOperation(), "hoist"));
    if (!hoist)
      return t.buffer.emitError("buffer lacks the `hoist` decision (ktsched-order-transfers)");
    t.hoisted = hoist.getValue();
    if (!t.hoisted)
      continue;
    // A hoisted copy serves every tile of the instance, so its region must
    // be the same for all of them; a plan can claim otherwise.
    auto varies = [&] {
      for (const std::vector<Tile> &list : tiles)
        for (const Tile &tile : list) {
          if (tileElementOffset(t, tile) != tileElementOffset(t, list.front()))
            return true;
          for (int64_t d : t.dims)
            if (d >= 0 && tile.extent[d] != list.front().extent[d])
              return true;
        }
      return false;
    };
    if (varies())
      return t.buffer.emitError("the load of @")
             << t.tensor.getSymName()
             << " is hoisted (copied once per sub-core instance) but its tile region "
                "changes between tiles";
  }
  return success();
}

FailureOr<int64_t> GroupLowering::leadOfLoads(int64_t inputDepth) {
  auto lead = llvm::dyn_cast_or_null<IntegerAttr>(decisionValue(outer, "lead"));
  if (!lead)
    return outer->emitError("pipeline lacks the `lead` decision (ktsched-order-transfers)");
  if (lead.getInt() < 0 || lead.getInt() > inputDepth - 1)
    return outer->emitError("lead ") << lead.getInt() << " is outside [0, " << inputDepth - 1
                                     << "] for input buffers of depth " << inputDepth;
  return lead.getInt();
}

bool GroupLowering::isColumnLoad(const Transfer &t) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  // A reduction holds column operands in blocks of the rows it visits
  // together: those of a row or a column fold (ReductionNest::HeldRows).
  if (reduction && reduction->reducedDim() < rowDim)
    return false;
  return rowDim >= 0 && !t.dims.empty() &&
         llvm::all_of(t.dims, [&](int64_t d) { return d == rowDim; });
}

SmallVector<RowSegment, 2> GroupLowering::rowSegments(const Tile &tile) const {
  int64_t rowDim = (int64_t)space.size() - 2;
  SmallVector<RowSegment, 2> segments;
  int64_t rows = tile.extent[rowDim], blocks = rows / vectorWidth;
  if (blocks > 0)
    segments.push_back({blocks, vectorWidth, 0});
  if (rows % vectorWidth != 0)
    segments.push_back({1, rows % vectorWidth, blocks * vectorWidth});
  return segments;
}
