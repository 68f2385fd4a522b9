//===- ArchAccess.h - the architecture model a pass works with --*- C++ -*-===//
#ifndef KTFLOW_SCHEDULE_ARCHACCESS_H
#define KTFLOW_SCHEDULE_ARCHACCESS_H

#include "ktflow/Arch/ArchModel.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace ktflow::ktsched {

/// The model for `module`: from `option` (a name or file) when set, else a
/// ktarch.device embedded in the module, else the `arch` attribute the
/// initial pipeline left on a kernel. Emits a located error and returns
/// null when there is none or it is broken.
std::shared_ptr<const arch::ArchModel> getArchModel(mlir::ModuleOp module,
                                                    llvm::StringRef option);

/// Facts about the units a schedule runs on, derived from the model alone.
struct Placement {
  /// The memory backing global tensors and the scratchpad (ct_local).
  arch::NodeId global = 0, scratchpad = 0;
  /// The group whose instances are the cores (the scratchpad's group).
  arch::GroupId core = arch::kDeviceGroup;
  int64_t cores = 1;
};
/// Finds the global memory, the scratchpad and the cores, or emits at `loc`.
std::optional<Placement> findPlacement(const arch::ArchModel &model, mlir::Location loc);

/// A pass's target: the model for `module` (getArchModel) and its
/// placement (findPlacement, located at the module), or failure after
/// either emitted its error.
mlir::LogicalResult loadTarget(mlir::ModuleOp module, llvm::StringRef option,
                               std::shared_ptr<const arch::ArchModel> &model,
                               std::optional<Placement> &placement);

/// How the DMA reaches the scratchpad from global memory: one mover, or
/// two through a staging memory between them (deep's L2), the same
/// movers on the way back.
struct ScratchpadPath {
  unsigned movers = 1;
  std::optional<arch::NodeId> staging;
};
/// The path, or std::nullopt when global memory and the scratchpad are
/// connected neither way.
std::optional<ScratchpadPath> findScratchpadPath(const arch::ArchModel &model,
                                                 const Placement &placement);

/// The access rule to global memory of the unit a stage is bound to (its
/// `unit` decision: a DMA's loads or stores), or null where the stage has
/// no unit, the model no such unit or global memory, or the unit no rule.
const arch::AccessRule *globalAccessRule(mlir::Operation *stage, const arch::ArchModel &model);

/// Transfers in and out of `memory` move whole granules: the largest
/// granule of the links touching it.
Bytes memoryGranule(const arch::ArchModel &model, arch::NodeId memory);
/// Alignment of buffers in `memory`: its own and that of every access rule.
Bytes memoryAlignment(const arch::ArchModel &model, arch::NodeId memory);
/// Instances of `unit` (sub-cores) that share one instance of `memory`.
int64_t sharersOf(const arch::ArchModel &model, arch::NodeId memory, arch::NodeId unit);

/// Op classes a compute body (the region of a compute op or stage) needs
/// from its unit: the kinds of its vops, constants excepted.
llvm::SmallVector<llvm::StringRef> requiredOpClasses(mlir::Region &body);
/// Element types the values of a compute body hold (its vops' results and
/// operands), each once: every one needs lanes on the unit that runs it.
llvm::SmallVector<mlir::Type> bodyElementTypes(mlir::Region &body);
/// Why `unit` cannot run a compute body over `elementType` that needs
/// `classes` (and lanes for `bodyTypes`), or "" when it can: it is not a
/// compute unit, it is a matrix unit, it has no lanes for a type, or it
/// lacks an op class.
std::string whyUnitCannotRun(const arch::ArchModel &model, arch::NodeId unit,
                             mlir::Type elementType, llvm::ArrayRef<llvm::StringRef> classes,
                             llvm::ArrayRef<mlir::Type> bodyTypes = {});

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_ARCHACCESS_H
