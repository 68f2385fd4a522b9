//===- Workload.cpp - the roofline's work, from the schedule --------------===//
//
// Strategy. Each compute group of the scheduled kernel is read into a
// GroupShape: the loads and stores of its outer pipeline (each transfer's
// element size, shape and the iteration-space dimensions it follows), the
// memory its outer buffers are allocated in, the compute unit and its
// body, the loop trips of every grid tile and the `classes` decision. The
// work is then charged per set of grid tiles that share one valid extent
// and one trip count: the whole grid when one round of unmasked tiles
// covers it, else one set per round of the core group's instances and per
// class (the partition ktsched-classify-tiles records, the same the
// device code is built from). A set charges, over its tiles:
//
//  * each load: its valid bytes from global memory to the buffer's memory,
//    then a whole tile's elements, in the load's own type, on to the
//    compute unit;
//  * each store: the compute unit's results to the buffer's memory (only
//    the results of a reduction, a whole tile otherwise), then its valid
//    bytes back to global memory;
//  * the compute body: one op of its class per element for each vop
//    (`const` is a copy); a reduction folds once per element and, folding
//    the last dimension, reduces across lanes once per result;
//  * a load whose rows are dense (`row_layout`): its realignment, a copy
//    op per element (one `ext` per vector) and one per element of the
//    aligned vectors the compute unit holds (a `mov` as it takes each),
//    and the bytes its DMA reads beyond the valid ones (the run starts on
//    the DMA's alignment unit and ends on a whole one: up to one unit
//    more per run).
//
// Bytes go along the architecture model's routes (ArchModel::route), which
// charge every link and memory port they pass. The grid the kernel was
// written with fixes how many instances of the compute unit's core group
// work. docs/cost.md gives the reasons behind each count.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Cost/Workload.h"

#include "ktflow/Schedule/KTSched.h"
#include "ktflow/Schedule/PhaseValues.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace ktflow;
namespace ks = ktflow::ktsched;

namespace {

SmallVector<int64_t> i64Array(Attribute attr) {
  if (auto array = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(attr))
    return SmallVector<int64_t>(array.asArrayRef());
  return {};
}

/// One load or store of a group's outer pipeline.
struct TransferShape {
  ElementSize esize{Bytes(1)};
  /// Extent per tensor dimension, and the iteration-space dimension each
  /// follows (-1: a broadcast dimension, which keeps its own extent).
  SmallVector<int64_t> shape, dims;
  /// The memory of the buffer it goes through.
  std::string memory;
  /// Its buffer holds dense rows, which the compute unit realigns.
  bool denseRows = false;
  /// Times each tile is read from that buffer: once, or in a group of
  /// phases once per phase that reads it (the slot stays resident; a
  /// streamed group reads it from global memory as often).
  int64_t reads = 1;

  /// Elements this transfer moves per grid tile and loop iteration over the
  /// valid extent `space` (a partly masked tile moves only its valid points).
  int64_t validElements(ArrayRef<int64_t> space) const {
    int64_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i)
      n *= i < dims.size() && dims[i] >= 0 && dims[i] < (int64_t)space.size() ? space[dims[i]]
                                                                              : shape[i];
    return n;
  }
};

/// A class of grid tiles of the `classes` decision: the tiles, and the
/// valid extent of the iteration space they share.
struct TileClass {
  SmallVector<int64_t> tiles, space;
};

/// What a group's workload depends on, read from its schedule.
struct GroupShape {
  ks::GroupOp group;
  ks::StageOp computeStage;
  arch::NodeId computeNode = 0;
  /// Instances of the group of cores (the DMA that feeds the compute
  /// unit's level): the grid tiles of one round.
  int64_t cores = 1;
  SmallVector<TransferShape> loads, stores;
  int64_t splitDim = 0;
  /// Loop trips per grid tile (1 each without a loop).
  SmallVector<int64_t> tripsPerTile;
  SmallVector<TileClass> classes;
  /// The reduced dimension (-1: none) and the elements of one vector step.
  int64_t reduceDim = -1, vectorStep = 0;
  /// A streamed group of phases (`residency = streamed`): each phase that
  /// reads a load reads it again from global memory.
  bool streamed = false;
};

/// Grid tiles charged together: how many, their valid extent, their trips.
struct TileSet {
  int64_t tiles = 0;
  SmallVector<int64_t> space;
  int64_t loopTrips = 1;
};

class WorkloadBuilder {
public:
  WorkloadBuilder(const arch::ArchModel &model, ks::KernelOp kernel)
      : model(model), kernel(kernel) {
    auto grid = kernel.getGrid();
    gridTiles = 1;
    for (int64_t g : grid)
      gridTiles *= g;
    // The grid the kernel was written with: merging grid tiles (the `merge`
    // decision) is the scheduler giving up cores, a cost the ratio to the
    // bound must show rather than hide.
    kernelTiles = gridTiles;
    if (auto merge = llvm::dyn_cast_or_null<DictionaryAttr>(ks::decisionValue(kernel, "merge")))
      if (auto factor = merge.getAs<IntegerAttr>("factor"))
        kernelTiles *= std::max<int64_t>(1, factor.getInt());
  }

  LogicalResult addGroup(ks::GroupOp group);
  arch::Workload take() { return std::move(workload); }

private:
  FailureOr<GroupShape> readGroup(ks::GroupOp group);
  LogicalResult readTransfer(Operation *stage, ArrayAttr transfers, unsigned index,
                             Value bufferValue, TransferShape &t);
  LogicalResult readLoop(GroupShape &shape);
  LogicalResult readClasses(GroupShape &shape, Operation *outer);
  void charge(const GroupShape &shape, const TileSet &set);

  const arch::ArchModel &model;
  ks::KernelOp kernel;
  int64_t gridTiles = 1, kernelTiles = 1;
  arch::Workload workload;
};

std::string unitOf(Operation *stage) {
  if (auto name = llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(stage, "unit")))
    return name.getValue().str();
  return "";
}

/// The stages of a pipeline by role (the last one of each role).
llvm::StringMap<ks::StageOp> stagesByRole(Operation *pipeline) {
  llvm::StringMap<ks::StageOp> stages;
  for (Operation &op : pipeline->getRegion(0).front())
    if (auto stage = llvm::dyn_cast<ks::StageOp>(op))
      stages[stage.getRole()] = stage;
  return stages;
}

/// The pipeline nested in a `nested` stage.
Operation *nestedPipeline(Operation *stage) {
  for (Operation &op : stage->getRegion(0).front())
    if (llvm::isa<ks::PipelineOp>(op))
      return &op;
  return nullptr;
}

LogicalResult WorkloadBuilder::readTransfer(Operation *stage, ArrayAttr transfers, unsigned index,
                                            Value bufferValue, TransferShape &t) {
  if (!transfers || index >= transfers.size())
    return stage->emitError("stage has no transfer ") << index;
  auto dict = llvm::dyn_cast<DictionaryAttr>(transfers[index]);
  auto tensorRef = dict ? dict.getAs<FlatSymbolRefAttr>("tensor") : nullptr;
  if (!tensorRef)
    return stage->emitError("transfer ") << index << " names no tensor";
  auto tensor = kernel.lookupSymbol<ks::TensorOp>(tensorRef.getValue());
  if (!tensor)
    return stage->emitError("unknown tensor ") << tensorRef;
  t.esize = ks::elementSize(tensor.getElementType());
  t.shape = i64Array(dict.get("shape"));
  t.dims = i64Array(dict.get("dims"));
  auto buffer = bufferValue.getDefiningOp<ks::BufferOp>();
  auto memory = buffer ? buffer->getAttrOfType<StringAttr>("memory") : nullptr;
  if (!memory)
    return stage->emitError("transfer ") << index << " goes through no allocated buffer";
  t.memory = memory.getValue().str();
  t.denseRows = ks::hasDenseRows(buffer);
  return success();
}

LogicalResult WorkloadBuilder::readLoop(GroupShape &shape) {
  std::optional<SmallVector<int64_t>> trips = cost::loopTripsPerGridTile(kernel, shape.group);
  if (!trips)
    return shape.group.emitError("group loop lacks lb, ub or a positive step");
  shape.tripsPerTile = std::move(*trips);
  return success();
}

LogicalResult WorkloadBuilder::readClasses(GroupShape &shape, Operation *outer) {
  auto classes = llvm::dyn_cast_or_null<ArrayAttr>(ks::decisionValue(outer, "classes"));
  if (!classes)
    return outer->emitError("pipeline lacks the `classes` decision (ktsched-classify-tiles)");
  for (Attribute entry : classes) {
    auto dict = llvm::dyn_cast<DictionaryAttr>(entry);
    auto tiles = dict ? dict.getAs<DenseI64ArrayAttr>("tiles") : nullptr;
    auto valid = dict ? dict.getAs<DenseI64ArrayAttr>("space") : nullptr;
    if (!tiles || !valid || tiles.empty())
      return outer->emitError("a class of grid tiles lacks tiles or space");
    if (llvm::any_of(tiles.asArrayRef(), [&](int64_t c) { return c < 0 || c >= gridTiles; }))
      return outer->emitError("a class of grid tiles names a tile outside the grid");
    shape.classes.push_back(
        {SmallVector<int64_t>(tiles.asArrayRef()), SmallVector<int64_t>(valid.asArrayRef())});
  }
  return success();
}

/// A group of phases (`phases`) reads a load once per phase whose values
/// need it: per reduction phase, the backward slice of its reductions'
/// operands, and the final phase's of the stored values, each stopping at
/// the per-row results of earlier phases.
static void countPhaseReads(GroupShape &shape) {
  if (!shape.group->hasAttr("phases"))
    return;
  Block &body = shape.computeStage->getRegion(0).front();
  // Phase -> the values it computes (0: the final phase; reductions from 1).
  llvm::MapVector<int64_t, SmallVector<Value>> roots;
  for (Operation &op : body) {
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (vop && vop.getKind() == "reduce")
      if (auto phase = vop->getAttrOfType<IntegerAttr>("phase"))
        roots[phase.getInt()].push_back(vop.getOperand(0));
    if (auto yield = llvm::dyn_cast<ks::YieldOp>(op))
      roots[0].append(yield.getValues().begin(), yield.getValues().end()); // the final phase
  }
  SmallVector<int64_t> argReads(body.getNumArguments(), 0);
  // Where the per-phase results stay in registers (`phase_values =
  // registers`), a phase reads only the arguments no earlier phase's
  // carried values cover.
  auto decision =
      llvm::dyn_cast_or_null<StringAttr>(ks::decisionValue(shape.group, ks::kPhaseValues));
  if (decision && decision.getValue() == ks::kPhaseValuesInRegisters) {
    FailureOr<ks::PhaseSplit> split = ks::splitPhases(
        shape.computeStage, ks::uniformComputeArguments(shape.computeStage), /*diagnose=*/false);
    if (succeeded(split)) {
      for (const ks::PhaseSplit::Phase &phase : split->phases)
        for (auto [i, read] : llvm::enumerate(phase.residentArgsRead))
          argReads[i] += read ? 1 : 0;
      roots.clear();
    }
  }
  for (auto &[phase, values] : roots) {
    llvm::DenseSet<Value> seen;
    SmallVector<Value> work(values);
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (auto arg = llvm::dyn_cast<BlockArgument>(v)) {
        ++argReads[arg.getArgNumber()];
        continue;
      }
      auto vop = v.getDefiningOp<ks::VectorOp>();
      if (!vop || vop.getKind() == "reduce")
        continue;
      work.append(vop->operand_begin(), vop->operand_end());
    }
  }
  // Compute operand j is transfer k's channel: result k of the stage that
  // reads the buffers, through a FIFO or a buffer.
  for (auto [j, operand] : llvm::enumerate(shape.computeStage->getOperands())) {
    Value v = operand;
    while (Operation *def = v.getDefiningOp()) {
      if (!llvm::isa<ks::FifoOp, ks::BufferOp>(def))
        break;
      v = def->getOperand(0);
    }
    auto result = llvm::dyn_cast<OpResult>(v);
    if (result && llvm::isa<ks::StageOp>(result.getOwner()) &&
        result.getResultNumber() < shape.loads.size() && j < argReads.size())
      shape.loads[result.getResultNumber()].reads = std::max<int64_t>(1, argReads[j]);
  }
}

FailureOr<GroupShape> WorkloadBuilder::readGroup(ks::GroupOp group) {
  GroupShape shape;
  shape.group = group;
  auto pipelines = group.getBody().getOps<ks::PipelineOp>();
  if (std::distance(pipelines.begin(), pipelines.end()) != 1)
    return group.emitError("group must hold exactly one pipeline");
  Operation *outer = *pipelines.begin();
  SmallVector<int64_t> reduceDims(group.getReduceDims());
  if (reduceDims.size() > 1)
    return group.emitError("a reduction over ") << reduceDims.size() << " dimensions";
  if (!reduceDims.empty())
    shape.reduceDim = reduceDims.front();
  auto split = llvm::dyn_cast_or_null<DictionaryAttr>(ks::decisionValue(outer, "split"));
  auto splitDim = split ? split.getAs<IntegerAttr>("dim") : nullptr;
  if (group.getSpace().empty() || !splitDim)
    return outer->emitError("pipeline lacks a split decision");
  shape.splitDim = splitDim.getInt();

  // Outer level: global memory <-> the first scratchpad level.
  llvm::StringMap<ks::StageOp> outerStages = stagesByRole(outer);
  ks::StageOp dmaLoad = outerStages.lookup("dma_load"), nested = outerStages.lookup("nested"),
              dmaStore = outerStages.lookup("dma_store");
  if (!dmaLoad || !nested || !dmaStore)
    return outer->emitError("pipeline is not of the form dma_load, nested, dma_store");
  Operation *inner = nestedPipeline(nested);
  if (!inner)
    return nested->emitError("nested stage holds no pipeline");
  // The stage reading the outer buffers: a load unit, or with a second
  // scratchpad level the DMA that copies them one level in. The cores are
  // the instances of the DMA that feeds the compute unit's level.
  llvm::StringMap<ks::StageOp> innerStages = stagesByRole(inner);
  ks::StageOp reader = innerStages.lookup("dma_load");
  std::string coreUnit = reader ? unitOf(reader) : unitOf(dmaLoad);
  if (!reader)
    reader = innerStages.lookup("load");
  if (!reader)
    return inner->emitError("inner pipeline reads no buffer of the outer one");
  shape.computeStage = ks::computeStage(group);
  if (!shape.computeStage)
    return group.emitError("group has no compute stage");

  auto loadTransfers = dmaLoad->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(reader->getOperands())) {
    TransferShape t;
    if (failed(readTransfer(dmaLoad, loadTransfers, i, value, t)))
      return failure();
    shape.loads.push_back(t);
  }
  auto storeTransfers = dmaStore->getAttrOfType<ArrayAttr>("transfers");
  for (auto [i, value] : llvm::enumerate(dmaStore->getOperands())) {
    TransferShape t;
    if (failed(readTransfer(dmaStore, storeTransfers, i, value, t)))
      return failure();
    shape.stores.push_back(t);
  }
  if (shape.loads.empty() && shape.stores.empty())
    return group.emitError("group moves no data");

  std::optional<arch::NodeId> computeNode = model.lookupNode(unitOf(shape.computeStage)),
                              coreNode = model.lookupNode(coreUnit);
  if (!computeNode || !coreNode)
    return group.emitError("schedule names a unit the description lacks");
  shape.computeNode = *computeNode;
  shape.cores = std::max<int64_t>(1, model.instanceCount(model.node(*coreNode).group));

  if (shape.reduceDim >= 0) {
    auto lanes =
        llvm::dyn_cast_or_null<IntegerAttr>(ks::decisionValue(shape.computeStage, "vector"));
    if (!lanes || lanes.getInt() <= 0)
      return shape.computeStage->emitError("compute stage has no vector width");
    shape.vectorStep = ks::vectorStep(group, lanes.getInt());
  }
  if (failed(readLoop(shape)) || failed(readClasses(shape, outer)))
    return failure();
  countPhaseReads(shape);
  shape.streamed = ks::streamColumns(group).has_value();
  return shape;
}

/// Whether `value` is computed from a reduction's result (an epilogue
/// op's: it runs once per result, not once per element).
static bool followsReduction(Value value) {
  auto vop = value.getDefiningOp<ks::VectorOp>();
  if (!vop)
    return false;
  return vop.getKind() == "reduce" ||
         llvm::any_of(vop->getOperands(), [](Value v) { return followsReduction(v); });
}

/// Whether `vop` reads, through its operands, a value that differs along a
/// row: a loaded input (a block argument read every vector) rather than
/// only per-row results, constants and scalars.
static bool readsRow(ks::VectorOp vop, Operation *computeStage) {
  return llvm::any_of(vop->getOperands(), [&](Value v) {
    if (auto arg = llvm::dyn_cast<BlockArgument>(v))
      return !computeStage->getOperand(arg.getArgNumber()).getDefiningOp<ks::ScalarArgOp>();
    auto def = v.getDefiningOp<ks::VectorOp>();
    return def && def.getKind() != "reduce" && readsRow(def, computeStage);
  });
}

/// A vop that only serves a reduction: the `reduce` itself, an epilogue op
/// on its result, or a `const` used only by those.
bool isReductionOnly(ks::VectorOp vop) {
  if (vop.getKind() == "reduce" || followsReduction(vop.getResult()))
    return true;
  if (vop.getKind() != "const" || vop->use_empty())
    return false;
  return llvm::all_of(vop->getUses(), [](OpOperand &use) {
    auto user = llvm::dyn_cast<ks::VectorOp>(use.getOwner());
    if (!user)
      return false;
    if (user.getKind() == "reduce")
      return use.getOperandNumber() == 1;
    return followsReduction(user.getResult());
  });
}


/// The type whose lanes an op's issues are counted at: its widest float or
/// integer value (operands and result), or `fallback` where it has none.
static mlir::Type issueType(ks::VectorOp vop, mlir::Type fallback) {
  mlir::Type widest;
  auto consider = [&](mlir::Type t) {
    if (!t.isIntOrFloat() || t.isInteger(1))
      return;
    if (!widest || t.getIntOrFloatBitWidth() > widest.getIntOrFloatBitWidth())
      widest = t;
  };
  consider(vop.getResult().getType());
  for (mlir::Value operand : vop->getOperands())
    consider(operand.getType());
  return widest ? widest : fallback;
}

void WorkloadBuilder::charge(const GroupShape &shape, const TileSet &set) {
  // The roofline's work: bytes along the routes, compute per element.
  int64_t elementsPerGridTile = set.loopTrips;
  for (int64_t s : set.space)
    elementsPerGridTile *= s;
  std::optional<arch::NodeId> memNode = model.lookupNode(
      shape.loads.empty() ? shape.stores.front().memory : shape.loads.front().memory);
  auto globalNodes = model.memoriesBacking(arch::KtirSpace::Global);
  if (!memNode || globalNodes.empty())
    return;
  arch::NodeId computeNode = shape.computeNode;
  auto chargeRoute = [&](arch::NodeId from, arch::NodeId to, Bytes bytes) {
    if (auto route = model.route({from, 0}, {to, 0}))
      model.addRouteTraffic(workload, *route, bytes);
  };
  // A group of phases stores whole rows and computes every op of its
  // rows per element (per-row ops once per row), as an element-wise group.
  bool phased = shape.group->hasAttr("phases");
  bool reduction = shape.reduceDim >= 0 && !phased;
  for (const TransferShape &t : shape.loads) {
    Bytes bytes =
        toBytes(Elements(t.validElements(set.space) * set.tiles * set.loopTrips), t.esize);
    if (t.denseRows) {
      // Over-fetched: the run from the DMA unit it starts in, rounded up
      // to a whole one (one DMA run per grid tile and loop iteration).
      const arch::AccessRule *dmaRule = nullptr;
      for (const arch::Node &node : model.nodes())
        if (!dmaRule)
          dmaRule = node.accessTo(globalNodes.front());
      Bytes unit = dmaRule ? std::max(Bytes(1), dmaRule->alignment) : Bytes(1);
      bytes = bytes + unit * (set.tiles * set.loopTrips);
      // Realignment: an `ext` per vector and a `mov` per aligned vector.
      workload.addCompute(computeNode, "copy", ks::GroupOp(shape.group).getElementType(),
                          2 * elementsPerGridTile * set.tiles);
    }
    // A streamed row crosses from global memory once per phase reading it.
    chargeRoute(globalNodes.front(), *memNode, shape.streamed ? bytes * t.reads : bytes);
    // Each buffer's elements in its own type (an f32 input of an f16
    // output moves twice the bytes per element).
    chargeRoute(*memNode, computeNode,
                toBytes(Elements(elementsPerGridTile * set.tiles * t.reads), t.esize));
  }
  for (const TransferShape &t : shape.stores) {
    // A reduction sends only its results back.
    int64_t sent = reduction ? t.validElements(set.space) * set.tiles * set.loopTrips
                             : elementsPerGridTile * set.tiles;
    chargeRoute(computeNode, *memNode, toBytes(Elements(sent), t.esize));
    chargeRoute(*memNode, globalNodes.front(),
                toBytes(Elements(t.validElements(set.space) * set.tiles * set.loopTrips), t.esize));
  }
  // The grid fixes how many cores work: the kernel's physical limit is that
  // of those cores (a one-tile kernel is bound by one core's path, not by
  // the whole chip's).
  llvm::SmallVector<arch::GroupId, 4> chain = model.groupChain(model.node(computeNode).group);
  if (chain.size() > 1)
    workload.setActiveInstances(chain[1],
                                std::min<int64_t>(kernelTiles, model.group(chain[1]).count));
  mlir::Type groupType = ks::GroupOp(shape.group).getElementType();
  bool rowReduction = shape.reduceDim == (int64_t)set.space.size() - 1;
  for (Operation &op : shape.computeStage->getRegion(0).front()) {
    auto vop = llvm::dyn_cast<ks::VectorOp>(op);
    if (!vop)
      continue;
    StringRef kind = vop.getKind();
    // An op issues at the lanes of its widest value, as the simulator
    // counts them (a max folded over f16 data at f16's, its cast to f32 at
    // f32's).
    mlir::Type elementType = issueType(vop, groupType);
    if (phased && kind == "reduce") {
      auto combiner = vop->getAttrOfType<StringAttr>("combiner");
      workload.addCompute(computeNode, combiner ? combiner.getValue() : "add", elementType,
                          elementsPerGridTile * set.tiles);
      workload.addCompute(computeNode, "reduce", elementType,
                          elementsPerGridTile * set.tiles / set.space[shape.reduceDim] *
                              shape.vectorStep);
      continue;
    }
    if (phased && kind == "const" && isReductionOnly(vop))
      continue;
    if (phased && followsReduction(vop.getResult()) && !readsRow(vop, shape.computeStage)) {
      // A per-row op (a mean, rsqrt(var + eps)): once per row.
      workload.addCompute(computeNode, kind, elementType,
                          elementsPerGridTile * set.tiles / set.space[shape.reduceDim]);
      continue;
    }
    if (reduction && isReductionOnly(vop)) {
      // A fold is one combine per element, plus (folding the last
      // dimension) one cross-lane reduce per result. Counted over the
      // whole grid for every set of tiles, as the lowering always has.
      if (kind == "const")
        continue;
      if (kind != "reduce") {
        workload.addCompute(computeNode, kind, elementType,
                            elementsPerGridTile * set.tiles / set.space[shape.reduceDim]);
        continue;
      }
      auto combiner = vop->getAttrOfType<StringAttr>("combiner");
      workload.addCompute(computeNode, combiner ? combiner.getValue() : "add", elementType,
                          elementsPerGridTile * gridTiles);
      if (rowReduction)
        workload.addCompute(computeNode, "reduce", elementType,
                            elementsPerGridTile * gridTiles / set.space[shape.reduceDim] *
                                shape.vectorStep);
      continue;
    }
    StringRef opClass = kind == "const" ? "copy" : kind;
    workload.addCompute(computeNode, opClass, elementType, elementsPerGridTile * set.tiles);
  }
}

LogicalResult WorkloadBuilder::addGroup(ks::GroupOp group) {
  FailureOr<GroupShape> shape = readGroup(group);
  if (failed(shape))
    return failure();
  ArrayRef<int64_t> groupSpace = group.getSpace();
  // One round of unmasked tiles: the whole grid is one set.
  const SmallVector<TileClass> &classes = shape->classes;
  if (gridTiles <= shape->cores && classes.size() == 1 &&
      (int64_t)classes.front().tiles.size() == gridTiles &&
      llvm::equal(classes.front().space, groupSpace)) {
    charge(*shape, {gridTiles, SmallVector<int64_t>(groupSpace), shape->tripsPerTile.front()});
    return success();
  }
  // More grid tiles than cores run in rounds (tile t on core t mod cores);
  // partly masked tiles form classes of their own, over their valid extent.
  for (int64_t first = 0; first < gridTiles; first += shape->cores)
    for (const TileClass &cls : classes) {
      SmallVector<int64_t> tiles;
      for (int64_t c : cls.tiles)
        if (c >= first && c < first + shape->cores && !llvm::is_contained(tiles, c))
          tiles.push_back(c);
      if (tiles.empty())
        continue;
      TileSet set{(int64_t)tiles.size(), SmallVector<int64_t>(groupSpace),
                  shape->tripsPerTile[tiles.front()]};
      if (cls.space.size() == groupSpace.size() && shape->splitDim >= 0 &&
          shape->splitDim < (int64_t)groupSpace.size())
        set.space = cls.space;
      charge(*shape, set);
    }
  return success();
}

} // namespace

std::optional<SmallVector<int64_t>> ktflow::cost::loopTripsPerGridTile(ks::KernelOp kernel,
                                                                     ks::GroupOp group) {
  auto grid = kernel.getGrid();
  int64_t gridTiles = 1;
  for (int64_t g : grid)
    gridTiles *= g;
  auto loop = group.getLoopAttr();
  if (!loop)
    return SmallVector<int64_t>(gridTiles, 1);
  auto lbMap = loop.getAs<AffineMapAttr>("lb"), ubMap = loop.getAs<AffineMapAttr>("ub");
  auto stepAttr = loop.getAs<IntegerAttr>("step");
  int64_t step = stepAttr ? stepAttr.getInt() : 0;
  if (!lbMap || !ubMap || step <= 0)
    return std::nullopt;
  SmallVector<int64_t> trips;
  for (int64_t c = 0; c < gridTiles; ++c) {
    SmallVector<int64_t> coords = {c % grid[0], (c / grid[0]) % grid[1], c / (grid[0] * grid[1])};
    int64_t lb = ks::evalLoopBound(lbMap.getValue(), coords, /*upper=*/false);
    int64_t ub = ks::evalLoopBound(ubMap.getValue(), coords, /*upper=*/true);
    trips.push_back(ub > lb ? (ub - lb + step - 1) / step : 0);
  }
  return trips;
}

FailureOr<ks::KernelOp> ktflow::cost::scheduledKernel(ModuleOp scheduledModule) {
  auto kernels = scheduledModule.getOps<ks::KernelOp>();
  if (std::distance(kernels.begin(), kernels.end()) != 1) {
    scheduledModule.emitError("expected exactly one scheduled kernel (ktsched.kernel)");
    return failure();
  }
  return *kernels.begin();
}

/// The roofline work of a contraction, from its recorded decisions (on the
/// vector unit where `compute = vector`, below): per
/// (merged) grid tile, A read from global memory once per panel column of
/// its step and B once per panel row, C written once (the reuse the
/// schedule has: a step's operands stay in scratchpad for the panel); the
/// accumulators' carry between K steps; every mma's operand blocks from scratchpad to the matrix
/// unit (a B block per mma, an A block per `reuse` mma: it stays in the
/// unit's registers with that many accumulators); the accumulator blocks to the epilogue;
/// M x N x K multiply-adds on the matrix unit and the cast on the vector
/// unit. The vector unit's relayout of the rows into blocks is not
/// charged: a layout the frontend gave in blocks would not need it, so it
/// is the schedule's cost above the bound.
static LogicalResult addContraction(ks::KernelOp kernel, ks::ContractionOp op,
                                    const arch::ArchModel &model, arch::Workload &workload) {
  auto name = [&](StringRef attr) -> std::optional<arch::NodeId> {
    Attribute value = op->getAttr(attr);
    if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
      value = decision.getValue();
    auto text = llvm::dyn_cast_or_null<StringAttr>(value);
    return text ? model.lookupNode(text.getValue()) : std::nullopt;
  };
  std::optional<arch::NodeId> mxu = name("matrix_unit"), vec = name("vector_unit"),
                              spad = name("memory");
  Attribute compute = op->getAttr("compute");
  if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(compute))
    compute = decision.getValue();
  bool onVector = llvm::isa_and_nonnull<StringAttr>(compute) &&
                  llvm::cast<StringAttr>(compute).getValue() == "vector";
  if (onVector)
    mxu = vec;
  auto block = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(
      llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr("block"))
          ? llvm::cast<ks::DecisionAttr>(op->getAttr("block")).getValue()
          : Attribute());
  auto shapeOf = [](DictionaryAttr t) { return llvm::cast<DenseI64ArrayAttr>(t.get("shape")); };
  auto step = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(
      llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr("step"))
          ? llvm::cast<ks::DecisionAttr>(op->getAttr("step")).getValue()
          : Attribute());
  auto grid = op->getAttrOfType<DenseI64ArrayAttr>("grid");
  auto globals = model.memoriesBacking(arch::KtirSpace::Global);
  // The vector unit's contraction takes the grid tile in one step.
  if (onVector && !step)
    step = DenseI64ArrayAttr::get(op.getContext(),
                                  {shapeOf(op.getA())[0], shapeOf(op.getB())[1],
                                   shapeOf(op.getA())[1]});
  if (!mxu || !vec || !spad || !block || block.size() != 3 || !step || step.size() != 3 ||
      !grid || globals.empty())
    return op.emitError("contraction without the decisions of ktsched-schedule-contraction");
  auto tensorOf = [&](DictionaryAttr t) {
    return llvm::cast<ks::TensorOp>(SymbolTable::lookupSymbolIn(
        kernel, llvm::cast<FlatSymbolRefAttr>(t.get("tensor")).getValue()));
  };
  auto shape = [](DictionaryAttr t) { return llvm::cast<DenseI64ArrayAttr>(t.get("shape")); };
  Type inType = tensorOf(op.getA()).getElementType(), outType = tensorOf(op.getC()).getElementType();
  Type accType = op.getAccumulatorType();
  int64_t es = ks::elementSize(inType).bytes.count(), eo = ks::elementSize(outType).bytes.count();
  int64_t ea = ks::elementSize(accType).bytes.count();
  int64_t m = shape(op.getA())[0], k = shape(op.getA())[1], n = shape(op.getB())[1];
  int64_t bm = block[0], bn = block[1], bk = block[2];
  int64_t tiles = 1;
  for (int64_t g : grid.asArrayRef())
    tiles *= g;
  auto chargeRoute = [&](arch::NodeId from, arch::NodeId to, int64_t bytes) {
    if (auto route = model.route({from, 0}, {to, 0}))
      model.addRouteTraffic(workload, *route, Bytes(bytes));
  };
  arch::NodeId global = globals.front();
  // A grid tile runs as panels of its step: A's rows are read once per
  // panel column, B's once per panel row; between K steps the panel's
  // accumulators go to scratchpad and back.
  int64_t panelsM = m / step[0], panelsN = n / step[1], steps = k / step[2];
  chargeRoute(global, *spad, tiles * (m * k * panelsN + k * n * panelsM) * es);
  chargeRoute(*spad, *mxu, tiles * (steps - 1) * m * n * ea);
  chargeRoute(*mxu, *spad, tiles * (steps - 1) * m * n * ea);
  chargeRoute(*spad, global, tiles * m * n * eo);
  if (onVector) {
    // Rows of bm accumulators: A read once, B once per row block, the
    // stored rows written once; M x N x K multiply-adds on the lanes of
    // the accumulator type (the broadcasts and casts are the schedule's).
    chargeRoute(*spad, *vec, tiles * (m * k + (m / bm) * k * n) * es);
    chargeRoute(*vec, *spad, tiles * m * n * eo);
    auto mac = llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr("multiply_accumulate"));
    if (mac && llvm::cast<StringAttr>(mac.getValue()).getValue() == "fma") {
      workload.addCompute(*vec, "fma", accType, tiles * m * n * k);
    } else {
      workload.addCompute(*vec, "mul", accType, tiles * m * n * k);
      workload.addCompute(*vec, "add", accType, tiles * m * n * k);
    }
  } else {
    // Each A block reaches the unit once per `reuse` mma (it stays in the
    // registers while that many B blocks stream), each B block once per mma.
    int64_t mmas = (m / bm) * (n / bn) * (k / bk), reuse = 1;
    if (auto decided = llvm::dyn_cast_or_null<ks::DecisionAttr>(op->getAttr("reuse")))
      if (auto count = llvm::dyn_cast<IntegerAttr>(decided.getValue()))
        reuse = std::max<int64_t>(1, count.getInt());
    chargeRoute(*spad, *mxu, tiles * (mmas / reuse * bm * bk + mmas * bk * bn) * es);
    chargeRoute(*mxu, *vec, tiles * m * n * ea);
    workload.addCompute(*mxu, "matmul", inType, tiles * m * n * k);
  }
  if (outType != accType)
    workload.addCompute(*vec, "cast", accType, tiles * m * n);
  llvm::SmallVector<arch::GroupId, 4> chain = model.groupChain(model.node(*mxu).group);
  if (chain.size() > 1)
    workload.setActiveInstances(chain[1], std::min<int64_t>(tiles, model.group(chain[1]).count));
  return success();
}

/// The roofline work of a transpose: per grid tile, the source block read
/// from global memory into the scratchpad and the transposed block written
/// back, and both between the scratchpad and the vector unit once. The
/// vector unit's slices and concats are not charged: the kernel has no
/// compute op, and a layout the frontend chose would not need them, so the
/// ratio is the relay's cost above moving the data.
static LogicalResult addTranspose(ks::KernelOp kernel, ks::TransposeOp op,
                                  const arch::ArchModel &model, arch::Workload &workload) {
  auto name = [&](StringRef attr) -> std::optional<arch::NodeId> {
    Attribute value = op->getAttr(attr);
    if (auto decision = llvm::dyn_cast_or_null<ks::DecisionAttr>(value))
      value = decision.getValue();
    auto text = llvm::dyn_cast_or_null<StringAttr>(value);
    return text ? model.lookupNode(text.getValue()) : std::nullopt;
  };
  std::optional<arch::NodeId> vec = name("vector_unit"), spad = name("memory");
  auto globals = model.memoriesBacking(arch::KtirSpace::Global);
  if (!vec || !spad || globals.empty())
    return op.emitError("transpose without the decisions of ktsched-schedule-transpose");
  auto tensor = llvm::cast<ks::TensorOp>(SymbolTable::lookupSymbolIn(
      kernel, llvm::cast<FlatSymbolRefAttr>(op.getSrc().get("tensor")).getValue()));
  auto shape = llvm::cast<DenseI64ArrayAttr>(op.getSrc().get("shape"));
  int64_t tiles = 1;
  for (int64_t g : kernel.getGrid())
    tiles *= g;
  int64_t bytes = tiles * shape[0] * shape[1] * ks::elementSize(tensor.getElementType()).bytes.count();
  auto chargeRoute = [&](arch::NodeId from, arch::NodeId to) {
    if (auto route = model.route({from, 0}, {to, 0}))
      model.addRouteTraffic(workload, *route, Bytes(bytes));
  };
  arch::NodeId global = globals.front();
  chargeRoute(global, *spad);
  chargeRoute(*spad, global);
  chargeRoute(*spad, *vec);
  chargeRoute(*vec, *spad);
  llvm::SmallVector<arch::GroupId, 4> chain = model.groupChain(model.node(*vec).group);
  if (chain.size() > 1)
    workload.setActiveInstances(chain[1], std::min<int64_t>(tiles, model.group(chain[1]).count));
  return success();
}

/// The roofline work of a gather: per grid tile, the index run and the
/// gathered rows read from global memory into the memory the DMA lands
/// them in, and the rows written back to the stored block. The index run
/// is charged at its own size (the copy of whole granules covering it, and
/// the gather's fetch of it, are the schedule's overhead). A scatter moves
/// the same bytes the other way: the block and the index run in, the rows
/// out to the table.
static LogicalResult addGather(ks::KernelOp kernel, ks::GatherOp op,
                               const arch::ArchModel &model, arch::Workload &workload) {
  auto memoryAttr = op->getAttrOfType<StringAttr>("memory");
  auto dmaAttr = op->getAttrOfType<StringAttr>("dma_unit");
  std::optional<arch::NodeId> memory =
      memoryAttr ? model.lookupNode(memoryAttr.getValue()) : std::nullopt;
  std::optional<arch::NodeId> dma = dmaAttr ? model.lookupNode(dmaAttr.getValue()) : std::nullopt;
  auto globals = model.memoriesBacking(arch::KtirSpace::Global);
  if (!memory || !dma || globals.empty())
    return op.emitError("gather without the decisions of ktsched-schedule-gather");
  auto bytesOf = [&](DictionaryAttr transfer) {
    auto tensor = llvm::cast<ks::TensorOp>(SymbolTable::lookupSymbolIn(
        kernel, llvm::cast<FlatSymbolRefAttr>(transfer.get("tensor")).getValue()));
    int64_t n = ks::elementSize(tensor.getElementType()).bytes.count();
    for (int64_t e : llvm::cast<DenseI64ArrayAttr>(transfer.get("shape")).asArrayRef())
      n *= e;
    return n;
  };
  int64_t tiles = 1;
  for (int64_t g : kernel.getGrid())
    tiles *= g;
  int64_t rowBytes = tiles * bytesOf(op.getSrc()), indexBytes = tiles * bytesOf(op.getIndex());
  auto chargeRoute = [&](arch::NodeId from, arch::NodeId to, int64_t bytes) {
    if (auto route = model.route({from, 0}, {to, 0}))
      model.addRouteTraffic(workload, *route, Bytes(bytes));
  };
  arch::NodeId global = globals.front();
  chargeRoute(global, *memory, rowBytes + indexBytes);
  chargeRoute(*memory, global, rowBytes);
  llvm::SmallVector<arch::GroupId, 4> chain = model.groupChain(model.node(*dma).group);
  if (chain.size() > 1)
    workload.setActiveInstances(chain[1], std::min<int64_t>(tiles, model.group(chain[1]).count));
  return success();
}

FailureOr<arch::Workload> ktflow::cost::computeWorkload(ModuleOp scheduledModule,
                                                        const arch::ArchModel &model) {
  FailureOr<ks::KernelOp> sole = cost::scheduledKernel(scheduledModule);
  if (failed(sole))
    return failure();
  ks::KernelOp kernel = *sole;
  WorkloadBuilder builder(model, kernel);
  // Groups run one after the other: their work adds up.
  for (ks::GroupOp group : kernel.getBody().getOps<ks::GroupOp>())
    if (failed(builder.addGroup(group)))
      return failure();
  arch::Workload workload = builder.take();
  for (ks::ContractionOp op : kernel.getBody().getOps<ks::ContractionOp>())
    if (failed(addContraction(kernel, op, model, workload)))
      return failure();
  for (ks::TransposeOp op : kernel.getBody().getOps<ks::TransposeOp>())
    if (failed(addTranspose(kernel, op, model, workload)))
      return failure();
  for (ks::GatherOp op : kernel.getBody().getOps<ks::GatherOp>())
    if (failed(addGather(kernel, op, model, workload)))
      return failure();
  return workload;
}

FailureOr<arch::Workload> ktflow::cost::computeContractionWorkload(ks::KernelOp kernel,
                                                                   ks::ContractionOp op,
                                                                   const arch::ArchModel &model) {
  WorkloadBuilder builder(model, kernel);
  arch::Workload workload = builder.take();
  if (failed(addContraction(kernel, op, model, workload)))
    return failure();
  return workload;
}

FailureOr<arch::Workload> ktflow::cost::computeGroupWorkload(ks::KernelOp kernel, ks::GroupOp group,
                                                             const arch::ArchModel &model) {
  WorkloadBuilder builder(model, kernel);
  if (failed(builder.addGroup(group)))
    return failure();
  return builder.take();
}
