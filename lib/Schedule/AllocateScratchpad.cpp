//===- AllocateScratchpad.cpp - addresses for every buffer ----------------===//
//
// Strategy: groups run one after another on a core, so a group's buffers
// are live only while it runs: every group allocates from address 0 of each
// memory again (liveness-based reuse across groups). Within a group all
// buffers are live together (the pipeline stages run concurrently), so
// they are laid out one after another, each copy aligned to the memory's
// alignment and its access rules. The sub-core instances sharing a memory
// instance each get their own copy of the group's layout, `instance_stride`
// bytes apart. A buffer of several rows that are not whole vectors gets a
// `row_pitch` (whole vectors per row, in whole granules of the memory):
// each row starts on a vector boundary, where the load and store units
// can address it; where padding would need a DMA stride the description
// forbids, the buffer takes dense rows instead (`row_layout`, RowLayout.cpp),
// sized for one run and the vector its realignment holds ahead. Addresses
// grow up from 0; the reserved bytes of a memory
// are the top `reserved` bytes of its capacity. A group whose layout times
// its sharers exceeds the usable capacity gets a diagnostic with the sizes.
// A group of several phases (`phases`) reads the tile's rows once per
// phase: the buffers its load or compute stage reads get the decision
// `phase_residency = resident` (the slot stays filled while every phase
// drains it, so global memory is read once); it holds whenever the layout
// fits, which this pass checks. A streamed group (SelectTiles.cpp) gets
// `phase_residency = streamed`: its slots hold `stream_columns` of a row,
// filled again for every phase. Such a group's `phase_values` (per-phase
// results of a row carried in registers, through a scratchpad slot, or
// recomputed: PhaseValues.cpp) is decided here too, once its tile and so
// its row is known; the scratchpad form's slot (one row of each carried
// value per sub-core instance, `phase_scratch_address`) is laid out after
// the buffers, and where it does not fit the group recomputes.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "ktflow/Schedule/Budget.h"
#include "ktflow/Schedule/HoistLoads.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Schedule/PhaseValues.h"
#include "ktflow/Schedule/RowLayout.h"
#include "ktflow/Schedule/ScheduleUtils.h"

namespace ktflow::ktsched {
#define GEN_PASS_DEF_ALLOCATESCRATCHPAD
#include "ktflow/Schedule/Passes.h.inc"
} // namespace ktflow::ktsched

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;
using namespace ktflow::ktsched;

static LogicalResult allocateGroup(GroupOp group, const ArchModel &model) {
  std::optional<NodeId> unit = boundComputeUnit(group, model);
  if (!unit)
    return group.emitError("group has no compute stage bound to a unit");
  // A streamed group's slots hold `stream_columns` of its row.
  SmallVector<int64_t> tile = slotTile(group);
  Builder b(group.getContext());
  // Next free byte per memory.
  llvm::SmallDenseMap<NodeId, Bytes> next;
  SmallVector<std::pair<BufferOp, NodeId>> placed;
  // A column block's rows take a strided span only where the group's
  // buffers fit with it (tile selection budgeted the same way).
  bool spansFit = stridedSpansFit(group, tile, model);
  for (BufferOp buffer : groupBuffers(group)) {
    auto memoryName = buffer->getAttrOfType<StringAttr>("memory");
    std::optional<NodeId> memory = memoryName ? model.lookupNode(memoryName) : std::nullopt;
    if (!memory)
      return buffer.emitError("buffer in an unknown memory");
    std::optional<int64_t> depth = decisionInt(buffer, "depth");
    if (!depth || *depth < 1)
      return buffer.emitError("buffer without a depth of at least 1");
    Bytes alignment = memoryAlignment(model, *memory);
    Bytes granule = memoryGranule(model, *memory);
    Bytes copy = bufferBytes(buffer, tile, granule).alignTo(alignment);
    // Rows that are not whole vectors each start on a vector boundary: the
    // slot's rows are padded (bufferBytes counts the padding), unless the
    // padded rows' DMA stride is forbidden: then they stay dense.
    buffer->removeAttr("row_pitch");
    buffer->removeAttr(kRowLayout);
    if (needsDenseRows(buffer, tile, model, spansFit)) {
      buffer->setAttr(kRowLayout, decide(b.getStringAttr(kDenseRows), kHeuristic));
      copy = denseRowsBytes(buffer, tile, model, granule).alignTo(alignment);
    } else if (std::optional<Bytes> pitch = paddedRowPitch(buffer, tile, granule)) {
      buffer->setAttr("row_pitch", decide(b.getI64IntegerAttr(pitch->count()), kHeuristic));
    }
    Bytes address = next[*memory].alignTo(alignment);
    buffer->setAttr("bytes", b.getI64IntegerAttr(copy.count()));
    buffer->setAttr("address", decide(b.getI64IntegerAttr(address.count()), kHeuristic));
    // A hoisted load's buffer takes slot 0 only (HoistLoads.h).
    next[*memory] = address + copy * bufferSlots(buffer, tile, *depth);
    placed.push_back({buffer, *memory});
  }
  // What later phases do with earlier phases' per-vector values: decided
  // here, once the row is known; the scratchpad form takes a slot after the
  // buffers, in the memory the load unit reads, and falls back to
  // recomputing where that slot does not fit (a replayed one is diagnosed).
  group->removeAttr(kPhaseScratchAddress);
  group->removeAttr(kPhaseScratchBytes);
  group->removeAttr(kPhaseScratchValues);
  decidePhaseValues(group, model);
  if (auto values = group->getAttrOfType<DecisionAttr>(kPhaseValues)) {
    auto value = llvm::dyn_cast<StringAttr>(values.getValue());
    if (value && value.getValue() == kPhaseValuesInScratchpad) {
      FailureOr<ScratchpadForm> form =
          scratchpadForm(group, model, /*forced=*/values.getSource() == kPlan);
      std::optional<NodeId> memory;
      for (auto &[buffer, m] : placed)
        for (Operation *user : buffer->getUsers())
          if (auto stage = dyn_cast<StageOp>(user); stage && stage.getRole() == "load")
            memory = m;
      if (failed(form) || !memory)
        return group.emitError("group @")
               << group.getSymName()
               << ": phase_values = scratchpad needs a resident row (not residency = streamed), "
                  "a load unit reading it (one scratchpad level) and per-vector values some "
                  "later phase reads, written before any is read";
      Bytes alignment = memoryAlignment(model, *memory);
      Bytes address = next[*memory].alignTo(alignment);
      Bytes end = address + Bytes(form->bytes).alignTo(alignment);
      const MemoryInfo &info = model.node(*memory).memory;
      bool fits = end.alignTo(alignment) * sharersOf(model, *memory, *unit) <= info.usable();
      if (!fits && values.getSource() != kPlan) {
        group->setAttr(kPhaseValues,
                       decide(b.getStringAttr(kPhaseValuesRecomputed), kHeuristic));
      } else {
        group->setAttr(kPhaseScratchAddress,
                       decide(b.getI64IntegerAttr(address.count()), kHeuristic));
        group->setAttr(kPhaseScratchBytes, b.getI64IntegerAttr(form->bytes));
        group->setAttr(kPhaseScratchValues, b.getDenseI64ArrayAttr(form->ops));
        next[*memory] = end;
      }
    }
  }
  for (auto &[memory, end] : next) {
    const MemoryInfo &info = model.node(memory).memory;
    Bytes stride = end.alignTo(memoryAlignment(model, memory));
    int64_t sharers = sharersOf(model, memory, *unit);
    if (stride * sharers > info.usable()) {
      SmallVector<int64_t> depths;
      return group.emitError("group @")
             << group.getSymName() << " does not fit @" << model.node(memory).name << ": "
             << stride.count() << " bytes of buffers per sub-core x " << sharers
             << " sub-cores = " << (stride * sharers).count() << " bytes, but only "
             << info.usable().count() << " of " << info.capacity.count()
             << " bytes are usable (" << info.reserved.count() << " reserved)";
    }
    for (auto &[buffer, m] : placed)
      if (m == memory)
        buffer->setAttr("instance_stride", b.getI64IntegerAttr(stride.count()));
  }
  if (group->hasAttr("phases"))
    for (auto &[buffer, memory] : placed) {
      bool readByPhases = llvm::any_of(buffer->getUsers(), [](Operation *user) {
        auto stage = dyn_cast<StageOp>(user);
        return stage && (stage.getRole() == "load" || stage.getRole() == "compute");
      });
      if (readByPhases)
        buffer->setAttr("phase_residency",
                        decide(b.getStringAttr(streamColumns(group) ? kStreamed : kResident),
                               kHeuristic));
    }
  if (streamColumns(group))
    if (auto values = group->getAttrOfType<DecisionAttr>(kPhaseValues)) {
      auto value = llvm::dyn_cast<StringAttr>(values.getValue());
      if (value && value.getValue() != kPhaseValuesRecomputed)
        return group.emitError("group @")
               << group.getSymName() << ": phase_values = " << value.getValue()
               << " is not lowered for a streamed row "
                  "(residency = streamed): its vectors are not all in registers or "
                  "scratchpad at once";
    }
  return success();
}

namespace {
struct AllocateScratchpadPass : ktflow::ktsched::impl::AllocateScratchpadBase<AllocateScratchpadPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto model = getArchModel(module, arch);
    if (!model)
      return signalPassFailure();
    for (KernelOp kernel : module.getOps<KernelOp>())
      for (GroupOp group : kernel.getOps<GroupOp>())
        if (failed(allocateGroup(group, *model)))
          return signalPassFailure();
  }
};
} // namespace
