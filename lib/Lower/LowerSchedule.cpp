//===- LowerSchedule.cpp - schedule IR to device code ---------------------===//
//
// Strategy. Each compute group of the scheduled kernel is lowered on its
// own into one ktunit.bundle (GroupLowering.h); a group whose grid tiles
// need rounds (more tiles than cores) or classes (partly masked tiles)
// becomes one bundle per round and class. Every bundle then goes through
// the unit passes — ktunit-insert-sync, ktunit-allocate-registers,
// ktunit-check-capacity, ktunit-check-deadlock — and ktunit-emit; the
// programs of consecutive bundles that run on the same unit instance are
// concatenated (MergeGroupPrograms.cpp), which is sound because sync
// insertion drains every semaphore at the end of a bundle. Nothing below
// the schedule decides anything: every choice read here is a recorded
// decision of a scheduling pass, and a missing one is an error.
//
// docs/run.md describes the strategy per construct; docs/unit.md the unit
// IR and its passes.
//
//===----------------------------------------------------------------------===//
#include "GroupLowering.h"
#include "GatherTransfer.h"
#include "MatrixCompute.h"
#include "VectorContraction.h"
#include "TransposeCompute.h"

#include "ktflow/DeviceCode/LaunchTable.h"
#include "ktflow/Lower/MergeGroupPrograms.h"
#include "ktflow/Unit/Emit.h"
#include "ktflow/Unit/Passes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace mlir;
using namespace ktflow;
using namespace ktflow::lower;
using namespace ktflow::lower::detail;

namespace {

/// Fails on a group that loads a tensor an earlier group stores; then adds
/// the group's stored tensors to `stored`.
LogicalResult checkNoReadAfterWrite(ks::GroupOp group, llvm::StringSet<> &stored) {
  auto tensorsOf = [](ks::StageOp stage) {
    SmallVector<StringRef> names;
    if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
      for (Attribute transfer : transfers)
        if (auto dict = llvm::dyn_cast<DictionaryAttr>(transfer))
          if (auto tensor = dict.getAs<FlatSymbolRefAttr>("tensor"))
            names.push_back(tensor.getValue());
    return names;
  };
  WalkResult walk = group.walk([&](ks::StageOp stage) {
    if (stage.getRole() != "dma_load")
      return WalkResult::advance();
    for (StringRef name : tensorsOf(stage))
      if (stored.contains(name)) {
        stage.emitError("this compute group reads @")
            << name << ", which an earlier group writes: ordering groups through "
            << "global memory is not lowered";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  group.walk([&](ks::StageOp stage) {
    if (stage.getRole() == "dma_store")
      for (StringRef name : tensorsOf(stage))
        stored.insert(name);
  });
  return success();
}

} // namespace

namespace {


/// Declares the kernel's symbols, at their final sizes, in every bundle.
void addSymbols(ModuleOp unit, const LoweredKernel &out, const KernelSymbols &symbols) {
  MLIRContext *ctx = unit.getContext();
  for (ktunit::BundleOp bundle : unit.getOps<ktunit::BundleOp>()) {
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&bundle.getBody().front());
    for (auto [i, sym] : llvm::enumerate(out.bundle.symbols))
      ktunit::SymbolOp::create(
          b, bundle.getLoc(), b.getStringAttr(symbols.names[i]), TypeAttr::get(symbols.types[i]),
          b.getDenseI64ArrayAttr(std::vector<int64_t>(sym.shape)),
          b.getI64IntegerAttr(sym.size.count()), sym.isInput ? b.getUnitAttr() : nullptr,
          sym.isOutput ? b.getUnitAttr() : nullptr);
  }
}

/// A bundle with unbound launch values: the synchronisation must hold for
/// every admitted value, so the deadlock check runs with the launch-table
/// entries evaluated at the bounds of the counts they give — no value, the
/// smallest and second-smallest nonzero value, the upperbound and the one
/// below it — each on a copy of the bundle.
LogicalResult checkDeadlockForLaunchValues(ktunit::BundleOp bundle,
                                           const arch::ArchModel &model, int64_t steps) {
  auto unbound = bundle->getAttrOfType<ArrayAttr>("launch_values");
  if (!unbound || unbound.empty())
    return ktunit::checkDeadlock(bundle, model, steps);
  if (unbound.size() != 1)
    return bundle.emitError("more than one unbound launch value: bind all but one with --arg");
  auto dict = cast<DictionaryAttr>(unbound[0]);
  std::string name = dict.getAs<StringAttr>("name").str();
  int64_t granularity = dict.getAs<IntegerAttr>("granularity").getInt();
  int64_t upperbound = dict.getAs<IntegerAttr>("upperbound").getInt();
  std::set<int64_t> values;
  for (int64_t v : {int64_t(0), granularity, 2 * granularity, upperbound - granularity,
                    upperbound}) {
    int64_t admitted = v - v % std::max<int64_t>(granularity, 1);
    if (admitted >= 0 && admitted <= upperbound)
      values.insert(admitted);
  }
  for (int64_t value : values) {
    ktunit::BundleOp copy = cast<ktunit::BundleOp>(bundle->clone());
    llvm::scope_exit erase([&] { copy->erase(); });
    for (ktunit::ProgramOp program : copy.getOps<ktunit::ProgramOp>()) {
      ArrayAttr cells = program.getLaunchCellsAttr();
      if (!cells)
        continue;
      SmallVector<SmallVector<int64_t>> rows = program.getTableRows();
      for (Attribute cell : cells) {
        auto parts = cast<ArrayAttr>(cell);
        llvm::Expected<int64_t> v = dc::evaluateLaunchExpr(
            cast<StringAttr>(parts[2]).getValue(), {{name, value}});
        if (!v)
          return program.emitError(llvm::toString(v.takeError()));
        rows[cast<IntegerAttr>(parts[0]).getInt()][cast<IntegerAttr>(parts[1]).getInt()] = *v;
      }
      SmallVector<int64_t> flat;
      for (const SmallVector<int64_t> &row : rows)
        flat.append(row.begin(), row.end());
      auto type = RankedTensorType::get({int64_t(rows.size()), program.getTableColumns()},
                                        IntegerType::get(program.getContext(), 64));
      program.setTableAttr(DenseIntElementsAttr::get(type, ArrayRef<int64_t>(flat)));
    }
    if (failed(ktunit::checkDeadlock(copy, model, steps))) {
      bundle.emitRemark() << "with " << name << "=" << value;
      return failure();
    }
  }
  return success();
}

/// Runs the unit-IR passes on every bundle of `unit` (each a lowering that
/// runs after the previous one on the units they share) and appends their
/// device code to `out.bundle`, recording where each bundle's programs
/// start.
LogicalResult lowerUnitBundles(ModuleOp unit, const arch::ArchModel &model,
                               const LowerOptions &options, LoweredKernel &out,
                               std::vector<size_t> &groupStarts) {
  if (failed(mlir::verify(unit)))
    return failure();
  for (ktunit::BundleOp bundle : unit.getOps<ktunit::BundleOp>()) {
    if (failed(ktunit::insertSync(bundle, model)))
      return failure();
    for (ktunit::ProgramOp program : bundle.getOps<ktunit::ProgramOp>())
      if (failed(ktunit::allocateRegisters(program, model)) ||
          failed(ktunit::checkCapacity(program, model)))
        return failure();
    if (failed(checkDeadlockForLaunchValues(bundle, model, options.deadlockCheckSteps)))
      return failure();
    FailureOr<dc::Bundle> part = ktunit::emitBundle(bundle);
    if (failed(part))
      return failure();
    groupStarts.push_back(out.bundle.programs.size());
    // Every part carries the kernel's unbound launch values (the same).
    if (out.bundle.launchValues.empty())
      out.bundle.launchValues = part->launchValues;
    for (dc::Program &program : part->programs)
      out.bundle.programs.push_back(std::move(program));
  }
  return success();
}

} // namespace

FailureOr<LoweredKernel> ktflow::lower::lowerScheduleToUnit(ModuleOp module,
                                                            const arch::ArchModel &model,
                                                            const LowerOptions &options) {
  auto kernels = module.getOps<ks::KernelOp>();
  if (std::distance(kernels.begin(), kernels.end()) != 1) {
    module.emitError("expected exactly one scheduled kernel (ktsched.kernel)");
    return failure();
  }
  ks::KernelOp kernel = *kernels.begin();
  LoweredKernel out;
  out.bundle.device = model.name().str();
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<ktunit::KTUnitDialect>();
  out.unit = ModuleOp::create(kernel.getLoc());
  KernelSymbols symbols;
  // One unit bundle per lowering: groups run one after the other, and so do
  // the rounds and classes of one group's grid tiles; every unit instance's
  // programs are concatenated in that order after emission.
  unsigned parts = 0;
  auto newBundle = [&]() {
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(out.unit->getBody());
    auto bundle = ktunit::BundleOp::create(b, kernel.getLoc(),
                                           b.getStringAttr("part" + std::to_string(parts++)),
                                           b.getStringAttr(model.name()));
    bundle.getBody().emplaceBlock();
    return bundle;
  };
  unsigned index = 0;
  llvm::StringSet<> storedByEarlierGroups;
  // Contractions run before the groups (ktsched-form-groups builds them
  // first); that order is only sound when no group reads what a
  // contraction writes and no contraction reads what a group writes.
  auto argOf = [&](Attribute tensor) {
    return (int64_t)cast<ks::TensorOp>(SymbolTable::lookupSymbolIn(
                                  kernel, cast<FlatSymbolRefAttr>(tensor).getValue()))
        .getArg();
  };
  auto checkNotSharedWithGroups = [&](Operation *op, StringRef what,
                                      const std::set<int64_t> &reads,
                                      int64_t writes) -> LogicalResult {
    for (ks::TensorOp tensor : kernel.getBody().getOps<ks::TensorOp>()) {
      bool usedByGroup = false, storedByGroup = false;
      kernel.walk([&](ks::StageOp stage) {
        if (auto transfers = stage->getAttrOfType<ArrayAttr>("transfers"))
          for (Attribute t : transfers)
            if (auto dict = dyn_cast<DictionaryAttr>(t))
              if (auto name = dict.getAs<FlatSymbolRefAttr>("tensor");
                  name && name.getValue() == tensor.getSymName()) {
                usedByGroup = true;
                storedByGroup |= stage.getRole() == "dma_store";
              }
      });
      if ((storedByGroup && reads.count((int64_t)tensor.getArg())) ||
          (usedByGroup && (int64_t)tensor.getArg() == writes))
        return op->emitError("a ") << what << " and a compute group share kernel argument "
                                   << tensor.getArg()
                                   << " through global memory: ordering them is not lowered";
    }
    return success();
  };
  // The contraction schedule chose the matrix or the vector unit.
  auto onVectorUnit = [](ks::ContractionOp op) {
    auto compute = dyn_cast_or_null<StringAttr>(ktflow::lower::detail::decisionValue(op, "compute"));
    return compute && compute.getValue() == "vector";
  };
  for (ks::ContractionOp contraction : kernel.getBody().getOps<ks::ContractionOp>()) {
    std::set<int64_t> reads = {argOf(contraction.getA().get("tensor")),
                               argOf(contraction.getB().get("tensor"))};
    if (failed(checkNotSharedWithGroups(contraction, "contraction", reads,
                                        argOf(contraction.getC().get("tensor")))) ||
        failed(onVectorUnit(contraction)
                   ? lowerVectorContraction(model, kernel, contraction, out, symbols, newBundle)
                   : lowerContraction(model, kernel, contraction, out, symbols, newBundle)))
      return failure();
  }
  // Transposes likewise (ktsched-form-groups builds them after the
  // contractions, before the groups).
  for (ks::TransposeOp transpose : kernel.getBody().getOps<ks::TransposeOp>()) {
    if (failed(checkNotSharedWithGroups(transpose, "transpose",
                                        {argOf(transpose.getSrc().get("tensor"))},
                                        argOf(transpose.getDst().get("tensor")))) ||
        failed(lowerTranspose(model, kernel, transpose, out, symbols, newBundle)))
      return failure();
  }
  // Gathers likewise (built after the transposes).
  for (ks::GatherOp gather : kernel.getBody().getOps<ks::GatherOp>()) {
    if (failed(checkNotSharedWithGroups(gather, "gather",
                                        {argOf(gather.getSrc().get("tensor")),
                                         argOf(gather.getIndex().get("tensor"))},
                                        argOf(gather.getDst().get("tensor")))) ||
        failed(lowerGather(model, kernel, gather, out, symbols, newBundle)))
      return failure();
  }
  for (ks::GroupOp group : kernel.getBody().getOps<ks::GroupOp>()) {
    // A DMA reads its source when it issues, and a store of the previous
    // group may still be in flight then: reading what an earlier group
    // wrote would need a fence between the groups, which is not emitted.
    if (failed(checkNoReadAfterWrite(group, storedByEarlierGroups)))
      return failure();
    ktunit::BundleOp whole = newBundle();
    GroupLowering lowering(model, options, kernel, group, out, whole, symbols);
    lowering.deferStoreChecks = true;
    if (failed(lowering.collect()))
      return failure();
    FailureOr<SmallVector<GroupLowering::CoreClass>> classes = lowering.coreClasses();
    if (failed(classes))
      return failure();
    int64_t gridTiles = lowering.coreIds.size(), cores = std::max<int64_t>(lowering.cores, 1);
    // One round of unmasked tiles is lowered as is; a class that is partly
    // masked (even when it is every tile: a grid of one tile whose rows the
    // tensor does not fill) is lowered over its valid extent below.
    if (gridTiles <= cores && classes->size() == 1 &&
        (int64_t)classes->front().cores.size() == gridTiles &&
        llvm::equal(classes->front().space, group.getSpace())) {
      if (failed(lowering.checkStores()))
        return failure();
      if (failed(lowering.emit(index++)))
        return failure();
      continue;
    }
    // More grid tiles than cores run in rounds (tile t on core t mod
    // cores); partly or fully masked grid tiles form classes of their own.
    // One lowering per round and class; their programs run one after the
    // other where they share a unit instance.
    whole.erase();
    for (int64_t first = 0; first < gridTiles; first += cores)
      for (const GroupLowering::CoreClass &cls : *classes) {
        GroupLowering::CoreClass part{{}, cls.space, cls.shares, first};
        for (int64_t c : cls.cores)
          if (c >= first && c < first + cores)
            part.cores.push_back(c);
        if (part.cores.empty())
          continue;
        GroupLowering lowerPart(model, options, kernel, group, out, newBundle(), symbols);
        lowerPart.restrictTo(part);
        if (failed(lowerPart.collect()) || failed(lowerPart.emit(index++)))
          return failure();
      }
  }
  addSymbols(*out.unit, out, symbols);
  return out;
}

FailureOr<LoweredKernel> ktflow::lower::lowerSchedule(ModuleOp module,
                                                      const arch::ArchModel &model,
                                                      const LowerOptions &options) {
  FailureOr<LoweredKernel> unit = lowerScheduleToUnit(module, model, options);
  if (failed(unit))
    return failure();
  LoweredKernel &out = *unit;
  // The unit passes run on a copy: `out.unit` stays the lowering's own
  // output (channels, virtual registers), what `--emit=unit` shows and the
  // unit passes' lit tests start from.
  std::vector<size_t> groupStarts;
  OwningOpRef<ModuleOp> working = cast<ModuleOp>(out.unit->getOperation()->clone());
  if (failed(lowerUnitBundles(*working, model, options, out, groupStarts)))
    return failure();
  mergeGroupPrograms(out.bundle, groupStarts, model);
  if (llvm::Error err = dc::verifyBundle(out.bundle, "lowered kernel")) {
    emitError(out.unit->getLoc()) << llvm::toString(std::move(err));
    return failure();
  }
  return std::move(out);
}
