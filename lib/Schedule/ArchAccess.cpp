//===- ArchAccess.cpp - the architecture model a pass works with ----------===//
//
// Passes never name hardware; they ask the model. This file finds the model
// for a module (pass option, embedded description, or the name recorded on
// the kernel by the initial pipeline) and derives the few placement facts
// every pass shares: which memory holds global tensors, which is the
// scratchpad, and which group's instances are the cores.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/ArchAccess.h"
#include "mlir/IR/TypeUtilities.h"

#include "ktflow/Arch/KTArchOps.h"
#include "ktflow/Schedule/KTSched.h"

using namespace mlir;
using namespace ktflow;
using namespace ktflow::arch;

std::shared_ptr<const ArchModel> ktflow::ktsched::getArchModel(ModuleOp module,
                                                               StringRef option) {
  std::string name = option.str();
  if (name.empty()) {
    ktarch::DeviceOp embedded;
    module.walk([&](ktarch::DeviceOp device) {
      embedded = device;
      return WalkResult::interrupt();
    });
    if (embedded) {
      std::unique_ptr<ArchModel> model = ArchModel::build(embedded);
      return std::shared_ptr<const ArchModel>(std::move(model));
    }
    module.walk([&](KernelOp kernel) {
      if (auto arch = kernel->getAttrOfType<StringAttr>("arch"))
        name = arch.str();
    });
  }
  if (name.empty()) {
    emitError(module.getLoc(), "no architecture description: pass arch=NAME|FILE or "
                               "embed a ktarch.device in the module");
    return nullptr;
  }
  std::string error;
  auto model = ArchModel::load(*module.getContext(), name, error);
  if (!model && !error.empty())
    emitError(module.getLoc(), "architecture '") << name << "': " << error;
  return model;
}

std::optional<ktflow::ktsched::Placement>
ktflow::ktsched::findPlacement(const ArchModel &model, Location loc) {
  auto globals = model.memoriesBacking(KtirSpace::Global);
  auto locals = model.memoriesBacking(KtirSpace::CtLocal);
  if (globals.empty() || locals.empty()) {
    emitError(loc, "architecture @") << model.name()
                                     << " needs memories backing global and ct_local";
    return std::nullopt;
  }
  Placement placement;
  placement.global = globals.front();
  placement.scratchpad = locals.front();
  placement.core = model.node(placement.scratchpad).group;
  placement.cores = model.instanceCount(placement.core);
  return placement;
}

std::optional<ktflow::ktsched::ScratchpadPath>
ktflow::ktsched::findScratchpadPath(const ArchModel &model, const Placement &placement) {
  NodeId spad = placement.scratchpad;
  std::optional<Route> in = model.routeFrom(placement.global, NodeInstance{spad, 0});
  std::optional<Route> out = model.routeTo(NodeInstance{spad, 0}, placement.global);
  if (!in || !out)
    return std::nullopt;
  size_t movers = model.unitsOn(*in).size();
  if (model.unitsOn(*out).size() != movers)
    return std::nullopt;
  if (movers == 1)
    return ScratchpadPath{1, std::nullopt};
  if (movers != 2)
    return std::nullopt;
  for (NodeId memory : model.memories()) {
    std::optional<Route> first = model.routeFrom(placement.global, NodeInstance{memory, 0});
    std::optional<Route> second = model.routeFrom(memory, NodeInstance{spad, 0});
    if (memory != spad && memory != placement.global && first && second &&
        model.unitsOn(*first).size() == 1 && model.unitsOn(*second).size() == 1 &&
        model.unitsOn(*first).front() == model.unitsOn(*in).front())
      return ScratchpadPath{2, memory};
  }
  return std::nullopt;
}

Bytes ktflow::ktsched::memoryGranule(const ArchModel &model, NodeId memory) {
  Bytes granule(1);
  for (LinkId link : model.outLinks(memory))
    granule = std::max(granule, model.link(link).granule);
  for (LinkId link : model.inLinks(memory))
    granule = std::max(granule, model.link(link).granule);
  return granule;
}

Bytes ktflow::ktsched::memoryAlignment(const ArchModel &model, NodeId memory) {
  Bytes alignment = std::max(Bytes(1), model.node(memory).memory.alignment);
  for (const Node &node : model.nodes())
    if (const AccessRule *rule = node.accessTo(memory))
      alignment = std::max(alignment, rule->alignment);
  return alignment;
}

int64_t ktflow::ktsched::sharersOf(const ArchModel &model, NodeId memory, NodeId unit) {
  return std::max<int64_t>(1, model.unitsPerMemoryInstance(memory, unit));
}

SmallVector<StringRef> ktflow::ktsched::requiredOpClasses(Region &body) {
  SmallVector<StringRef> classes;
  body.walk([&](VectorOp op) {
    StringRef kind = op.getKind();
    if (kind != "const" && !llvm::is_contained(classes, kind))
      classes.push_back(kind);
  });
  return classes;
}

SmallVector<Type> ktflow::ktsched::bodyElementTypes(Region &body) {
  SmallVector<Type> types;
  body.walk([&](VectorOp op) {
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
      Type t = mlir::getElementTypeOrSelf(v.getType());
      if (!llvm::is_contained(types, t))
        types.push_back(t);
    }
  });
  return types;
}

std::string ktflow::ktsched::whyUnitCannotRun(const ArchModel &model, NodeId unit,
                                              Type elementType, ArrayRef<StringRef> classes,
                                              ArrayRef<Type> bodyTypes) {
  const Node &node = model.node(unit);
  std::string why;
  llvm::raw_string_ostream os(why);
  if (!node.isCompute())
    os << "@" << node.name << " is not a compute unit";
  else if (node.compute.isMatrix())
    os << "@" << node.name << " is a matrix unit";
  else if (!node.compute.lanesFor(elementType))
    os << "@" << node.name << " has no lanes for " << elementType;
  else if (auto lacking = llvm::find_if(
               bodyTypes, [&](Type t) { return !node.compute.lanesFor(t).has_value(); });
           lacking != bodyTypes.end())
    os << "@" << node.name << " has no lanes for " << *lacking;
  else if (auto missing = llvm::find_if(
               classes, [&](StringRef c) { return !node.compute.issueCost(c).has_value(); });
           missing != classes.end())
    os << "@" << node.name << " lacks op class '" << *missing << "'";
  return why;
}

const arch::AccessRule *ktflow::ktsched::globalAccessRule(mlir::Operation *stage,
                                                          const arch::ArchModel &model) {
  auto unitName = llvm::dyn_cast_or_null<mlir::StringAttr>(decisionValue(stage, "unit"));
  std::optional<arch::NodeId> unit =
      unitName ? model.lookupNode(unitName.getValue()) : std::nullopt;
  auto globals = model.memoriesBacking(arch::KtirSpace::Global);
  if (!unit || globals.empty())
    return nullptr;
  return model.node(*unit).accessTo(globals.front());
}

mlir::LogicalResult ktflow::ktsched::loadTarget(mlir::ModuleOp module, llvm::StringRef option,
                                                std::shared_ptr<const arch::ArchModel> &model,
                                                std::optional<Placement> &placement) {
  model = getArchModel(module, option);
  if (!model)
    return mlir::failure();
  placement = findPlacement(*model, module.getLoc());
  return mlir::success(placement.has_value());
}
