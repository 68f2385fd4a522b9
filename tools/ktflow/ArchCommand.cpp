//===- ArchCommand.cpp - `ktflow arch show|check NAME|FILE` ---------------===//
//
// `check` loads a description (which parses, verifies and models it) and
// reports problems with locations, exit status 1 on any. `show` prints what
// the compiler reads from it: the hierarchy with instance counts, the links,
// the route from each global or scratchpad memory to each compute unit and
// back (for the first instance of the unit), and the peak throughput of each
// resource the roofline charges.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/InitAll.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;
using namespace ktflow::arch;
namespace cl = llvm::cl;

static cl::SubCommand archCmd("arch", "Show or check an architecture description");
static cl::opt<std::string> archAction(cl::Positional, cl::Required,
                                       cl::desc("<show|check>"), cl::sub(archCmd));
static cl::opt<std::string> archTarget(cl::Positional, cl::Required,
                                       cl::desc("<NAME|FILE>"), cl::sub(archCmd));

static void printAccess(const ArchModel &model, const Node &node, llvm::raw_ostream &os) {
  bool first = node.isMover();
  for (const AccessRule &rule : node.access) {
    os << (first ? " " : "; ") << "access @" << model.node(rule.memory).name << " sizes "
       << rule.minSize.count() << ".." << rule.maxSize.count() << " step "
       << rule.sizeMultiple.count() << " B, align " << rule.alignment.count() << " B";
    first = false;
  }
}

static void printNode(const ArchModel &model, const Node &node, unsigned indent,
                      llvm::raw_ostream &os) {
  os.indent(indent) << nodeKindName(node.kind) << " @" << node.name;
  if (node.isMemory()) {
    const MemoryInfo &m = node.memory;
    os << ": capacity " << m.capacity.count() << " B (usable " << m.usable().count()
       << " B), align " << m.alignment.count() << " B";
    for (KtirSpace space : m.spaces)
      os << ", backs " << ktirSpaceName(space);
    if (m.bandwidth)
      os << ", port " << m.bandwidth->bytesPerCycle << " B/cycle";
  } else if (node.isCompute()) {
    const ComputeInfo &c = node.compute;
    os << ":";
    if (c.matrixShape)
      os << " matrix " << (*c.matrixShape)[0] << "x" << (*c.matrixShape)[1] << ",";
    os << " lanes";
    for (const auto &[type, lanes] : c.lanes)
      os << " " << type << "=" << lanes;
    os << "; issue cycles";
    for (const auto &[opClass, cost] : c.opCosts)
      os << " " << opClass << "=" << cost.count();
  } else {
    os << ":";
  }
  printAccess(model, node, os);
  if (!node.isMemory()) {
    os << (node.isMover() && node.access.empty() ? " " : "; ") << "semaphores "
       << node.semaphores;
    if (node.vectorRegisters > 0)
      os << ", vector registers " << node.vectorRegisters;
  }
  os << "\n";
}

static void printGroup(const ArchModel &model, GroupId group, unsigned indent,
                       llvm::raw_ostream &os) {
  const Group &g = model.group(group);
  if (group == kDeviceGroup)
    os.indent(indent) << "device @" << g.name << ": clock " << model.clockMhz()
                      << " MHz\n";
  else
    os.indent(indent) << "group @" << g.name << " count " << g.count << " ("
                      << model.instanceCount(group) << " on the device)\n";
  for (const Node &node : model.nodes())
    if (node.group == group)
      printNode(model, node, indent + 2, os);
  for (GroupId child = 0; child < model.groups().size(); ++child)
    if (model.group(child).parent == group)
      printGroup(model, child, indent + 2, os);
}

static void printLink(const ArchModel &model, LinkId id, llvm::raw_ostream &os) {
  const Link &link = model.link(id);
  os << "  @" << link.name << ": @" << model.node(link.from).name << " -> @"
     << model.node(link.to).name << ", " << link.bandwidth.bytesPerCycle
     << " B/cycle, latency " << link.latency.count() << ", granule "
     << link.granule.count() << " B";
  if (link.fifoDepth)
    os << ", fifo depth " << *link.fifoDepth;
  os << "; " << model.instanceCount(link.scope) << " instance(s), "
     << model.linkUsers(id) << " user(s) each\n";
}

static void printRoute(const ArchModel &model, const std::optional<Route> &route,
                       llvm::StringRef from, llvm::StringRef to, llvm::raw_ostream &os) {
  os << "  " << from << " -> " << to << ": ";
  if (!route) {
    os << "no route\n";
    return;
  }
  os << "hops " << route->hops.size() << ", cost " << route->cost.count() << " cycles\n";
  for (const Hop &hop : route->hops) {
    const Link &link = model.link(hop.link.link);
    os << "    " << model.instanceName(hop.from) << " -> " << model.instanceName(hop.to)
       << " via @" << link.name << " (" << link.bandwidth.bytesPerCycle
       << " B/cycle, latency " << link.latency.count() << ")\n";
  }
}

static void printResources(const ArchModel &model, llvm::raw_ostream &os) {
  for (const Resource &resource : model.resources()) {
    int64_t instances = model.instanceCount(resource.scope);
    os << "  " << model.resourceName(resource) << ": ";
    if (resource.kind == Resource::Kind::Compute) {
      const ComputeInfo &c = model.node(resource.id).compute;
      llvm::StringRef unit = c.isMatrix() ? "MAC" : "elements";
      bool first = true;
      for (const auto &[type, lanes] : c.lanes) {
        int64_t perIssue = *c.workPerIssue(type);
        os << (first ? "" : ", ") << type << " " << perIssue << " " << unit
           << "/issue x " << instances << " = " << perIssue * instances << " " << unit
           << "/issue";
        first = false;
      }
      os << "\n";
      continue;
    }
    int64_t perInstance =
        resource.kind == Resource::Kind::MemoryPort
            ? model.node(resource.id).memory.bandwidth->bytesPerCycle
            : model.link(resource.id).bandwidth.bytesPerCycle;
    os << perInstance << " B/cycle x " << instances << " = " << perInstance * instances
       << " B/cycle\n";
  }
}

static void show(const ArchModel &model, llvm::raw_ostream &os) {
  os << "hierarchy:\n";
  printGroup(model, kDeviceGroup, 2, os);
  os << "links:\n";
  for (LinkId id = 0; id < model.links().size(); ++id)
    printLink(model, id, os);
  os << "routes:\n";
  llvm::SmallVector<NodeId, 4> sources = model.memoriesBacking(KtirSpace::Global);
  for (NodeId id : model.memoriesBacking(KtirSpace::CtLocal))
    if (!llvm::is_contained(sources, id))
      sources.push_back(id);
  for (NodeId memory : sources) {
    for (NodeId unit : model.computeUnits()) {
      NodeInstance first{unit, 0};
      std::optional<Route> in = model.routeFrom(memory, first);
      std::string memoryName =
          in ? model.instanceName(in->source) : "@" + model.node(memory).name;
      printRoute(model, in, memoryName, model.instanceName(first), os);
      std::optional<Route> out = model.routeTo(first, memory);
      std::string backName =
          out ? model.instanceName(out->dest) : "@" + model.node(memory).name;
      printRoute(model, out, model.instanceName(first), backName, os);
    }
  }
  os << "roofline resources (peak, every instance active):\n";
  printResources(model, os);
}

static int runArch() {
  if (archAction != "show" && archAction != "check") {
    llvm::errs() << "ktflow arch: unknown action '" << archAction
                 << "' (expected show or check)\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // Diagnostics name the construct themselves; a dump of the op adds noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::shared_ptr<const ArchModel> model = ArchModel::load(context, archTarget, error);
  if (!model) {
    if (!error.empty())
      llvm::errs() << "ktflow arch: " << error << "\n";
    return 1;
  }
  if (archAction == "check")
    llvm::outs() << archTarget << ": ok\n";
  else
    show(*model, llvm::outs());
  return 0;
}

static ktflow::tool::CommandRegistration archRegistration(archCmd, runArch);
