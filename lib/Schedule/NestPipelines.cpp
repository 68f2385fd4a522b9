//===- NestPipelines.cpp - one pipeline per memory level ------------------===//
//
// Strategy: path expansion left a flat pipeline whose stages and channels
// carry `level`, the number of memory levels between them and global
// memory. Nesting works one level at a time: everything deeper than the
// current pipeline's level moves into a `nested` stage whose region holds
// an inner pipeline at the next level; the buffers at the boundary stay
// outside (they are what the outer pipeline fills and drains) and become
// the nested stage's inputs and results. Recursing until nothing is deeper
// gives, on sample and spyre, an outer pipeline moving a tile between
// global memory and scratchpad around an inner one moving a vector at a
// time; on deep, three levels.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/ScheduleUtils.h"

#include "llvm/ADT/SetVector.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_NESTPIPELINES
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::ktsched;

static int64_t levelOf(Operation *op) {
  if (auto level = op->getAttrOfType<IntegerAttr>("level"))
    return level.getInt();
  return 0;
}

static LogicalResult nest(PipelineOp pipeline, int64_t level) {
  Block &block = pipeline.getBody().front();
  SmallVector<Operation *> moved;
  for (Operation &op : block.without_terminator())
    if (levelOf(&op) > level)
      moved.push_back(&op);
  Builder attrs(pipeline.getContext());
  if (moved.empty()) {
    pipeline->setAttr("moves", attrs.getStringAttr("vector"));
    return success();
  }
  pipeline->setAttr("moves", attrs.getStringAttr("tile"));
  llvm::SmallPtrSet<Operation *, 16> movedSet(moved.begin(), moved.end());
  llvm::SetVector<Value> inputs, outputs;
  for (Operation *op : moved) {
    op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == &block && !movedSet.contains(def))
          inputs.insert(operand);
    });
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!movedSet.contains(block.findAncestorOpInBlock(*user)))
          outputs.insert(result);
  }
  auto channel = ChannelType::get(pipeline.getContext());
  // After every input's definition: the boundary buffers of the load side.
  Operation *insertBefore = moved.front();
  for (Value input : inputs) {
    Operation *def = input.getDefiningOp();
    if (insertBefore->isBeforeInBlock(def))
      insertBefore = def->getNextNode();
  }
  OpBuilder b(insertBefore);
  Location loc = moved.front()->getLoc();
  auto stage = StageOp::create(b, loc, SmallVector<Type>(outputs.size(), channel), "nested",
                                 inputs.getArrayRef());
  stage->setAttr("level", attrs.getI64IntegerAttr(level));
  Block *stageBlock = &stage.getBody().emplaceBlock();
  OpBuilder sb = OpBuilder::atBlockEnd(stageBlock);
  auto inner = PipelineOp::create(sb, loc, SmallVector<Type>(outputs.size(), channel));
  inner->setAttr("level", attrs.getI64IntegerAttr(level + 1));
  Block *innerBlock = &inner.getBody().emplaceBlock();
  YieldOp::create(sb, loc, inner.getResults());
  for (Operation *op : moved)
    op->moveBefore(innerBlock, innerBlock->end());
  OpBuilder innerEnd = OpBuilder::atBlockEnd(innerBlock);
  YieldOp::create(innerEnd, loc, outputs.getArrayRef());
  for (auto [i, output] : llvm::enumerate(outputs))
    Value(output).replaceUsesWithIf(stage.getResult(i), [&](OpOperand &use) {
      return !stage->isAncestor(use.getOwner());
    });
  return nest(inner, level + 1);
}

namespace {
struct NestPipelinesPass : ktflow::ktsched::impl::NestPipelinesBase<NestPipelinesPass> {
  using Base::Base;
  void runOnOperation() override {
    for (KernelOp kernel : getOperation().getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>()) {
        PipelineOp pipeline = outerPipeline(group);
        // Path expansion gives every stage its `level`; the initial
        // pipeline's logical stages have none and would pass as one level.
        StageOp compute = pipeline ? computeStage(group) : StageOp();
        if (!compute || !compute->hasAttr("level")) {
          group.emitError("expected an expanded pipeline")
              << (compute ? " (run -ktsched-expand-paths first)" : "");
          return signalPassFailure();
        }
        if (failed(nest(pipeline, 0)))
          return signalPassFailure();
      }
  }
};
} // namespace
