//===- ArchModel.h - what the compiler knows about a device -----*- C++ -*-===//
//
// The architecture model is the only API that answers hardware questions.
// It is built once from a `ktarch.device` (a description in arch/ or inside
// a test's module) and then answers, without touching IR again:
//
//  * the hierarchy: groups (core, sub-core) and their instance counts, with
//    instances numbered in mixed radix, outermost group most significant;
//  * the nodes: memories (capacity, reserve, alignment, KTIR spaces backed,
//    port bandwidth), movers (DMA, scratchpad load/store units) and compute
//    units (lanes per element type, op classes and issue costs, matrix
//    shape), each with the access rules it obeys per memory, and each unit
//    with its semaphore and vector-register counts;
//  * the links: direction, bandwidth, latency, granule, FIFO depth, and how
//    many users share each link instance;
//  * routes between node *instances*, found by Dijkstra on the instance
//    graph (see Link::routingCost for the edge cost and Route for the
//    tie-breaking rule);
//  * the roofline bound of a workload (Workload, RooflineBound).
//
// docs/arch.md is the user-facing description of the same vocabulary.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_ARCH_ARCHMODEL_H
#define KTFLOW_ARCH_ARCHMODEL_H

#include "ktflow/Support/Units.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ktflow::ktarch {
class DeviceOp;
} // namespace ktflow::ktarch

namespace ktflow::arch {

/// A transfer rate in whole bytes per cycle, as descriptions write it.
struct Bandwidth {
  int64_t bytesPerCycle = 0;
  /// Cycles needed to move `bytes` at this rate, rounded up.
  Cycles cyclesFor(Bytes bytes) const {
    return Cycles((bytes.count() + bytesPerCycle - 1) / bytesPerCycle);
  }
};

/// The KTIR memory spaces a memory can back (docs/ktir.md §4.1).
enum class KtirSpace { Global, CtLocal };
std::optional<KtirSpace> parseKtirSpace(llvm::StringRef name);
llvm::StringRef ktirSpaceName(KtirSpace space);

/// Op classes a compute unit may list in `ops`; anything else is rejected
/// so a typo in a description is an error rather than a missing op.
llvm::ArrayRef<llvm::StringRef> knownOpClasses();

/// The element type a `lanes` key names ("f16", "bf16", "f32", "i8", ...),
/// or null when the name is not a scalar integer or float type.
mlir::Type parseElementTypeName(llvm::StringRef name, mlir::MLIRContext *context);

enum class NodeKind { Memory, Dma, LoadUnit, StoreUnit, Compute };
/// The op mnemonic of a node kind: "memory", "dma", "load_unit", ...
llvm::StringRef nodeKindName(NodeKind kind);

/// Indices into ArchModel::groups(), nodes() and links().
using GroupId = unsigned;
using NodeId = unsigned;
using LinkId = unsigned;
/// The device itself is group 0 and has exactly one instance.
constexpr GroupId kDeviceGroup = 0;

struct Group {
  std::string name;
  /// Instances per instance of the parent (1 for the device).
  int64_t count = 1;
  std::optional<GroupId> parent;
  /// 0 for the device, 1 for its groups, ...
  unsigned depth = 0;
  mlir::LocationAttr loc;
};

/// The accesses a unit may make to one memory: sizes in
/// [minSize, maxSize] that are multiples of sizeMultiple, at addresses
/// aligned to `alignment`.
struct AccessRule {
  NodeId memory = 0;
  Bytes minSize, maxSize, sizeMultiple, alignment;

  bool allowsSize(Bytes size) const {
    return size >= minSize && size <= maxSize && size.isAlignedTo(sizeMultiple);
  }
  bool allowsAddress(Bytes address) const { return address.isAlignedTo(alignment); }
  /// The largest legal access size not above `limit`, if any.
  std::optional<Bytes> largestSizeAtMost(Bytes limit) const;
};

struct MemoryInfo {
  /// Bytes per instance, including the reserve.
  Bytes capacity;
  /// Bytes per instance the compiler must not allocate (program, debug,
  /// runtime reserve).
  Bytes reserved;
  /// Alignment of every buffer placed in this memory.
  Bytes alignment;
  llvm::SmallVector<KtirSpace, 2> spaces;
  /// Bytes per cycle one instance serves over all its links together;
  /// absent when only the links limit traffic.
  std::optional<Bandwidth> bandwidth;

  Bytes usable() const { return capacity - reserved; }
  bool backs(KtirSpace space) const;
};

struct ComputeInfo {
  /// Elements one issue processes, per element type (declaration order).
  llvm::SmallVector<std::pair<mlir::Type, int64_t>, 4> lanes;
  /// Issue cost in cycles per vector, per op class (declaration order).
  llvm::SmallVector<std::pair<std::string, Cycles>, 8> opCosts;
  /// [rows, cols] of a matrix unit; absent for a vector unit.
  std::optional<std::array<int64_t, 2>> matrixShape;

  bool isMatrix() const { return matrixShape.has_value(); }
  std::optional<int64_t> lanesFor(mlir::Type elementType) const;
  std::optional<Cycles> issueCost(llvm::StringRef opClass) const;
  /// Work one issue does for `elementType`: lanes for a vector unit (in
  /// elements), rows * cols * lanes for a matrix unit (in multiply-adds).
  std::optional<int64_t> workPerIssue(mlir::Type elementType) const;
};

/// The largest per-unit counts a description may declare. They are limits
/// of ktflow, not of a device: device code names a register in one byte,
/// and the simulator keeps every semaphore of every unit instance.
constexpr int64_t kMaxUnitVectorRegisters = 256;
constexpr int64_t kMaxUnitSemaphores = 1024;

/// A memory or an execution unit, declared once in some group.
struct Node {
  std::string name;
  NodeKind kind = NodeKind::Memory;
  /// The group the node is declared in: it has one instance per instance
  /// of that group.
  GroupId group = kDeviceGroup;
  mlir::LocationAttr loc;
  MemoryInfo memory;   ///< Valid when kind == Memory.
  ComputeInfo compute; ///< Valid when kind == Compute.
  /// Counting semaphores per instance (execution units; 0 for memories).
  int64_t semaphores = 0;
  /// Vector registers per instance (0 for memories and for movers that
  /// declare none).
  int64_t vectorRegisters = 0;
  /// Access rules per memory (movers, and compute units that read or write a
  /// memory directly).
  llvm::SmallVector<AccessRule, 2> access;

  bool isMemory() const { return kind == NodeKind::Memory; }
  bool isCompute() const { return kind == NodeKind::Compute; }
  bool isMover() const { return !isMemory() && !isCompute(); }
  const AccessRule *accessTo(NodeId memory) const;
};

/// A directed link, declared once in some scope.
struct Link {
  std::string name;
  NodeId from = 0, to = 0;
  /// The declaring scope: there is one link instance per instance of it. It
  /// encloses (or is) the group of the deeper endpoint; every instance of
  /// that group below `scope` shares one link instance.
  GroupId scope = kDeviceGroup;
  Bandwidth bandwidth;
  Cycles latency;
  /// Data crosses the link in whole granules.
  Bytes granule;
  /// Queue depth in granules when the link is a FIFO.
  std::optional<int64_t> fifoDepth;
  mlir::LocationAttr loc;

  bool isFifo() const { return fifoDepth.has_value(); }
  /// The edge cost routing minimises: the time one granule takes to cross
  /// the link alone, latency + ceil(granule / bandwidth). It favours short
  /// latency first and wide links second, independent of transfer size.
  Cycles routingCost() const { return latency + bandwidth.cyclesFor(granule); }
};

/// One instance of a node: `index` counts the instances of the node's group
/// in mixed radix (outermost group most significant).
struct NodeInstance {
  NodeId node = 0;
  int64_t index = 0;
  bool operator==(const NodeInstance &o) const { return node == o.node && index == o.index; }
  bool operator!=(const NodeInstance &o) const { return !(*this == o); }
};

/// One instance of a link: `index` counts the instances of its scope.
struct LinkInstance {
  LinkId link = 0;
  int64_t index = 0;
};

struct Hop {
  LinkInstance link;
  NodeInstance from, to;
};

/// A cheapest path between two node instances. Compute units are never
/// intermediate nodes (data passes through memories and movers only). Among
/// equally cheap paths the one with fewer hops wins, then the one whose
/// nodes were settled first in (cost, hops, node instance number) order —
/// so the choice only depends on the description, never on pointers.
struct Route {
  NodeInstance source, dest;
  llvm::SmallVector<Hop, 8> hops;
  /// Sum of Link::routingCost over the hops.
  Cycles cost;

  /// source, then the `to` of every hop.
  llvm::SmallVector<NodeInstance, 8> nodes() const;
};

/// What a kernel must do, as totals over the whole device: bytes through
/// memory ports and links, and compute work per unit. The roofline assumes
/// the totals are spread evenly over the active instances of each resource.
class Workload {
public:
  void addLinkBytes(LinkId link, Bytes bytes);
  void addMemoryBytes(NodeId memory, Bytes bytes);
  /// `count` is elements for a vector unit and multiply-adds for a matrix
  /// unit (op class "matmul").
  void addCompute(NodeId unit, llvm::StringRef opClass, mlir::Type elementType,
                  int64_t count);
  /// Restricts the kernel to `count` instances of `group` per parent
  /// instance (by default every instance is active).
  void setActiveInstances(GroupId group, int64_t count);

  struct ComputeWork {
    NodeId unit;
    std::string opClass;
    mlir::Type elementType;
    int64_t count;
  };
  const std::map<LinkId, Bytes> &linkBytes() const { return linkTraffic; }
  const std::map<NodeId, Bytes> &memoryBytes() const { return memoryTraffic; }
  llvm::ArrayRef<ComputeWork> computeWork() const { return compute; }
  std::optional<int64_t> activeInstances(GroupId group) const;

private:
  std::map<LinkId, Bytes> linkTraffic;
  std::map<NodeId, Bytes> memoryTraffic;
  std::vector<ComputeWork> compute;
  std::map<GroupId, int64_t> active;
};

/// A resource the roofline charges: a memory port (memories with a
/// bandwidth), a link, or a compute unit. Per-instance resources scale
/// with their instance count; a resource declared in an outer scope has
/// fewer instances and so is shared.
struct Resource {
  enum class Kind { MemoryPort, Link, Compute };
  Kind kind;
  /// NodeId for MemoryPort and Compute, LinkId for Link.
  unsigned id;
  /// The group whose instances replicate the resource.
  GroupId scope;
};

/// One resource's share of a roofline bound.
struct ResourceLoad {
  Resource resource;
  /// Bytes (ports, links) or issue cycles (compute) over all instances.
  double work = 0;
  /// Active instances of the resource.
  int64_t instances = 0;
  /// Work per cycle all active instances sustain together.
  double throughput = 0;
  /// work / throughput.
  double cycles = 0;
};

struct RooflineBound {
  /// The largest ResourceLoad::cycles (0 for an empty workload).
  double cycles = 0;
  /// Every resource with work, in resources() order.
  std::vector<ResourceLoad> loads;
  /// Index into `loads` of the limiting resource (the first of the
  /// largest), absent for an empty workload.
  std::optional<size_t> limiting;

  Cycles bound() const;
};

class ArchModel {
public:
  /// Builds the model of `device`, checking everything a single op cannot
  /// check alone. On a broken description emits located diagnostics and
  /// returns null.
  static std::unique_ptr<ArchModel> build(ktarch::DeviceOp device);

  /// Resolves `nameOrPath`: a path to a file (containing '/' or ending in
  /// ".mlir"), or a name looked up as NAME.mlir in $KTFLOW_ARCH_PATH (a
  /// directory) and then in the shipped arch/ directory.
  static std::optional<std::string> resolveDescription(llvm::StringRef nameOrPath);
  /// The shipped description directory (<source>/arch).
  static llvm::StringRef shippedDescriptionDir();

  /// Parses, verifies and models a description file, once per canonical
  /// path and context. Located problems go to the context's diagnostic
  /// handler; a name that resolves to no file sets `error`. Returns null on
  /// failure.
  static std::shared_ptr<const ArchModel>
  load(mlir::MLIRContext &context, llvm::StringRef nameOrPath, std::string &error);

  // --- The device -------------------------------------------------------
  llvm::StringRef name() const { return deviceName; }
  int64_t clockMhz() const { return clock; }
  mlir::Location loc() const { return deviceLoc; }

  // --- Hierarchy ----------------------------------------------------------
  llvm::ArrayRef<Group> groups() const { return groupList; }
  const Group &group(GroupId id) const { return groupList[id]; }
  std::optional<GroupId> lookupGroup(llvm::StringRef name) const;
  /// Instances of `group` on the whole device (product of counts).
  int64_t instanceCount(GroupId group) const;
  /// Instances of the node on the whole device.
  int64_t nodeInstanceCount(NodeId node) const { return instanceCount(nodes()[node].group); }
  /// The groups from the device down to `group`, inclusive.
  llvm::SmallVector<GroupId, 4> groupChain(GroupId group) const;
  bool isAncestorOrSelf(GroupId ancestor, GroupId group) const;
  /// The instance of `ancestor` that contains instance `index` of `group`.
  int64_t ancestorInstance(GroupId group, int64_t index, GroupId ancestor) const;
  /// Index per group of the chain below the device, e.g. {core, subcore}.
  llvm::SmallVector<int64_t, 4> instancePath(GroupId group, int64_t index) const;
  /// Human-readable instance name: "@vec[core=1,subcore=0]".
  std::string instanceName(NodeInstance instance) const;

  // --- Nodes and links ------------------------------------------------------
  llvm::ArrayRef<Node> nodes() const { return nodeList; }
  const Node &node(NodeId id) const { return nodeList[id]; }
  std::optional<NodeId> lookupNode(llvm::StringRef name) const;
  llvm::ArrayRef<Link> links() const { return linkList; }
  const Link &link(LinkId id) const { return linkList[id]; }
  std::optional<LinkId> lookupLink(llvm::StringRef name) const;
  /// Links leaving / entering a node, in declaration order.
  llvm::ArrayRef<LinkId> outLinks(NodeId node) const { return outgoing[node]; }
  llvm::ArrayRef<LinkId> inLinks(NodeId node) const { return incoming[node]; }

  /// Counting semaphores each instance of the execution unit `unit` has
  /// (`semaphores` of its description; 0 for a memory).
  int64_t semaphoreCount(NodeId unit) const { return nodeList[unit].semaphores; }
  /// Vector registers each instance of `unit` has (`vector_registers` of its
  /// description; 0 for a memory or a mover that declares none).
  int64_t vectorRegisterCount(NodeId unit) const { return nodeList[unit].vectorRegisters; }

  llvm::SmallVector<NodeId, 4> memories() const;
  llvm::SmallVector<NodeId, 4> computeUnits() const;
  /// Memories backing a KTIR memory space (at least one for each space).
  llvm::SmallVector<NodeId, 2> memoriesBacking(KtirSpace space) const;
  /// How many instances of `unit` share one instance of `memory` (e.g. 2
  /// corelets per core scratchpad); all of them when the memory's group does
  /// not enclose the unit's.
  int64_t unitsPerMemoryInstance(NodeId memory, NodeId unit) const;
  /// Endpoint pairs one instance of `link` serves: they share its bandwidth.
  int64_t linkUsers(LinkId link) const;

  // --- Routing -------------------------------------------------------------
  /// Cheapest route between two node instances, if any.
  std::optional<Route> route(NodeInstance from, NodeInstance to) const;
  /// Cheapest route to `to` from whichever instance of `from` is nearest.
  std::optional<Route> routeFrom(NodeId from, NodeInstance to) const;
  /// Cheapest route from `from` to whichever instance of `to` is nearest.
  std::optional<Route> routeTo(NodeInstance from, NodeId to) const;
  /// The memories on a route in order: the memory levels data passes,
  /// which is what nesting per memory level walks.
  llvm::SmallVector<NodeId, 4> memoriesOn(const Route &route) const;
  /// The units on a route in order (movers and compute units): one pipeline
  /// stage each.
  llvm::SmallVector<NodeId, 8> unitsOn(const Route &route) const;

  // --- Roofline ------------------------------------------------------------
  /// Memory ports, links and compute units, in declaration order.
  llvm::ArrayRef<Resource> resources() const { return resourceList; }
  std::string resourceName(const Resource &resource) const;
  /// Charges `bytes` moved along `route` to `workload`: every link of the
  /// route, and every memory on it — the end memories once (read or
  /// written), intermediate ones twice (written, then read).
  void addRouteTraffic(Workload &workload, const Route &route, Bytes bytes) const;
  /// Active instances of `group` under `workload` (all by default).
  int64_t activeInstances(GroupId group, const Workload &workload) const;
  /// The lower bound in cycles: max over resources of work / throughput.
  /// Fails if the workload asks a compute unit for an op class or element
  /// type it lacks, or names a memory without a port bandwidth.
  llvm::Expected<RooflineBound> roofline(const Workload &workload) const;

private:
  ArchModel() = default;
  friend class ArchModelBuilder;

  struct Edge {
    unsigned to;  // flat node-instance number
    LinkInstance link;
  };
  unsigned flatInstance(NodeInstance instance) const {
    return instanceBase[instance.node] + instance.index;
  }
  NodeInstance unflatten(unsigned flat) const;
  /// Dijkstra from a set of sources; fills per flat instance the best
  /// (cost, hops) and the hop that reached it.
  struct SearchResult {
    std::vector<int64_t> cost, hops;
    std::vector<std::optional<Hop>> via;
  };
  SearchResult search(llvm::ArrayRef<unsigned> sources) const;
  std::optional<Route> extract(const SearchResult &result, unsigned target) const;

  std::string deviceName;
  int64_t clock = 0;
  mlir::LocationAttr deviceLoc;
  std::vector<Group> groupList;
  std::vector<Node> nodeList;
  std::vector<Link> linkList;
  std::vector<Resource> resourceList;
  std::vector<std::vector<LinkId>> outgoing, incoming;
  llvm::StringMap<GroupId> groupByName;
  llvm::StringMap<NodeId> nodeByName;
  llvm::StringMap<LinkId> linkByName;
  // The instance graph: node instances numbered flat, node by node.
  std::vector<unsigned> instanceBase;
  std::vector<std::vector<Edge>> adjacency;
};

} // namespace ktflow::arch

#endif // KTFLOW_ARCH_ARCHMODEL_H
