//===- SimulatorTest.cpp - timing, sharing, FIFOs, deadlock, values -------===//
//
// Hand-built programs on small descriptions written here, so every expected
// number follows from the description text in the test: a single transfer
// costs latency + bytes / bandwidth; two cores on one shared memory port
// take twice as long; a depth-1 FIFO paces a fast producer; a deadlock is
// reported; and values computed by the simulator match a reference.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchOps.h"
#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Elementwise.h"
#include "ktflow/Interp/Float16.h"
#include "ktflow/Sim/Simulator.h"
#include "ktflow/Sim/StaticChecks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace ktflow;
using namespace ktflow::sim;

namespace {

/// A device with `cores` cores, each with a DMA between global memory @g
/// (port `portBandwidth` B/cycle, shared by all cores) and a scratchpad @s,
/// and a load unit feeding a vector unit through a FIFO of `fifoDepth`
/// granules. Every number is a parameter or written here.
/// `scratchpadPort` > 0 gives @s a port of that many B/cycle.
std::string deviceText(int cores, int portBandwidth, int fifoDepth, int expCost = 1,
                       int scratchpadPort = 0) {
  std::string scratchpadBandwidth =
      scratchpadPort > 0 ? ", bandwidth = " + std::to_string(scratchpadPort) : "";
  return llvm::formatv(R"(
#g_rule = #ktarch.access<memory = @g, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 64>
#s_rule = #ktarch.access<memory = @s, min_size = 64, max_size = 65536, size_multiple = 64, alignment = 64>
#s_vec = #ktarch.access<memory = @s, min_size = 64, max_size = 64, size_multiple = 64, alignment = 64>
ktarch.device @test clock_mhz = 1000 {{
  ktarch.memory @g {{capacity = 1048576, alignment = 64, spaces = ["global"], bandwidth = {1}}
  ktarch.group @core count = {0} {{
    ktarch.memory @s {{capacity = 65536, alignment = 64, spaces = ["ct_local"]{4}}
    ktarch.dma @dma {{semaphores = 32, access = [#g_rule, #s_rule]}
    ktarch.load_unit @ld {{semaphores = 32, access = [#s_vec]}
    ktarch.compute @vec {{semaphores = 32, vector_registers = 32, lanes = {{f16 = 32, f32 = 16}, ops = {{add = 1, exp = {3}, copy = 1}}
    ktarch.store_unit @st {{semaphores = 32, access = [#s_vec]}
    ktarch.link @g_to_dma : @g -> @dma {{bandwidth = 64, latency = 10, granule = 64}
    ktarch.link @dma_to_s : @dma -> @s {{bandwidth = 64, latency = 1, granule = 64}
    ktarch.link @s_to_dma : @s -> @dma {{bandwidth = 64, latency = 1, granule = 64}
    ktarch.link @dma_to_g : @dma -> @g {{bandwidth = 64, latency = 10, granule = 64}
    ktarch.link @s_to_ld : @s -> @ld {{bandwidth = 64, latency = 2, granule = 64}
    ktarch.link @ld_to_vec : @ld -> @vec {{bandwidth = 64, latency = 1, granule = 64, fifo_depth = {2}}
    ktarch.link @vec_to_st : @vec -> @st {{bandwidth = 64, latency = 1, granule = 64, fifo_depth = {2}}
    ktarch.link @st_to_s : @st -> @s {{bandwidth = 64, latency = 2, granule = 64}
  }
}
)",
                       cores, portBandwidth, fifoDepth, expCost, scratchpadBandwidth)
      .str();
}

class SimulatorTest : public ::testing::Test {
protected:
  SimulatorTest() : context(makeRegistry()) {}
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }

  std::unique_ptr<arch::ArchModel> parseArch(llvm::StringRef text) {
    modules.push_back(mlir::parseSourceString<mlir::ModuleOp>(text, &context));
    if (!modules.back())
      return nullptr;
    auto devices = modules.back()->getOps<ktarch::DeviceOp>();
    if (devices.empty())
      return nullptr;
    return arch::ArchModel::build(*devices.begin());
  }

  std::shared_ptr<const arch::ArchModel> loadArch(llvm::StringRef name) {
    std::string error;
    auto model = arch::ArchModel::load(context, name, error);
    EXPECT_TRUE(model) << error;
    return model;
  }

  static dc::Bundle assemble(llvm::StringRef text) {
    llvm::Expected<dc::Bundle> bundle = dc::parseBundleText(text, "test.kasm");
    if (!bundle) {
      ADD_FAILURE() << llvm::toString(bundle.takeError());
      return {};
    }
    return *bundle;
  }

  static SimResult run(const dc::Bundle &bundle, const arch::ArchModel &model,
                       const SymbolData &inputs = {}) {
    llvm::Expected<SimResult> result = simulate(bundle, model, inputs);
    if (!result) {
      ADD_FAILURE() << llvm::toString(result.takeError());
      return {};
    }
    return *result;
  }

  static const UnitStats *unit(const SimResult &r, llvm::StringRef name) {
    for (const UnitStats &u : r.units)
      if (u.name == name)
        return &u;
    ADD_FAILURE() << "no unit " << name.str();
    return nullptr;
  }

  mlir::MLIRContext context;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules;
};

/// One DMA copy of `bytes` from $A into the scratchpad, per listed core.
std::string copyProgram(int64_t bytes, llvm::StringRef instances) {
  return llvm::formatv(R"(ktdc 1
device test
symbol $A f16 {0} in
program @dma
instances {1}
  copy @s, $A, run {2}
)",
                       bytes / 2, instances, bytes)
      .str();
}

TEST_F(SimulatorTest, SingleTransferCostsLatencyPlusBytesOverBandwidth) {
  // The port (64 B/cycle) is no slower than the links: the route's latency
  // (10 + 1) plus bytes / 64 is the whole cost.
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  const int64_t bytes = 4096;
  SimResult r = run(assemble(copyProgram(bytes, "0")), *model);
  int64_t latency = model->link(*model->lookupLink("g_to_dma")).latency.count() +
                    model->link(*model->lookupLink("dma_to_s")).latency.count();
  int64_t bandwidth = model->link(*model->lookupLink("g_to_dma")).bandwidth.bytesPerCycle;
  EXPECT_EQ(r.totalCycles.count(), latency + bytes / bandwidth);
  ASSERT_EQ(r.links.size(), 2u);
  for (const ResourceStats &l : r.links)
    EXPECT_EQ(l.bytes.count(), bytes);
}

TEST_F(SimulatorTest, SingleTransferOnSampleMatchesItsRoute) {
  // The same rule on the shipped sample description, with the numbers
  // taken from its route rather than from this test.
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  const int64_t bytes = 8192;
  dc::Bundle bundle = assemble(llvm::formatv(R"(ktdc 1
symbol $A f16 {0} in
program @dma
instances 0
  copy @spad, $A, run {1}
)",
                                             bytes / 2, bytes)
                                   .str());
  SimResult r = run(bundle, *model);
  arch::NodeInstance dma{*model->lookupNode("dma"), 0};
  auto in = model->routeFrom(*model->lookupNode("ddr"), dma);
  auto out = model->routeTo(dma, *model->lookupNode("spad"));
  ASSERT_TRUE(in && out);
  int64_t latency = 0, slowest = INT64_MAX;
  for (const auto *route : {&*in, &*out})
    for (const arch::Hop &h : route->hops) {
      latency += model->link(h.link.link).latency.count();
      slowest = std::min(slowest, model->link(h.link.link).bandwidth.bytesPerCycle);
    }
  EXPECT_EQ(r.totalCycles.count(), latency + bytes / slowest);
}

TEST_F(SimulatorTest, TwoCoresSharingGlobalMemoryTakeTwiceAsLong) {
  // The global memory port (16 B/cycle) is slower than each core's links
  // and shared: two cores moving the same bytes need twice the port time.
  auto model = parseArch(deviceText(2, 16, 4));
  ASSERT_TRUE(model);
  const int64_t bytes = 4096;
  SimResult one = run(assemble(copyProgram(bytes, "0")), *model);
  SimResult two = run(assemble(copyProgram(bytes, "0 1")), *model);
  // Both cores read the same symbol here; what matters is the shared port.
  const int64_t latency = 10 + 1;
  EXPECT_EQ(one.totalCycles.count(), latency + bytes / 16);
  EXPECT_EQ(two.totalCycles.count() - latency, 2 * (one.totalCycles.count() - latency));
}

/// The load unit pushes `vectors` vectors to the vector unit, which takes
/// an `exp` (cost from the description) per vector before taking the next.
std::string pacedProgram(int vectors) {
  return llvm::formatv(R"(ktdc 1
program @ld
instances 0
  loop {0}
    push @vec, @s+i0*64, 64
  end
program @vec
instances 0
  loop {0}
    recv v0, f16, 32, @ld
    exp v1, v0
  end
)",
                       vectors)
      .str();
}

TEST_F(SimulatorTest, DepthOneFifoPacesFastProducer) {
  const int vectors = 32, expCost = 8;
  auto shallow = parseArch(deviceText(1, 64, 1, expCost));
  auto deep = parseArch(deviceText(1, 64, 64, expCost));
  ASSERT_TRUE(shallow && deep);
  SimResult paced = run(assemble(pacedProgram(vectors)), *shallow);
  SimResult free = run(assemble(pacedProgram(vectors)), *deep);
  const UnitStats *pacedLd = unit(paced, "@ld[core=0]");
  const UnitStats *freeLd = unit(free, "@ld[core=0]");
  ASSERT_TRUE(pacedLd && freeLd);
  // With room for every vector the producer streams at link speed (one
  // vector per cycle after the scratchpad latency) and never stalls.
  EXPECT_EQ(freeLd->stall.count(), 0);
  EXPECT_LT(freeLd->finish.count(), 2 * vectors);
  // With one slot it can only push after the consumer took the previous
  // vector: it runs at the consumer's pace of one exp per vector.
  EXPECT_GT(pacedLd->stall.count(), 0);
  EXPECT_GE(pacedLd->finish.count(), (vectors - 2) * expCost);
  // The consumer's work is the same either way.
  EXPECT_EQ(unit(paced, "@vec[core=0]")->busy.count(), vectors * expCost);
}

TEST_F(SimulatorTest, BackToBackMessagesOnOneLinkPipeline) {
  // A link of latency L and bandwidth B accepts a new message every
  // bytes / B cycles; latency only delays arrival. N pushes of one 64-byte
  // granule over @s_to_ld (64 B/cycle, latency 2) and @ld_to_vec (64
  // B/cycle, latency 1, deep enough never to fill) take the route's latency
  // plus N cycles, not N times the latency.
  const int vectors = 32;
  auto model = parseArch(deviceText(1, 64, vectors, /*expCost=*/1));
  ASSERT_TRUE(model);
  SimResult r = run(assemble(llvm::formatv(R"(ktdc 1
program @ld
instances 0
  loop {0}
    push @vec, @s+i0*64, 64
  end
program @vec
instances 0
  loop {0}
    recv v0, f16, 32, @ld
  end
)",
                                           vectors)
                                 .str()),
                    *model);
  const int64_t latency = 2 + 1;
  EXPECT_EQ(unit(r, "@ld[core=0]")->finish.count(), vectors);
  EXPECT_EQ(unit(r, "@vec[core=0]")->finish.count(), latency + vectors);
}

TEST_F(SimulatorTest, SmallTransfersShareAWidePortBySubCycleSlots) {
  // Two cores each copy 64 runs of 64 bytes from @g, whose port moves 128
  // B/cycle: a 64-byte run holds it for half a cycle, so the two cores'
  // runs fit side by side and each core is paced by its own 64 B/cycle
  // link (one run per cycle), as if alone. Rounding every run up to a
  // whole port cycle would serialise them: 128 cycles instead of 64.
  const int runs = 64;
  auto model = parseArch(deviceText(2, 128, 4));
  ASSERT_TRUE(model);
  std::string program = llvm::formatv(R"(ktdc 1
device test
symbol $A f16 {0} in
program @dma
instances {1}
  loop {2}
    copy @s+i0*64, $A+i0*64, run 64
  end
)",
                                      runs * 32, "{0}", runs)
                            .str();
  SimResult one = run(assemble(llvm::formatv(program.c_str(), "0").str()), *model);
  SimResult two = run(assemble(llvm::formatv(program.c_str(), "0 1").str()), *model);
  const int64_t latency = 10 + 1;
  EXPECT_EQ(one.totalCycles.count(), latency + runs);
  // The second core's runs trail the first's by half a port cycle.
  EXPECT_LE(two.totalCycles.count(), one.totalCycles.count() + 1);
}

TEST_F(SimulatorTest, StreamsShareAPortWithoutWastingItsGaps) {
  // Core 0 reads 4096 bytes from @g while core 1 writes 4096 bytes to it;
  // @g's port (96 B/cycle) is shared and slower than the two 64 B/cycle
  // links together, so it bounds both: 8192 / 96 cycles plus the route's
  // latency. Each stream leaves a third of every port cycle free; the
  // other stream must be able to use those gaps even though one of its
  // granules needs two thirds of a cycle. Until the write's first bytes
  // reach the port (its route's latency) the read alone leaves a third of
  // the port idle, which no schedule recovers. Wasting the gaps would
  // serialise the streams: at least 64 + 64 cycles.
  auto model = parseArch(deviceText(2, 96, 4));
  ASSERT_TRUE(model);
  SimResult r = run(assemble(R"(ktdc 1
device test
symbol $A f16 2048 in
symbol $B f16 2048 out
program @dma
instances 0
  copy @s, $A, run 4096
program @dma
instances 1
  copy $B, @s, run 4096
)"),
                    *model);
  const int64_t latency = 10 + 1, bytes = 2 * 4096, port = 96;
  const int64_t idleBeforeWrite = (latency + 2) / 3;
  EXPECT_LE(r.totalCycles.count(), latency + (bytes + port - 1) / port + idleBeforeWrite + 1);
  EXPECT_GE(r.totalCycles.count(), latency + bytes / port);
}

/// deviceText with the timing fields: @g's port sustains `mixed` B/cycle
/// for balanced reads and writes, and the DMA spends `issue` cycles on
/// every copy before its data moves.
std::string timedDeviceText(int cores, int portBandwidth, int mixed, int issue) {
  std::string text = deviceText(cores, portBandwidth, 4);
  std::string port = "bandwidth = " + std::to_string(portBandwidth) + "}";
  text.replace(text.find(port), port.size(),
               "bandwidth = " + std::to_string(portBandwidth) +
                   ", mixed_bandwidth = " + std::to_string(mixed) + "}");
  std::string dma = "ktarch.dma @dma {semaphores = 32, access = [#g_rule, #s_rule]}";
  text.replace(text.find(dma), dma.size(),
               "ktarch.dma @dma {semaphores = 32, access = [#g_rule, #s_rule], issue_cost = " +
                   std::to_string(issue) + "}");
  return text;
}

const char *kReadThenWrite = R"(ktdc 1
device test
symbol $A f16 2048 in
symbol $B f16 2048 out
program @dma
instances 0
  copy @s, $A, run 4096
program @dma
instances 1
  copy $B, @s, run 4096
)";

TEST_F(SimulatorTest, MixedReadsAndWritesCostThePortItsBalancedRate) {
  // 4096 bytes read and 4096 written through @g's port: balanced traffic,
  // so the port is busy 2 x 4096 / 8 = 1024 cycles at mixed_bandwidth 8,
  // where without a mix cost it is 8192 / 16 = 512 (the twin below).
  auto mixed = parseArch(timedDeviceText(2, 16, 8, 0));
  auto free = parseArch(deviceText(2, 16, 4));
  ASSERT_TRUE(mixed && free);
  SimResult costly = run(assemble(kReadThenWrite), *mixed);
  SimResult plain = run(assemble(kReadThenWrite), *free);
  ASSERT_EQ(costly.ports.size(), 1u);
  ASSERT_EQ(plain.ports.size(), 1u);
  EXPECT_EQ(costly.ports[0].busy.count(), 1024);
  EXPECT_EQ(plain.ports[0].busy.count(), 512);
  EXPECT_GE(costly.totalCycles.count(), 1024);
}

TEST_F(SimulatorTest, OneDirectionPaysNoMixCost) {
  // Only reads: the port's full 16 B/cycle, mix cost or not.
  auto mixed = parseArch(timedDeviceText(1, 16, 8, 0));
  ASSERT_TRUE(mixed);
  SimResult r = run(assemble(copyProgram(4096, "0")), *mixed);
  EXPECT_EQ(r.totalCycles.count(), 10 + 1 + 4096 / 16);
}

TEST_F(SimulatorTest, DmaIssueCostSpacesCopiesAndHidesBehindLargeOnes) {
  // The single-transfer case plus 20 cycles of the first descriptor's
  // set-up; the next set-up overlaps the previous copy's data.
  auto model = parseArch(timedDeviceText(1, 64, 64, 20));
  ASSERT_TRUE(model);
  SimResult one = run(assemble(copyProgram(4096, "0")), *model);
  EXPECT_EQ(one.totalCycles.count(), 20 + 10 + 1 + 4096 / 64);
  SimResult two = run(assemble(R"(ktdc 1
device test
symbol $A f16 2048 in
program @dma
instances 0
  copy @s, $A, run 2048
  copy @s+2048, $A+2048, run 2048
)"),
                      *model);
  // The second copy (ready at 20 + 20) waits only for the first's data to
  // leave the port (at 20 + 2048 / 64): its set-up is hidden.
  EXPECT_EQ(two.totalCycles.count(), 20 + 2048 / 64 + 10 + 1 + 2048 / 64);
  EXPECT_EQ(unit(two, "@dma[core=0]")->instructions, 2u);
  // Four 128-byte copies (2 cycles of data each) start 20 cycles apart.
  SimResult small = run(assemble(R"(ktdc 1
device test
symbol $A f16 2048 in
program @dma
instances 0
  copy @s, $A, run 128
  copy @s+128, $A+128, run 128
  copy @s+256, $A+256, run 128
  copy @s+384, $A+384, run 128
)"),
                        *model);
  EXPECT_EQ(small.totalCycles.count(), 4 * 20 + 10 + 1 + 128 / 64);
}

TEST_F(SimulatorTest, SlowStreamLeavesAWideResourceFreeBetweenItsChunks) {
  // The DMA fills @s at 64 B/cycle (its link) through @s's port of 256
  // B/cycle while the load unit reads @s through the same port: the DMA
  // stream uses a quarter of the port, so the reads are not delayed by it.
  // Holding the port from the stream's first byte to its last would stall
  // the load unit for the whole copy (4096 / 64 = 64 cycles).
  const int vectors = 32;
  auto model = parseArch(deviceText(1, 64, vectors, 1, /*scratchpadPort=*/256));
  ASSERT_TRUE(model);
  std::string loads = llvm::formatv(R"(
program @ld
instances 0
  loop {0}
    push @vec, @s+8192+i0*64, 64
  end
program @vec
instances 0
  loop {0}
    recv v0, f16, 32, @ld
  end
)",
                                    vectors)
                          .str();
  SimResult alone = run(assemble("ktdc 1\n" + loads), *model);
  SimResult shared = run(assemble(copyProgram(4096, "0") + loads), *model);
  EXPECT_EQ(unit(alone, "@ld[core=0]")->finish.count(), vectors);
  EXPECT_EQ(unit(shared, "@ld[core=0]")->finish.count(),
            unit(alone, "@ld[core=0]")->finish.count());
  // The copy itself still takes latency + bytes / link bandwidth.
  EXPECT_EQ(unit(shared, "@dma[core=0]")->finish.count(), 4096 / 64);
}

TEST_F(SimulatorTest, DeadlockIsReportedNotHung) {
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  // Each unit waits for the other's signal before sending its own.
  dc::Bundle bundle = assemble(R"(ktdc 1
program @dma
  wait 0, 1
  signal @ld, 0
program @ld
  wait 0, 1
  signal @dma, 0
)");
  SimResult r = run(bundle, *model);
  ASSERT_TRUE(r.deadlock.has_value());
  EXPECT_NE(r.deadlock->find("@dma[core=0] at instruction 0 (wait) waits for semaphore 0"),
            std::string::npos)
      << *r.deadlock;
  EXPECT_NE(r.deadlock->find("cycle of waits"), std::string::npos) << *r.deadlock;
  llvm::Error check = checkDeadlockFree(bundle, *model);
  ASSERT_TRUE(bool(check));
  EXPECT_NE(llvm::toString(std::move(check)).find("cycle of waits"), std::string::npos);
}

TEST_F(SimulatorTest, FifoDeadlockNamesTheCycle) {
  auto model = parseArch(deviceText(1, 64, 1));
  ASSERT_TRUE(model);
  // The vector unit sends back before receiving; the store unit waits for a
  // semaphore the load unit only signals after its second push fits.
  dc::Bundle bundle = assemble(R"(ktdc 1
program @ld
  push @vec, @s, 64
  push @vec, @s, 64
  signal @st, 0
program @vec
  wait 0, 1
  recv v0, f16, 32, @ld
program @st
  wait 0, 1
  signal @vec, 0
)");
  llvm::Error check = checkDeadlockFree(bundle, *model);
  ASSERT_TRUE(bool(check));
  std::string text = llvm::toString(std::move(check));
  EXPECT_NE(text.find("space in FIFO @ld_to_vec"), std::string::npos) << text;
  EXPECT_NE(text.find("cycle of waits: @ld[core=0] -> @vec[core=0] -> @st[core=0] -> "
                      "@ld[core=0]"),
            std::string::npos)
      << text;
}

TEST_F(SimulatorTest, DeadlockCycleFollowsTableSelectedPeers) {
  auto model = parseArch(deviceText(2, 64, 4));
  ASSERT_TRUE(model);
  // SPMD over both cores, crossed: each DMA waits for the load unit of the
  // other core, which waits for that DMA. The cycle must follow the table.
  dc::Bundle bundle = assemble(R"(ktdc 1
program @dma
table 1
row 1
row 0
  wait 0, 1
  signal @ld[t0], 0
program @ld
table 1
row 1
row 0
  wait 0, 1
  signal @dma[t0], 0
)");
  llvm::Error check = checkDeadlockFree(bundle, *model);
  ASSERT_TRUE(bool(check));
  std::string text = llvm::toString(std::move(check));
  EXPECT_NE(text.find("cycle of waits: @dma[core=0] -> @ld[core=1] -> @dma[core=0]"),
            std::string::npos)
      << text;
}

TEST_F(SimulatorTest, NoDeadlockWhenSignalsMatch) {
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
program @dma
  signal @ld, 0
  wait 0, 1
program @ld
  wait 0, 1
  signal @dma, 0
)");
  EXPECT_FALSE(bool(checkDeadlockFree(bundle, *model)));
  EXPECT_FALSE(run(bundle, *model).deadlock.has_value());
}

std::vector<uint8_t> halfBytes(const std::vector<float> &values) {
  std::vector<uint8_t> bytes(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) {
    uint16_t h = interp::floatToHalfBits(values[i]);
    std::memcpy(&bytes[2 * i], &h, 2);
  }
  return bytes;
}

float halfAt(const std::vector<uint8_t> &bytes, size_t i) {
  uint16_t h;
  std::memcpy(&h, &bytes[2 * i], 2);
  return interp::halfBitsToFloat(h);
}

/// C = A + B through the whole sample pipeline on one sub-core:
/// DMA in, load unit -> FIFO -> vector add -> FIFO -> store unit, DMA out.
const char *addProgram = R"(ktdc 1
device sample
symbol $A f16 256 in
symbol $B f16 256 in
symbol $C f16 256 out

program @dma
instances 0
  copy @spad, $A, run 512
  copy @spad+512, $B, run 512
  signal @ld[0], 0
  wait 0, 1
  copy $C, @spad+1024, run 512

program @ld
instances 0
  wait 0, 1
  loop 8
    push @vec, @spad+i0*64, 64
    push @vec, @spad+512+i0*64, 64
  end

program @vec
instances 0
  loop 8
    recv v0, f16, 32, @ld
    recv v1, f16, 32, @ld
    add v2, v0, v1
    send @st, v2
  end

program @st
instances 0
  loop 8
    pop @vec, @spad+1024+i0*64, 64
  end
  signal @dma[0], 0
)";

TEST_F(SimulatorTest, AddThroughThePipelineComputesRoundedSums) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<float> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = interp::roundToHalf(0.1f * i - 7.3f);
    b[i] = interp::roundToHalf(1.0f / (i + 3));
  }
  dc::Bundle bundle = assemble(addProgram);
  EXPECT_FALSE(bool(checkCapacity(bundle, *model)));
  EXPECT_FALSE(bool(checkDeadlockFree(bundle, *model)));
  SimResult r = run(bundle, *model, {{"A", halfBytes(a)}, {"B", halfBytes(b)}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  const std::vector<uint8_t> &c = r.buffers["C"];
  ASSERT_EQ(c.size(), 512u);
  for (int i = 0; i < 256; ++i)
    ASSERT_EQ(halfAt(c, i), interp::roundToHalf(a[i] + b[i])) << "element " << i;
  EXPECT_GT(r.totalCycles.count(), 0);
}

/// C = f32(A) + B with A f16 and B, C f32, one step of 32 elements on
/// sample, whose load and store units move exactly 64 bytes: A is one
/// access (32 f16), B two (16 f32 each) joined by `concat`, and C leaves as
/// two `slice`s. `sliceLane` is where the second slice starts.
std::string mixedProgram(int sliceLane) {
  return llvm::formatv(R"(ktdc 1
device sample
symbol $A f16 32 in
symbol $B f32 32 in
symbol $C f32 32 out

program @dma
instances 0
  copy @spad, $A, run 64
  copy @spad+64, $B, run 128
  signal @ld[0], 0
  wait 0, 1
  copy $C, @spad+192, run 128

program @ld
instances 0
  wait 0, 1
  push @vec, @spad, 64
  push @vec, @spad+64, 64
  push @vec, @spad+128, 64

program @vec
instances 0
  recv v0, f16, 32, @ld
  recv v1, f32, 16, @ld
  recv v2, f32, 16, @ld
  cast v3, f32, v0
  concat v4, v1, v2
  add v5, v3, v4
  slice v6, v5, 0, 16
  send @st, v6
  slice v7, v5, {0}, 16
  send @st, v7

program @st
instances 0
  pop @vec, @spad+192, 64
  pop @vec, @spad+256, 64
  signal @dma[0], 0
)",
                       sliceLane)
      .str();
}

TEST_F(SimulatorTest, ConcatAndSliceCarryAWideVectorInAccesses) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<float> a(32), b(32);
  for (int i = 0; i < 32; ++i) {
    a[i] = interp::roundToHalf(0.37f * i - 3.1f);
    b[i] = 1.0f / (i + 3);
  }
  std::vector<uint8_t> bBytes(128);
  std::memcpy(bBytes.data(), b.data(), 128);
  dc::Bundle bundle = assemble(mixedProgram(16));
  EXPECT_FALSE(bool(checkCapacity(bundle, *model)));
  EXPECT_FALSE(bool(checkDeadlockFree(bundle, *model)));
  SimResult r = run(bundle, *model, {{"A", halfBytes(a)}, {"B", bBytes}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  const std::vector<uint8_t> &c = r.buffers["C"];
  ASSERT_EQ(c.size(), 128u);
  for (int i = 0; i < 32; ++i) {
    float got;
    std::memcpy(&got, &c[4 * i], 4);
    EXPECT_EQ(got, a[i] + b[i]) << "element " << i;
  }
}

// Negative twin: a slice past the register's last lane is an error, not a
// read past the values.
TEST_F(SimulatorTest, SlicePastTheRegisterIsAnError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  llvm::Expected<SimResult> r = simulate(assemble(mixedProgram(17)), *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("lanes 17..32 of a 32-element register"),
            std::string::npos);
}

// A concat joins one element type only (a conversion is a `cast`).
TEST_F(SimulatorTest, ConcatOfTwoElementTypesIsAnError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::string text = mixedProgram(16);
  size_t at = text.find("concat v4, v1, v2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 17, "concat v4, v0, v2");
  llvm::Expected<SimResult> r = simulate(assemble(text), *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("concat operands differ in element type"),
            std::string::npos);
}

/// C = extsi(trunci(max(A * B + K, -A), i8)) on i32 lanes through the
/// sample pipeline (16 i32 per 64-byte access), then cmp/select: D = A < B
/// ? A : B. `op` replaces the mul (a float-only op is an error).
std::string integerProgram(llvm::StringRef op = "mul") {
  return llvm::formatv(R"(ktdc 1
device sample
symbol $A i32 256 in
symbol $B i32 256 in
symbol $C i32 256 out
symbol $D i32 256 out

program @dma
instances 0
  copy @spad, $A, run 1024
  copy @spad+1024, $B, run 1024
  signal @ld[0], 0
  wait 0, 1
  copy $C, @spad+2048, run 1024
  copy $D, @spad+3072, run 1024

program @ld
instances 0
  wait 0, 1
  loop 16
    push @vec, @spad+i0*64, 64
    push @vec, @spad+1024+i0*64, 64
  end

program @vec
instances 0
  loop 16
    recv v0, i32, 16, @ld
    recv v1, i32, 16, @ld
    {0} v2, v0, v1
    vconst v3, i32, 16, -2000000000
    add v2, v2, v3
    neg v4, v0
    max v5, v2, v4
    cast v6, i8, v5
    cast v7, i32, v6
    send @st, v7
    cmp.lt v8, v0, v1
    select v9, v8, v0, v1
    send @st, v9
  end

program @st
instances 0
  loop 16
    pop @vec, @spad+2048+i0*64, 64
    pop @vec, @spad+3072+i0*64, 64
  end
  signal @dma[0], 0
)",
                       op)
      .str();
}

std::vector<uint8_t> i32Bytes(const std::vector<int32_t> &values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

int32_t i32At(const std::vector<uint8_t> &bytes, size_t i) {
  int32_t v;
  std::memcpy(&v, &bytes[4 * i], 4);
  return v;
}

// Integer lanes wrap at their width after every op (the product and the
// sum overflow i32), trunci keeps the low 8 bits and extsi sign-extends
// them, as the interpreter's integer tensors do (ktir.md "Integer
// semantics"); the compare's mask selects lane-wise.
TEST_F(SimulatorTest, IntegerLanesWrapLikeTheInterpreter) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<int32_t> a(256), b(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = 100003 * i - 12345678;
    b[i] = 7919 * (i % 37) - 99991;
  }
  SimResult r = run(assemble(integerProgram()), *model, {{"A", i32Bytes(a)}, {"B", i32Bytes(b)}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  ASSERT_EQ(r.buffers["C"].size(), 1024u);
  int wrapped = 0;
  for (int i = 0; i < 256; ++i) {
    int64_t exact = int64_t(a[i]) * b[i] - 2000000000;
    int32_t sum = int32_t(uint32_t(a[i]) * uint32_t(b[i]) + uint32_t(-2000000000));
    wrapped += exact != sum;
    int32_t m = std::max(sum, int32_t(0u - uint32_t(a[i])));
    ASSERT_EQ(i32At(r.buffers["C"], i), int32_t(int8_t(m))) << "element " << i;
    ASSERT_EQ(i32At(r.buffers["D"], i), std::min(a[i], b[i])) << "element " << i;
  }
  EXPECT_GT(wrapped, 100); // the data exercise the wrap
}

// Division (and pow, fma, the transcendentals) has no integer form: the
// simulator names the instruction and the register, never computes junk.
TEST_F(SimulatorTest, FloatOnlyOpOnIntegerLanesIsAnError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  llvm::Expected<SimResult> r = simulate(assemble(integerProgram("div")), *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("'div' has no form for i32 lanes (v0)"),
            std::string::npos);
}

/// A DMA gather on sample: 8 rows of a 64 x 128 f16 table ($T, 256-byte
/// rows) named by the i32 indices $I[4..12) land in the scratchpad, then
/// a copy writes them to $O once they have landed (the engine's signal to
/// itself follows its writes). `bound` is the table's row count the gather
/// may name.
std::string gatherProgram(int bound = 64) {
  return llvm::formatv(R"(ktdc 1
device sample
symbol $T f16 64x128 in
symbol $I i32 16 in
symbol $O f16 8x128 out

program @dma
instances 0
  gather @spad, $T, run 256, dim 8 256 256, index $I+16, i32, bound {0}
  signal @dma[0], 0
  wait 0, 1
  copy $O, @spad, run 2048
)",
                       bound)
      .str();
}

// Indices fetched first, then the rows they name: the output holds
// table[ids[4 + r]] row by row (repeated and unsorted indices included).
// The bundle round-trips through the binary (version 5) and the text form.
TEST_F(SimulatorTest, GatherCopiesTheRowsItsIndicesName) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<float> table(64 * 128);
  for (int i = 0; i < 64 * 128; ++i)
    table[i] = interp::roundToHalf(float(i % 977) * 0.25f);
  std::vector<int32_t> ids = {5, 9, 63, 0, 7, 7, 31, 2, 40, 1, 0, 11, 3, 62, 8, 15};
  dc::Bundle bundle = assemble(gatherProgram());
  std::vector<uint8_t> bytes = dc::encodeBundle(bundle);
  ASSERT_EQ(bytes[4], 5u);
  llvm::Expected<dc::Bundle> decoded = dc::decodeBundle(bytes, "mem");
  ASSERT_TRUE(bool(decoded)) << llvm::toString(decoded.takeError());
  std::string text;
  llvm::raw_string_ostream os(text);
  dc::printBundle(*decoded, os);
  EXPECT_NE(text.find("gather @spad, $T, run 256, dim 8 256 256, index $I+16, i32, bound 64"),
            std::string::npos)
      << text;
  EXPECT_FALSE(bool(checkCapacity(bundle, *model)));
  SimResult r = run(bundle, *model, {{"T", halfBytes(table)}, {"I", i32Bytes(ids)}});
  const std::vector<uint8_t> &out = r.buffers["O"];
  ASSERT_EQ(out.size(), 2048u);
  for (int row = 0; row < 8; ++row)
    for (int c = 0; c < 128; ++c)
      ASSERT_EQ(halfAt(out, row * 128 + c), table[ids[4 + row] * 128 + c])
          << "row " << row << " column " << c;
}

// An index outside the view's rows is an error located at the gather,
// never a read of whatever lies there.
TEST_F(SimulatorTest, GatherIndexOutOfRangeIsALocatedError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<int32_t> ids = {5, 9, 63, 0, 7, 7, 31, 2, 40, 1, 0, 11, 3, 62, 8, 15};
  // Entry 2 of the 8 read (ids[6] = 31) is outside a 16-row view.
  llvm::Expected<SimResult> r = simulate(assemble(gatherProgram(16)), *model,
                                         {{"I", i32Bytes(ids)}});
  ASSERT_FALSE(bool(r));
  std::string message = llvm::toString(r.takeError());
  EXPECT_NE(message.find("instruction 0 (gather): gather index 31 (entry 2 of the indices"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("is outside the view's [0, 16)"), std::string::npos) << message;
  ids[6] = -1;
  r = simulate(assemble(gatherProgram()), *model, {{"I", i32Bytes(ids)}});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("gather index -1 (entry 2"), std::string::npos);
}

TEST_F(SimulatorTest, ReductionKeepsAnAccumulatorAcrossVectors) {
  // deep: the vector unit reads and writes its L1 directly (no load/store
  // units) and the data crosses two DMA levels.
  auto model = loadArch("deep");
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
symbol $X f32 64 in
symbol $S f32 16 out
program @l2_dma
  copy @l2, $X, run 256
  signal @tile_dma[0], 0
  wait 0, 1
  copy $S, @l2+256, run 64
program @tile_dma
instances 0
  wait 0, 1
  copy @l1, @l2, run 256
  signal @vpu[0], 0
  wait 0, 1
  copy @l2+256, @l1+256, run 64
  signal @l2_dma, 0
program @vpu
instances 0
  wait 0, 1
  vconst v0, f32, 16, 0
  loop 4
    vload v1, f32, 16, @l1+i0*64
    add v0, v0, v1
  end
  reduce.add v2, v0
  bcast v3, v2, 0, 16
  vstore @l1+256, v3
  signal @tile_dma[0], 0
)");
  std::vector<float> x(64);
  std::vector<uint8_t> bytes(256);
  for (int i = 0; i < 64; ++i)
    x[i] = i == 0 ? 16777216.0f : i < 16 ? 1.0f : 0.0f;
  // 2^24 + 1 rounds back to 2^24, so a left-to-right fold across the lanes
  // gives 2^24 and the tree 2^24 + 14: the test sees the order.
  std::memcpy(bytes.data(), x.data(), 256);
  SimResult r = run(bundle, *model, {{"X", bytes}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  // Reference: the same order of operations, lane-wise, then reduce.add's
  // halving tree across the lanes (lane i + 8 into lane i, then + 4, ...).
  float lanes[16] = {};
  for (int v = 0; v < 4; ++v)
    for (int l = 0; l < 16; ++l)
      lanes[l] += x[v * 16 + l];
  for (int half = 8; half >= 1; half /= 2)
    for (int l = 0; l < half; ++l)
      lanes[l] += lanes[l + half];
  float sum = lanes[0];
  ASSERT_EQ(sum, 16777216.0f + 14.0f);
  const std::vector<uint8_t> &s = r.buffers["S"];
  ASSERT_EQ(s.size(), 64u);
  for (int l = 0; l < 16; ++l) {
    float got;
    std::memcpy(&got, &s[4 * l], 4);
    EXPECT_EQ(got, sum) << "lane " << l;
  }
}

TEST_F(SimulatorTest, OutOfBoundsAccessIsAnErrorNotACrash) {
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
program @ld
  push @vec, @s+65536, 64
)");
  llvm::Error capacity = checkCapacity(bundle, *model);
  ASSERT_TRUE(bool(capacity));
  EXPECT_NE(llvm::toString(std::move(capacity)).find("does not fit"), std::string::npos);
  llvm::Expected<SimResult> r = simulate(bundle, *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("outside @s"), std::string::npos);
}

// kbin-fuzzer finding: address ranges of loaded code overflowed int64 in
// the capacity check (UB, reported under make test-asan); they saturate
// and fail the check.
TEST_F(SimulatorTest, CapacityCheckOfHugeStridesDoesNotOverflow) {
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
program @ld
  loop 11
    push @vec, @s+9223372036854775000+i0*7162256126728208512, 64
  end
)");
  llvm::Error capacity = checkCapacity(bundle, *model);
  ASSERT_TRUE(bool(capacity));
  EXPECT_NE(llvm::toString(std::move(capacity)).find("does not fit"), std::string::npos);
}

// kbin-fuzzer finding: a copy's extent (stride x count) overflowed int64
// in the simulator (UB under make test-asan); it is an error now.
TEST_F(SimulatorTest, CopyExtentOverflowIsAnError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
symbol $A f16 32 in
program @dma
instances 0
  copy @spad, $A, run 64, dim 15 6148914691247636224 64
)");
  llvm::Expected<SimResult> r = simulate(bundle, *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("the copy's extent overflows"),
            std::string::npos);
}

/// C = C0 + A x B on sample's 4x4 matrix unit @mxu with A f16 4 x 16 and
/// B f16 16 x 4 given as two K blocks of 8 (A1 = A[:, 0:8] 4 x 8, then A2;
/// B1 = B[0:8, :], then B2: each one 64-byte access), C0 and C f32 4 x 4.
/// `operand` is the type the second block is received as.
std::string mmaProgram(llvm::StringRef unit, llvm::StringRef operand = "f16") {
  return llvm::formatv(R"(ktdc 1
device sample
symbol $A1 f16 32 in
symbol $A2 f16 32 in
symbol $B1 f16 32 in
symbol $B2 f16 32 in
symbol $C0 f32 16 in
symbol $C f32 16 out

program @dma
instances 0
  copy @spad, $A1, run 64
  copy @spad+64, $B1, run 64
  copy @spad+128, $A2, run 64
  copy @spad+192, $B2, run 64
  copy @spad+256, $C0, run 64
  signal @ld[0], 0
  wait 0, 1
  copy $C, @spad+320, run 64

program @ld
instances 0
  wait 0, 1
  push @{0}, @spad+256, 64
  push @{0}, @spad, 64
  push @{0}, @spad+64, 64
  push @{0}, @spad+128, 64
  push @{0}, @spad+192, 64

program @{0}
instances 0
  recv v0, f32, 16, @ld
  recv v1, f16, 32, @ld
  recv v2, f16, 32, @ld
  mma v0, v1, v2, 8
  recv v3, f16, 32, @ld
  recv v4, {1}, {2}, @ld
  mma v0, v3, v4, 8
  send @st, v0

program @st
instances 0
  pop @{0}, @spad+320, 64
  signal @dma[0], 0
)",
                       unit, operand, operand == "f16" ? 32 : 16)
      .str();
}

TEST_F(SimulatorTest, MatrixUnitAccumulatesKBlocksLikeTheInterpreter) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  interp::Tensor a(interp::ElemKind::F32, {4, 16}), b(interp::ElemKind::F32, {16, 4}),
      c0(interp::ElemKind::F32, {4, 4});
  for (interp::Tensor *t : {&a, &b, &c0})
    for (int64_t i = 0; i < t->numElements(); ++i)
      t->f32()[i] = interp::roundToHalf(dist(rng));
  std::vector<float> a1, a2, b1, b2;
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t k = 0; k < 16; ++k)
      (k < 8 ? a1 : a2).push_back(a.f32()[i * 16 + k]);
  for (int64_t k = 0; k < 16; ++k)
    for (int64_t j = 0; j < 4; ++j)
      (k < 8 ? b1 : b2).push_back(b.f32()[k * 4 + j]);
  std::vector<uint8_t> c0Bytes(64);
  std::memcpy(c0Bytes.data(), c0.f32(), 64);
  dc::Bundle bundle = assemble(mmaProgram("mxu"));
  EXPECT_FALSE(bool(checkCapacity(bundle, *model)));
  EXPECT_FALSE(bool(checkDeadlockFree(bundle, *model)));
  SimResult r = run(bundle, *model,
                    {{"A1", halfBytes(a1)}, {"A2", halfBytes(a2)}, {"B1", halfBytes(b1)},
                     {"B2", halfBytes(b2)}, {"C0", c0Bytes}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  interp::TensorPtr want = interp::matmul(a, b, c0);
  const std::vector<uint8_t> &c = r.buffers["C"];
  ASSERT_EQ(c.size(), 64u);
  for (int i = 0; i < 16; ++i) {
    float got;
    std::memcpy(&got, c.data() + 4 * i, 4);
    ASSERT_EQ(got, want->f32()[i]) << "element " << i;
  }
  // Each mma is one 4x4 tile over 8 = 2 x 4 lanes of depth: 2 issues of
  // cost 1; with the send of 64 bytes over the 64 B/cycle FIFO @mxu is
  // busy 2 + 2 + 1 cycles.
  const UnitStats *mxu = unit(r, "@mxu[core=0,subcore=0]");
  ASSERT_TRUE(mxu);
  EXPECT_EQ(mxu->busy, Cycles(5));
}

TEST_F(SimulatorTest, MatrixInstructionErrorsNameTheCause) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<uint8_t> zeros(64, 0);
  SymbolData inputs = {{"A1", zeros}, {"A2", zeros}, {"B1", zeros}, {"B2", zeros},
                       {"C0", zeros}};
  // On the vector unit: no op class 'matmul'.
  llvm::Expected<SimResult> onVec = simulate(assemble(mmaProgram("vec")), *model, inputs);
  ASSERT_FALSE(bool(onVec));
  EXPECT_NE(llvm::toString(onVec.takeError()).find("@vec has no op class 'matmul'"),
            std::string::npos);
  // Operands of two types.
  llvm::Expected<SimResult> mixed =
      simulate(assemble(mmaProgram("mxu", "f32")), *model, inputs);
  ASSERT_FALSE(bool(mixed));
  EXPECT_NE(llvm::toString(mixed.takeError()).find("differ in type"), std::string::npos);
}

TEST_F(SimulatorTest, UnitWithoutTheOpClassIsAnError) {
  auto model = parseArch(deviceText(1, 64, 4));
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(R"(ktdc 1
program @vec
  vconst v0, f16, 32, 1
  mul v1, v0, v0
)");
  llvm::Expected<SimResult> r = simulate(bundle, *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("no op class 'mul'"), std::string::npos);
}

/// Two sub-cores run one program whose `ext` takes its lane from the
/// table: each extracts the 32 lanes of the pair of vectors A[0..31],
/// A[32..63] at its own lane (5 and 31), as a column slice that starts
/// inside a vector needs.
std::string extProgram(int secondLane) {
  return llvm::formatv(R"(ktdc 1
device sample
symbol $A f16 64 in
symbol $C f16 64 out

program @dma
instances 0
  copy @spad, $A, run 128
  signal @ld[0], 0
  signal @ld[1], 0
  wait 0, 2
  copy $C, @spad+128, run 128

program @ld
instances 0 1
  wait 0, 1
  push @vec, @spad, 64
  push @vec, @spad+64, 64

program @vec
instances 0 1
table 1
row 5
row {0}
  recv v0, f16, 32, @ld
  recv v1, f16, 32, @ld
  ext v2, v0, v1, t0
  send @st, v2

program @st
instances 0 1
table 1
row 128
row 192
  pop @vec, @spad+t0, 64
  signal @dma[0], 0
)",
                       secondLane)
      .str();
}

TEST_F(SimulatorTest, ExtTakesItsLaneFromTheInstanceTable) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  std::vector<float> a(64);
  for (int i = 0; i < 64; ++i)
    a[i] = interp::roundToHalf(0.37f * i - 3.1f);
  dc::Bundle bundle = assemble(extProgram(31));
  EXPECT_FALSE(bool(checkDeadlockFree(bundle, *model)));
  SimResult r = run(bundle, *model, {{"A", halfBytes(a)}});
  ASSERT_FALSE(r.deadlock.has_value()) << *r.deadlock;
  const std::vector<uint8_t> &c = r.buffers["C"];
  ASSERT_EQ(c.size(), 128u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(halfAt(c, i), a[5 + i]) << "sub-core 0, lane " << i;
    EXPECT_EQ(halfAt(c, 32 + i), a[31 + i]) << "sub-core 1, lane " << i;
  }
}

// Negative twin: a table lane past the register is a located error.
TEST_F(SimulatorTest, ExtLanePastTheRegisterIsAnError) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(extProgram(32));
  llvm::Expected<SimResult> r = simulate(bundle, *model, {});
  ASSERT_FALSE(bool(r));
  EXPECT_NE(llvm::toString(r.takeError()).find("lane 32 of a 32-element register"),
            std::string::npos);
}

TEST_F(SimulatorTest, RunsAreDeterministic) {
  auto model = loadArch("sample");
  ASSERT_TRUE(model);
  dc::Bundle bundle = assemble(addProgram);
  SymbolData inputs{{"A", std::vector<uint8_t>(512, 0x3c)},
                    {"B", std::vector<uint8_t>(512, 0x3c)}};
  SimResult first = run(bundle, *model, inputs), second = run(bundle, *model, inputs);
  EXPECT_EQ(first.totalCycles, second.totalCycles);
  EXPECT_EQ(first.buffers, second.buffers);
}

TEST_F(SimulatorTest, CycleTimeUsesTheDeviceClock) {
  auto sample = loadArch("sample"); // 1000 MHz
  auto deep = loadArch("deep");     // 800 MHz
  ASSERT_TRUE(sample && deep);
  EXPECT_EQ(formatCycleTime(Cycles(9023), *sample), "9.02 us at 1000 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(9023), *deep), "11.3 us at 800 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(452), *sample), "452 ns at 1000 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(0), *sample), "0 ns at 1000 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(2097983), *sample), "2.10 ms at 1000 MHz");
  // The unit is chosen after rounding: 999.7 us is 1.00 ms, not "1000 us".
  EXPECT_EQ(formatCycleTime(Cycles(999700), *sample), "1.00 ms at 1000 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(999), *sample), "999 ns at 1000 MHz");
  EXPECT_EQ(formatCycleTime(Cycles(int64_t(5e12)), *sample), "5000 s at 1000 MHz");
}

} // namespace
