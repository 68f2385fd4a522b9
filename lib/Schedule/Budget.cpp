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
#include "ktflow/Schedule/HoistLoads.h"
#include "ktflow/Schedule/RowLayout.h"

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

/// The buffers' use of each memory, strided spans at their size where
/// `allowSpans`.
static FailureOr<SmallVector<MemoryUse>> usesWith(GroupOp group, ArrayRef<int64_t> tile,
                                                  const ArchModel &model, int64_t defaultDepth,
                                                  bool allowSpans) {
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
    Bytes granule = memoryGranule(model, *memory);
    Bytes copy = bufferBytes(buffer, tile, granule);
    // Dense rows take what allocation gives them: a column block's strided
    // span holds the gaps between its rows too, more than padded rows.
    bool span = allowSpans && isStridedSpan(buffer, tile) && needsDenseRows(buffer, tile, model);
    if (span)
      copy = std::max(copy, denseRowsBytes(buffer, tile, model, granule));
    copy = copy.alignTo(memoryAlignment(model, *memory));
    // A hoisted load's buffer keeps its one copy in slot 0.
    it->need += copy * bufferSlots(buffer, tile, depth);
  }
  return uses;
}

FailureOr<SmallVector<MemoryUse>> ktflow::ktsched::memoryUse(GroupOp group, ArrayRef<int64_t> tile,
                                                             const ArchModel &model,
                                                             int64_t defaultDepth,
                                                             bool allowSpans) {
  FailureOr<SmallVector<MemoryUse>> uses = usesWith(group, tile, model, defaultDepth, allowSpans);
  if (succeeded(uses) && allowSpans &&
      llvm::any_of(*uses, [](const MemoryUse &u) { return u.need > u.budget; }))
    return usesWith(group, tile, model, defaultDepth, /*allowSpans=*/false);
  return uses;
}

bool ktflow::ktsched::stridedSpansFit(GroupOp group, ArrayRef<int64_t> tile,
                                      const ArchModel &model) {
  FailureOr<SmallVector<MemoryUse>> uses = usesWith(group, tile, model, 1, /*allowSpans=*/true);
  return succeeded(uses) &&
         llvm::none_of(*uses, [](const MemoryUse &u) { return u.need > u.budget; });
}
