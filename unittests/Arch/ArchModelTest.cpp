//===- ArchModelTest.cpp - routes, sharing and roofline of ArchModel ------===//
//
// Routes are checked on every shipped description (sample's five-stage
// pipeline, spyre's matrix unit, deep's extra memory level and direct
// scratchpad access); sharing and roofline bounds on small cases whose
// answers are worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchOps.h"
#include "ktflow/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace ktflow;
using namespace ktflow::arch;

namespace {

class ArchModelTest : public ::testing::Test {
protected:
  ArchModelTest() : context(makeRegistry()) {}
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  std::shared_ptr<const ArchModel> load(llvm::StringRef name) {
    std::string error;
    auto model = ArchModel::load(context, name, error);
    EXPECT_TRUE(model) << "cannot load " << name.str() << ": " << error;
    return model;
  }

  /// Builds a model from description text (kept alive in `modules`).
  std::unique_ptr<ArchModel> parse(llvm::StringRef text) {
    modules.push_back(mlir::parseSourceString<mlir::ModuleOp>(text, &context));
    if (!modules.back())
      return nullptr;
    auto devices = modules.back()->getOps<ktarch::DeviceOp>();
    if (devices.empty())
      return nullptr;
    return ArchModel::build(*devices.begin());
  }

  NodeId node(const ArchModel &model, llvm::StringRef name) {
    std::optional<NodeId> id = model.lookupNode(name);
    EXPECT_TRUE(id) << "no node @" << name.str();
    return id.value_or(0);
  }
  LinkId link(const ArchModel &model, llvm::StringRef name) {
    std::optional<LinkId> id = model.lookupLink(name);
    EXPECT_TRUE(id) << "no link @" << name.str();
    return id.value_or(0);
  }
  GroupId group(const ArchModel &model, llvm::StringRef name) {
    std::optional<GroupId> id = model.lookupGroup(name);
    EXPECT_TRUE(id) << "no group @" << name.str();
    return id.value_or(0);
  }

  static std::vector<std::string> names(const ArchModel &model,
                                        llvm::ArrayRef<NodeId> ids) {
    std::vector<std::string> result;
    for (NodeId id : ids)
      result.push_back(model.node(id).name);
    return result;
  }
  static std::vector<std::string> instanceNames(const ArchModel &model,
                                                const Route &route) {
    std::vector<std::string> result;
    for (NodeInstance n : route.nodes())
      result.push_back(model.instanceName(n));
    return result;
  }

  mlir::MLIRContext context;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
};

using Names = std::vector<std::string>;

TEST_F(ArchModelTest, ShippedDescriptionsLoadAndAreCached) {
  for (llvm::StringRef name : {"sample", "spyre", "deep"}) {
    auto first = load(name);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->name(), name);
    // Built once per description: the second load is the cached model.
    EXPECT_EQ(load(name).get(), first.get());
  }
}

TEST_F(ArchModelTest, SampleRouteIsTheFiveStagePipeline) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  NodeId ddr = node(*model, "ddr"), vec = node(*model, "vec");
  std::optional<Route> in = model->routeFrom(ddr, {vec, 0});
  ASSERT_TRUE(in);
  // Five nodes: global memory, DMA, scratchpad, load unit, vector unit.
  EXPECT_EQ(instanceNames(*model, *in),
            (Names{"@ddr", "@dma[core=0]", "@spad[core=0]",
                   "@ld[core=0,subcore=0]", "@vec[core=0,subcore=0]"}));
  // The last hop is the FIFO into the vector unit.
  EXPECT_TRUE(model->link(in->hops.back().link.link).isFifo());
  // latency + ceil(granule / bandwidth): (50+2) + (2+2) + (2+1) + (1+1).
  EXPECT_EQ(in->cost, Cycles(61));

  std::optional<Route> out = model->routeTo({vec, 0}, ddr);
  ASSERT_TRUE(out);
  // The round trip's units are DESIGN.md's five stages: DMA load,
  // scratchpad load, compute, scratchpad store, DMA store.
  Names stages = names(*model, model->unitsOn(*in));
  Names back = names(*model, model->unitsOn(*out));
  stages.insert(stages.end(), back.begin() + 1, back.end());
  EXPECT_EQ(stages, (Names{"dma", "ld", "vec", "st", "dma"}));
  EXPECT_EQ(names(*model, model->memoriesOn(*in)), (Names{"ddr", "spad"}));
}

TEST_F(ArchModelTest, RoutesStayInTheInstancesOwnCore) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  NodeId vec = node(*model, "vec"), spad = node(*model, "spad");
  // Instance 3 is core 1, sub-core 1 (outermost group most significant).
  EXPECT_EQ(model->instanceName({vec, 3}), "@vec[core=1,subcore=1]");
  std::optional<Route> in = model->routeFrom(node(*model, "ddr"), {vec, 3});
  ASSERT_TRUE(in);
  EXPECT_EQ(model->instanceName(in->hops[0].to), "@dma[core=1]");
  // The nearest scratchpad instance is the core's own.
  std::optional<Route> local = model->routeFrom(spad, {vec, 3});
  ASSERT_TRUE(local);
  EXPECT_EQ(local->source, (NodeInstance{spad, 1}));
  EXPECT_EQ(local->hops.size(), 2u);
}

TEST_F(ArchModelTest, DeepRouteHasAnExtraLevelAndNoLoadUnit) {
  auto model = load("deep");
  ASSERT_TRUE(model);
  NodeId hbm = node(*model, "hbm"), vpu = node(*model, "vpu");
  std::optional<Route> in = model->routeFrom(hbm, {vpu, 2});
  ASSERT_TRUE(in);
  EXPECT_EQ(instanceNames(*model, *in),
            (Names{"@hbm", "@l2_dma", "@l2", "@tile_dma[tile=2]", "@l1[tile=2]",
                   "@vpu[tile=2,lane=0]"}));
  EXPECT_EQ(names(*model, model->memoriesOn(*in)), (Names{"hbm", "l2", "l1"}));
  // The vector unit reads L1 itself: its access rule is one 64-byte vector.
  const AccessRule *rule = model->node(vpu).accessTo(node(*model, "l1"));
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->minSize, Bytes(64));
  EXPECT_EQ(model->instanceCount(group(*model, "lane")), 4);
  EXPECT_EQ(model->node(vpu).compute.lanesFor(mlir::Float32Type::get(&context)), 16);
}

TEST_F(ArchModelTest, SpyreFiguresAndMatrixUnit) {
  auto model = load("spyre");
  ASSERT_TRUE(model);
  NodeId lx = node(*model, "lx"), sfp = node(*model, "sfp"), pt = node(*model, "pt");
  EXPECT_EQ(model->node(lx).memory.capacity, Bytes(2 * 1024 * 1024));
  // About 1.55 MiB usable.
  EXPECT_EQ(model->node(lx).memory.usable(), Bytes(1622016));
  EXPECT_EQ(model->instanceCount(group(*model, "corelet")), 64);
  EXPECT_EQ(model->unitsPerMemoryInstance(lx, sfp), 2);
  mlir::Type f16 = mlir::Float16Type::get(&context);
  EXPECT_EQ(model->node(sfp).compute.lanesFor(f16), 64);
  EXPECT_EQ(model->node(pt).compute.workPerIssue(f16), 8 * 8 * 8);
  std::optional<Route> toPt = model->routeFrom(node(*model, "ddr"), {pt, 0});
  ASSERT_TRUE(toPt);
  EXPECT_EQ(names(*model, model->unitsOn(*toPt)), (Names{"dma", "ld", "pt"}));
}

TEST_F(ArchModelTest, LinkSharingFollowsTheDeclaringScope) {
  auto spyre = load("spyre");
  ASSERT_TRUE(spyre);
  // The ring is declared on the device: one instance, used by 32 DMAs.
  LinkId ring = link(*spyre, "ring_read");
  EXPECT_EQ(spyre->instanceCount(spyre->link(ring).scope), 1);
  EXPECT_EQ(spyre->linkUsers(ring), 32);
  // A core's own DMA path: 32 instances, one user each.
  LinkId path = link(*spyre, "dma_to_lx");
  EXPECT_EQ(spyre->instanceCount(spyre->link(path).scope), 32);
  EXPECT_EQ(spyre->linkUsers(path), 1);
  // Routes from two cores use the same ring instance.
  NodeId ddr = node(*spyre, "ddr"), sfp = node(*spyre, "sfp");
  auto a = spyre->routeFrom(ddr, {sfp, 0}), b = spyre->routeFrom(ddr, {sfp, 63});
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->hops[0].link.link, b->hops[0].link.link);
  EXPECT_EQ(a->hops[0].link.index, b->hops[0].link.index);
  EXPECT_NE(a->hops[1].link.index, b->hops[1].link.index);
}

// Elementwise f16 add of N = 65536 elements on sample: 2 inputs in
// (262144 B) and 1 output out (131072 B).
static void addElementwise(const ArchModel &model, mlir::MLIRContext &context,
                           Workload &work) {
  NodeId ddr = *model.lookupNode("ddr"), vec = *model.lookupNode("vec");
  model.addRouteTraffic(work, *model.routeFrom(ddr, {vec, 0}), Bytes(262144));
  model.addRouteTraffic(work, *model.routeTo({vec, 0}, ddr), Bytes(131072));
  work.addCompute(vec, "add", mlir::Float16Type::get(&context), 65536);
}

TEST_F(ArchModelTest, RooflineAllCoresIsBoundByTheSharedPort) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  Workload work;
  addElementwise(*model, context, work);
  auto bound = model->roofline(work);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  // DDR port: (262144 + 131072) B / 64 B/cycle = 6144 cycles.
  // ddr_to_dma: 262144 / (32 x 2 cores) = 4096; spad port: 2 x 393216 /
  // (128 x 2) = 3072; compute: 65536 / 32 lanes x 1 cycle / 4 = 512.
  ASSERT_TRUE(bound->limiting);
  const ResourceLoad &limit = bound->loads[*bound->limiting];
  EXPECT_EQ(model->resourceName(limit.resource), "memory @ddr");
  EXPECT_DOUBLE_EQ(bound->cycles, 6144);
  EXPECT_EQ(bound->bound(), Cycles(6144));
  for (const ResourceLoad &load : bound->loads) {
    std::string name = model->resourceName(load.resource);
    if (name == "link @ddr_to_dma")
      EXPECT_DOUBLE_EQ(load.cycles, 4096);
    if (name == "memory @spad")
      EXPECT_DOUBLE_EQ(load.cycles, 3072);
    if (name == "compute @vec")
      EXPECT_DOUBLE_EQ(load.cycles, 512);
  }
}

TEST_F(ArchModelTest, RooflineChargesTheReadWriteMix) {
  auto model = load("spyre");
  ASSERT_TRUE(model);
  NodeId ddr = node(*model, "ddr"), sfp = node(*model, "sfp");
  // spyre's DDR port: 100 B/cycle one way, 70 B/cycle balanced. Read 3 MiB,
  // write 1 MiB: the 2 MiB excess at 100 and 2 x 1 MiB paired at 70 take
  // 20971.52 + 29959.31 cycles, more than 4 MiB / 100 = 41943.04.
  Workload mixed;
  model->addRouteTraffic(mixed, *model->routeFrom(ddr, {sfp, 0}), Bytes(3 << 20));
  model->addRouteTraffic(mixed, *model->routeTo({sfp, 0}, ddr), Bytes(1 << 20));
  EXPECT_EQ(mixed.memoryWrites(ddr), Bytes(1 << 20));
  auto bound = model->roofline(mixed);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  EXPECT_EQ(model->resourceName(bound->loads[*bound->limiting].resource), "memory @ddr");
  EXPECT_NEAR(bound->cycles, double(2 << 20) / 100 + 2.0 * double(1 << 20) / 70, 1e-6);
  // Read-only traffic moves at the full rate.
  Workload readOnly;
  model->addRouteTraffic(readOnly, *model->routeFrom(ddr, {sfp, 0}), Bytes(4 << 20));
  auto readBound = model->roofline(readOnly);
  ASSERT_TRUE(bool(readBound)) << llvm::toString(readBound.takeError());
  EXPECT_NEAR(readBound->cycles, double(4 << 20) / 100, 1e-6);
}

TEST_F(ArchModelTest, PortCyclesWithoutAMixCostIsBytesOverBandwidth) {
  MemoryInfo port;
  port.bandwidth = Bandwidth{64};
  EXPECT_DOUBLE_EQ(port.portCycles(Bytes(640), Bytes(640)), 20);
  port.mixedBandwidth = Bandwidth{32};
  EXPECT_DOUBLE_EQ(port.portCycles(Bytes(640), Bytes(640)), 40);
  EXPECT_DOUBLE_EQ(port.portCycles(Bytes(640), Bytes(0)), 10);
}

TEST_F(ArchModelTest, RooflineOneCoreIsBoundByItsDmaPath) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  Workload work;
  addElementwise(*model, context, work);
  work.setActiveInstances(group(*model, "core"), 1);
  auto bound = model->roofline(work);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  // One core: ddr_to_dma carries 262144 B at 32 B/cycle = 8192 cycles,
  // more than the shared port's 6144.
  EXPECT_EQ(model->resourceName(bound->loads[*bound->limiting].resource),
            "link @ddr_to_dma");
  EXPECT_DOUBLE_EQ(bound->cycles, 8192);
}

TEST_F(ArchModelTest, RooflineComputeBound) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  Workload work;
  // exp on 2^20 f32: 2^20 / 16 lanes x 4 cycles / 4 sub-cores = 65536.
  work.addCompute(*model->lookupNode("vec"), "exp", mlir::Float32Type::get(&context),
                  1 << 20);
  work.addLinkBytes(link(*model, "ddr_to_dma"), Bytes(64 * 100));
  auto bound = model->roofline(work);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  EXPECT_EQ(model->resourceName(bound->loads[*bound->limiting].resource), "compute @vec");
  EXPECT_DOUBLE_EQ(bound->cycles, 65536);
}

TEST_F(ArchModelTest, RooflineMatrixUnit) {
  auto model = load("spyre");
  ASSERT_TRUE(model);
  Workload work;
  // 49152000 MACs on 64 PT arrays of 8 x 8 x 8 MACs per cycle = 1500
  // cycles (1 us at spyre's 1.5 GHz).
  work.addCompute(node(*model, "pt"), "matmul", mlir::Float16Type::get(&context),
                  49152000);
  auto bound = model->roofline(work);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  EXPECT_DOUBLE_EQ(bound->cycles, 1500);
}

TEST_F(ArchModelTest, RooflineSpyreElementwiseMatchesSpyreNotes) {
  auto model = load("spyre");
  ASSERT_TRUE(model);
  NodeId ddr = node(*model, "ddr"), sfp = node(*model, "sfp");
  Workload work;
  // 1.5 MB in, 0.75 MB out.
  model->addRouteTraffic(work, *model->routeFrom(ddr, {sfp, 0}), Bytes(1536000));
  model->addRouteTraffic(work, *model->routeTo({sfp, 0}, ddr), Bytes(768000));
  auto all = model->roofline(work);
  ASSERT_TRUE(bool(all));
  // All 32 cores: the DDR port, the 768000 B excess of reads at 100 B/cycle
  // and 2 x 768000 B of paired reads and writes at 70 B/cycle.
  EXPECT_EQ(model->resourceName(all->loads[*all->limiting].resource), "memory @ddr");
  EXPECT_NEAR(all->cycles, 768000.0 / 100 + 2 * 768000.0 / 70, 1e-6);
  // One core reading the inputs only: its DMA path, 1536000 / 64 = 24000
  // cycles, above the port's 1536000 / 100.
  Workload reads;
  model->addRouteTraffic(reads, *model->routeFrom(ddr, {sfp, 0}), Bytes(1536000));
  reads.setActiveInstances(group(*model, "core"), 1);
  auto one = model->roofline(reads);
  ASSERT_TRUE(bool(one));
  EXPECT_EQ(model->resourceName(one->loads[*one->limiting].resource), "link @dma_to_lx");
  EXPECT_DOUBLE_EQ(one->cycles, 24000);
}

TEST_F(ArchModelTest, RooflineRejectsWorkAUnitCannotDo) {
  auto model = load("sample");
  ASSERT_TRUE(model);
  Workload noClass;
  noClass.addCompute(node(*model, "vec"), "matmul", mlir::Float16Type::get(&context), 1);
  auto bound = model->roofline(noClass);
  ASSERT_FALSE(bool(bound));
  EXPECT_NE(llvm::toString(bound.takeError()).find("no op class 'matmul'"),
            std::string::npos);
  Workload noLanes;
  noLanes.addCompute(node(*model, "vec"), "add", mlir::IntegerType::get(&context, 16), 1);
  auto lanes = model->roofline(noLanes);
  ASSERT_FALSE(bool(lanes));
  EXPECT_NE(llvm::toString(lanes.takeError()).find("no lanes for i16"), std::string::npos);
  // Nothing to do: bound 0, nothing limits.
  auto empty = model->roofline(Workload());
  ASSERT_TRUE(bool(empty));
  EXPECT_FALSE(empty->limiting);
  EXPECT_EQ(empty->bound(), Cycles(0));
}

// Two equally cheap paths from @m to @c: through @a or @b. The first
// declared link wins; a cheaper path wins over fewer hops; at equal cost
// fewer hops win.
static const char *kTieDevice = R"mlir(
#m = #ktarch.access<memory = @m, min_size = 8, max_size = 8, size_multiple = 8, alignment = 8>
ktarch.device @ties clock_mhz = 1 {
  ktarch.memory @m {capacity = 64, alignment = 8, spaces = ["global", "ct_local"]}
  ktarch.load_unit @b {semaphores = 4, access = [#m]}
  ktarch.load_unit @a {semaphores = 32, vector_registers = 2, access = [#m]}
  ktarch.store_unit @s {semaphores = 32, access = [#m]}
  ktarch.compute @c {semaphores = 8, vector_registers = 16, lanes = {f32 = 2}, ops = {add = 1}}
  ktarch.link @m_b : @m -> @b {bandwidth = 8, latency = 1, granule = 8}
  ktarch.link @m_a : @m -> @a {bandwidth = 8, latency = 1, granule = 8}
  ktarch.link @b_c : @b -> @c {bandwidth = 8, latency = 1, granule = 8}
  ktarch.link @a_c : @a -> @c {bandwidth = 8, latency = 1, granule = 8}
  ktarch.link @c_s : @c -> @s {bandwidth = 8, latency = 0, granule = 8}
  ktarch.link @s_m : @s -> @m {bandwidth = 8, latency = 0, granule = 8}
}
)mlir";

TEST_F(ArchModelTest, TiesBreakByDeclarationOrder) {
  auto model = parse(kTieDevice);
  ASSERT_TRUE(model);
  auto route = model->route({node(*model, "m"), 0}, {node(*model, "c"), 0});
  ASSERT_TRUE(route);
  // Both paths cost 4; @b's link is declared first.
  EXPECT_EQ(route->cost, Cycles(4));
  EXPECT_EQ(instanceNames(*model, *route), (Names{"@m", "@b", "@c"}));
  // The same answer every time.
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(model->route({node(*model, "m"), 0}, {node(*model, "c"), 0})->hops[0].link.link,
              route->hops[0].link.link);
}

TEST_F(ArchModelTest, UnitCountsComeFromTheDescription) {
  auto model = parse(kTieDevice);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->semaphoreCount(node(*model, "b")), 4);
  EXPECT_EQ(model->semaphoreCount(node(*model, "c")), 8);
  EXPECT_EQ(model->vectorRegisterCount(node(*model, "c")), 16);
  EXPECT_EQ(model->vectorRegisterCount(node(*model, "a")), 2);
  // A mover that declares no registers has none; a memory has neither.
  EXPECT_EQ(model->vectorRegisterCount(node(*model, "b")), 0);
  EXPECT_EQ(model->semaphoreCount(node(*model, "m")), 0);
  auto sample = load("sample");
  ASSERT_TRUE(sample);
  EXPECT_EQ(sample->vectorRegisterCount(node(*sample, "vec")), 32);
  EXPECT_EQ(sample->semaphoreCount(node(*sample, "dma")), 32);
}

TEST_F(ArchModelTest, RoutesNeverPassThroughComputeUnits) {
  auto model = parse(kTieDevice);
  ASSERT_TRUE(model);
  // @a -> @s exists only through the compute unit @c: no route.
  EXPECT_FALSE(model->route({node(*model, "a"), 0}, {node(*model, "s"), 0}));
  // But a compute unit may start a route.
  EXPECT_TRUE(model->route({node(*model, "c"), 0}, {node(*model, "m"), 0}));
}

TEST_F(ArchModelTest, AccessRuleSizes) {
  AccessRule rule;
  rule.minSize = Bytes(128);
  rule.maxSize = Bytes(1024);
  rule.sizeMultiple = Bytes(128);
  rule.alignment = Bytes(128);
  EXPECT_TRUE(rule.allowsSize(Bytes(384)));
  EXPECT_FALSE(rule.allowsSize(Bytes(100)));
  EXPECT_FALSE(rule.allowsSize(Bytes(2048)));
  EXPECT_EQ(rule.largestSizeAtMost(Bytes(1000)), Bytes(896));
  EXPECT_EQ(rule.largestSizeAtMost(Bytes(5000)), Bytes(1024));
  EXPECT_FALSE(rule.largestSizeAtMost(Bytes(64)));
  EXPECT_TRUE(rule.allowsAddress(Bytes(256)));
  EXPECT_FALSE(rule.allowsAddress(Bytes(64)));
}

TEST_F(ArchModelTest, BrokenDescriptionBuildsNoModel) {
  // The link names an undefined node: the parser's verifier rejects it.
  mlir::ScopedDiagnosticHandler silence(&context, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  auto model = parse(R"mlir(
ktarch.device @broken clock_mhz = 1 {
  ktarch.memory @m {capacity = 64, alignment = 8, spaces = ["global", "ct_local"]}
  ktarch.link @l : @m -> @nowhere {bandwidth = 8, latency = 1, granule = 8}
}
)mlir");
  EXPECT_FALSE(model);
}

} // namespace
