//===- Budget.cpp - what a group's buffers need of each memory ------------===//
//
// Sizes are recomputed from the decisions in the IR every time (tile,
// depth), never cached, so a decision replaced by a plan is checked with the
// same arithmetic as a heuristic one. A memory's budget per sub-core is its
// usable capacity (capacity minus reserve) divided among the sub-core
// instances that share one instance of it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/Budget.h"

#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/ScheduleUtils.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

std::optional<NodeId> ktflow::ktsched::boundComputeUnit(GroupOp group, const ArchModel &model) {
  StageOp compute = computeStage(group);
  if (!compute)
    return std::nullopt;
  auto name = dyn_cast_or_null<StringAttr>(decisionValue(compute, "unit"));
  if (!name)
    return std::nullopt;
  std::optional<NodeId> unit = model.lookupNode(name);
  if (!unit || !model.node(*unit).isCompute())
    return std::nullopt;
  return unit;
}

FailureOr<SmallVector<MemoryUse>> ktflow::ktsched::memoryUse(GroupOp group,
                                                             ArrayRef<int64_t> tile,
                                                             const ArchModel &model,
                                                             int64_t defaultDepth) {
  std::optional<NodeId> unit = boundComputeUnit(group, model);
  if (!unit)
    return group.emitError("group has no compute stage bound to a unit of @") << model.name();
  SmallVector<MemoryUse> uses;
  for (BufferOp buffer : groupBuffers(group)) {
    auto memoryName = buffer->getAttrOfType<StringAttr>("memory");
    std::optional<NodeId> memory = memoryName ? model.lookupNode(memoryName) : std::nullopt;
    if (!memory || !model.node(*memory).isMemory())
      return buffer.emitError("buffer in a memory @") << memoryName << " that @" << model.name()
                                                      << " lacks";
    auto it = llvm::find_if(uses, [&](const MemoryUse &u) { return u.memory == *memory; });
    if (it == uses.end()) {
      MemoryUse use;
      use.memory = *memory;
      use.sharers = sharersOf(model, *memory, *unit);
      use.budget = Bytes(model.node(*memory).memory.usable().count() / use.sharers);
      uses.push_back(use);
      it = std::prev(uses.end());
    }
    int64_t depth = decisionInt(buffer, "depth").value_or(defaultDepth);
    Bytes copy = bufferBytes(buffer, tile, memoryGranule(model, *memory))
                     .alignTo(memoryAlignment(model, *memory));
    it->need += copy * depth;
  }
  return uses;
}
