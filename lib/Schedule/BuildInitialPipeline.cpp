//===- BuildInitialPipeline.cpp - load -> compute -> store ----------------===//
//
// Strategy: the simplest legal pipeline (DESIGN.md principle 2). Each
// group's loads become one `load` stage, its compute body one `compute`
// stage, its stores one `store` stage; logical FIFOs join them. The compute
// stage is bound to the first vector compute unit of the description that
// has lanes for the group's widest element type and every op class of the
// body, and one step moves one vector of that unit's lanes. Grid tile i
// (linear id, x fastest) runs on core i mod cores (instances of the
// scratchpad's group), in rounds when the grid is larger, recorded as a
// decision.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_BUILDINITIALPIPELINE
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

static DictionaryAttr transferOf(Operation *op, StringAttr tensor, AffineMapAttr origin,
                                 DenseI64ArrayAttr shape, DenseI64ArrayAttr dims, Type type) {
  Builder b(op->getContext());
  return b.getDictionaryAttr({b.getNamedAttr("tensor", FlatSymbolRefAttr::get(tensor)),
                              b.getNamedAttr("origin", origin),
                              b.getNamedAttr("shape", shape), b.getNamedAttr("dims", dims),
                              b.getNamedAttr("element_type", TypeAttr::get(type))});
}

static LogicalResult buildGroupPipeline(GroupOp group, KernelOp kernel, const ArchModel &model) {
  ComputeOp compute;
  SmallVector<LoadOp> loads;
  SmallVector<ScalarArgOp> scalars;
  SmallVector<StoreOp> stores;
  for (Operation &op : group.getBody().front()) {
    if (auto c = dyn_cast<ComputeOp>(op))
      compute = c;
    else if (auto l = dyn_cast<LoadOp>(op))
      loads.push_back(l);
    else if (auto s = dyn_cast<ScalarArgOp>(op))
      scalars.push_back(s);
    else if (auto s = dyn_cast<StoreOp>(op))
      stores.push_back(s);
    else
      return op.emitError("unexpected op in a compute group before the initial pipeline");
  }
  if (!compute)
    return group.emitError("compute group without a compute body");

  Type elementType = group.getElementType();
  SmallVector<StringRef> classes = requiredOpClasses(compute.getBody());
  SmallVector<Type> bodyTypes = bodyElementTypes(compute.getBody());
  std::optional<NodeId> unit;
  std::string why;
  for (NodeId candidate : model.computeUnits()) {
    // Matrix units are not candidates for a vector body (no reason given).
    if (model.node(candidate).compute.isMatrix())
      continue;
    why = whyUnitCannotRun(model, candidate, elementType, classes, bodyTypes);
    if (why.empty()) {
      unit = candidate;
      break;
    }
  }
  if (!unit)
    return group.emitError("no compute unit of @")
           << model.name() << " can run this group (" << why << ")";
  const Node &computeNode = model.node(*unit);
  int64_t lanes = *computeNode.compute.lanesFor(elementType);

  MLIRContext *ctx = group.getContext();
  Builder attrs(ctx);
  Location loc = group.getLoc();
  auto channel = ChannelType::get(ctx);
  OpBuilder groupBuilder = OpBuilder::atBlockEnd(&group.getBody().front());
  auto pipeline = PipelineOp::create(groupBuilder, loc, TypeRange{});
  pipeline.getBody().emplaceBlock();
  OpBuilder terminatorBuilder(ctx);
  PipelineOp::ensureTerminator(pipeline.getBody(), terminatorBuilder, loc);
  pipeline->setAttr("level", attrs.getI64IntegerAttr(0));
  pipeline->setAttr("moves", attrs.getStringAttr("vector"));
  Block *block = &pipeline.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(block);

  auto tensorType = [&](StringRef name) -> Type {
    auto tensor = SymbolTable::lookupSymbolIn(kernel, name);
    return cast<TensorOp>(tensor).getElementType();
  };
  SmallVector<Attribute> loadTransfers;
  for (LoadOp load : loads)
    loadTransfers.push_back(transferOf(load, load.getTensorAttr().getAttr(), load.getOriginAttr(),
                                       load.getShapeAttr(), load.getDimsAttr(),
                                       tensorType(load.getTensor())));
  SmallVector<Value> computeInputs(compute.getInputs());
  if (!loads.empty()) {
    auto loadStage = StageOp::create(b, loc, SmallVector<Type>(loads.size(), channel), "load",
                                       ValueRange{});
    loadStage->setAttr("transfers", attrs.getArrayAttr(loadTransfers));
    for (auto [i, load] : llvm::enumerate(loads)) {
      auto fifo = FifoOp::create(b, load.getLoc(), channel, loadStage.getResult(i));
      for (Value &input : computeInputs)
        if (input == load.getResult())
          input = fifo;
    }
  }
  for (ScalarArgOp scalar : scalars) {
    auto moved = ScalarArgOp::create(b, scalar.getLoc(), channel, scalar.getArg(), scalar.getValueType());
    for (Value &input : computeInputs)
      if (input == scalar.getResult())
        input = moved;
  }
  auto computeStage = StageOp::create(b, compute.getLoc(), SmallVector<Type>(compute.getNumResults(), channel),
                                        "compute", computeInputs);
  computeStage.getBody().takeBody(compute.getBody());
  computeStage->setAttr("unit", decide(attrs.getStringAttr(computeNode.name), kHeuristic));
  computeStage->setAttr("vector", decide(attrs.getI64IntegerAttr(lanes), kHeuristic));
  SmallVector<Value> storeInputs;
  SmallVector<Attribute> storeTransfers;
  for (StoreOp store : stores) {
    auto result = cast<OpResult>(store.getValue());
    storeInputs.push_back(FifoOp::create(b, store.getLoc(), channel,
                                           computeStage.getResult(result.getResultNumber())));
    storeTransfers.push_back(transferOf(store, store.getTensorAttr().getAttr(),
                                        store.getOriginAttr(), store.getShapeAttr(),
                                        store.getDimsAttr(), tensorType(store.getTensor())));
  }
  auto storeStage = StageOp::create(b, loc, TypeRange{}, "store", storeInputs);
  storeStage->setAttr("transfers", attrs.getArrayAttr(storeTransfers));

  for (StoreOp store : stores)
    store.erase();
  compute.erase();
  for (LoadOp load : loads)
    load.erase();
  for (ScalarArgOp scalar : scalars)
    scalar.erase();
  return success();
}

namespace {
struct BuildInitialPipelinePass : ktflow::ktsched::impl::BuildInitialPipelineBase<BuildInitialPipelinePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto model = getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>()) {
      std::optional<Placement> placement = findPlacement(*model, kernel.getLoc());
      if (!placement)
        return signalPassFailure();
      // Grid tile t runs on core t mod cores ("linear"): a grid with more
      // tiles than cores runs in rounds, one tile per core at a time.
      Builder b(kernel.getContext());
      if (!arch.empty())
        kernel->setAttr("arch", b.getStringAttr(arch));
      kernel->setAttr("device", b.getStringAttr(model->name()));
      kernel->setAttr("core_of_tile", decide(b.getStringAttr("linear"), kHeuristic));
      for (GroupOp group : kernel.getOps<GroupOp>())
        if (failed(buildGroupPipeline(group, kernel, *model)))
          return signalPassFailure();
    }
  }
};
} // namespace
