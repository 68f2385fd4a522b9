//===- WorkloadTest.cpp - cost::computeWorkload ---------------------------===//
//
// The roofline workload of small scheduled kernels on `sample`, checked
// against counts done by hand (docs/cost.md): a 32x64 f16 `add` over a grid
// of two tiles (16 rows each, one per core), the same kernel in two rounds
// of tiles, with a partly masked tile, and a row sum; a schedule that lacks
// a decision the count needs is a diagnostic, not a workload.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Cost/Workload.h"

#include "ktflow/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace ktflow;

namespace {

/// `ktflow gen --kernel add --shape 32x64 --grid 2 --dtype f16` as
/// `ktflow compile --arch sample` schedules it: tiles of 16x64 (one grid
/// tile each), split over the two sub-cores, every buffer in @spad.
const char *kAddSchedule = R"mlir(
#map = affine_map<(d0, d1, d2, d3) -> (d0 * 16, 0)>
module {
  ktsched.kernel @add_f16 attributes {arch = "sample", core_of_tile = #ktsched.decision<"linear", "heuristic">, device = "sample", grid = array<i64: 2, 1, 1>, merge = #ktsched.decision<{dim = 0 : i64, factor = 1 : i64}, "heuristic">, num_args = 3 : i64} {
    ktsched.tensor @arg0 {arg = 0 : i64, element_type = f16, lower_corner = array<i64: 0, 0>, offset = 0 : i64, shape = array<i64: 32, 64>, strides = array<i64: 64, 1>}
    ktsched.tensor @arg1 {arg = 1 : i64, element_type = f16, lower_corner = array<i64: 0, 0>, offset = 0 : i64, shape = array<i64: 32, 64>, strides = array<i64: 64, 1>}
    ktsched.tensor @arg2 {arg = 2 : i64, element_type = f16, lower_corner = array<i64: 0, 0>, offset = 0 : i64, shape = array<i64: 32, 64>, strides = array<i64: 64, 1>}
    ktsched.group @g0 attributes {element_type = f16, load_route = "@ddr -> @dma -> @spad -> @ld -> @vec", reduce_dims = array<i64>, space = array<i64: 16, 64>, store_route = "@vec -> @st -> @spad -> @dma -> @ddr"} {
      ktsched.pipeline attributes {classes = #ktsched.decision<[{shares = array<i64: 8, 8>, space = array<i64: 16, 64>, tiles = array<i64: 0, 1>}], "heuristic">, lead = #ktsched.decision<1 : i64, "heuristic">, level = 0 : i64, loop_order = #ktsched.decision<array<i64: 0, 1>, "heuristic">, moves = "tile", split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 8, 8>}, "heuristic">, tile = #ktsched.decision<array<i64: 8, 64>, "heuristic">, tile_counts = array<i64: 1, 1>} {
        %0:2 = ktsched.stage "dma_load" attributes {level = 0 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg0}, {dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg1}], unit = #ktsched.decision<"dma", "heuristic">} -> !ktsched.channel, !ktsched.channel
        %1 = ktsched.buffer %0#0 {address = #ktsched.decision<0 : i64, "heuristic">, bytes = 1024 : i64, depth = #ktsched.decision<2 : i64, "heuristic">, dims = array<i64: 0, 1>, element_type = f16, hoist = #ktsched.decision<false, "heuristic">, instance_stride = 6144 : i64, level = 0 : i64, memory = "spad", tensor = @arg0}
        %2 = ktsched.buffer %0#1 {address = #ktsched.decision<2048 : i64, "heuristic">, bytes = 1024 : i64, depth = #ktsched.decision<2 : i64, "heuristic">, dims = array<i64: 0, 1>, element_type = f16, hoist = #ktsched.decision<false, "heuristic">, instance_stride = 6144 : i64, level = 0 : i64, memory = "spad", tensor = @arg1}
        %3 = ktsched.stage "nested"(%1, %2) attributes {level = 0 : i64} -> !ktsched.channel {
          %5 = ktsched.pipeline attributes {level = 1 : i64, moves = "vector"} -> !ktsched.channel {
            %6:2 = ktsched.stage "load"(%1, %2) attributes {level = 1 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg0}, {dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg1}], unit = #ktsched.decision<"ld", "heuristic">} -> !ktsched.channel, !ktsched.channel
            %7 = ktsched.fifo %6#0 {depth = 4 : i64, level = 1 : i64, link = "ld_to_vec"}
            %8 = ktsched.fifo %6#1 {depth = 4 : i64, level = 1 : i64, link = "ld_to_vec"}
            %9 = ktsched.stage "compute"(%7, %8) attributes {level = 1 : i64, unit = #ktsched.decision<"vec", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">} -> !ktsched.channel {
            ^bb0(%arg0: f16, %arg1: f16):
              %12 = ktsched.vop "add"(%arg0, %arg1) : (f16, f16) -> f16
              ktsched.yield %12 : f16
            }
            %10 = ktsched.fifo %9 {depth = 4 : i64, level = 1 : i64, link = "vec_to_st"}
            %11 = ktsched.stage "store"(%10) attributes {level = 1 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg2}], unit = #ktsched.decision<"st", "heuristic">} -> !ktsched.channel
            ktsched.yield %11 : !ktsched.channel
          }
          ktsched.yield %5 : !ktsched.channel
        }
        %4 = ktsched.buffer %3 {address = #ktsched.decision<4096 : i64, "heuristic">, bytes = 1024 : i64, depth = #ktsched.decision<2 : i64, "heuristic">, dims = array<i64: 0, 1>, element_type = f16, instance_stride = 6144 : i64, level = 0 : i64, memory = "spad", tensor = @arg2}
        ktsched.stage "dma_store"(%4) attributes {level = 0 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 16, 64>, tensor = @arg2}], unit = #ktsched.decision<"dma", "heuristic">}
      }
    }
  }
}
)mlir";

/// `ktflow gen --kernel rowsum --shape 32x64 --grid 2 --dtype f16` on
/// `sample`, written by hand in the form the scheduler gives it: the two
/// grid tiles merged into one (per-tile results of 32 bytes are below the
/// DMA minimum), whose 32 row sums are one 64-byte store.
const char *kRowSumSchedule = R"mlir(
#map = affine_map<(d0, d1, d2, d3) -> (d0 * 32, 0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0 * 32)>
module {
  ktsched.kernel @rowsum_f16 attributes {arch = "sample", device = "sample", grid = array<i64: 1, 1, 1>, merge = #ktsched.decision<{dim = 0 : i64, factor = 2 : i64}, "heuristic">, num_args = 2 : i64} {
    ktsched.tensor @arg0 {arg = 0 : i64, element_type = f16, lower_corner = array<i64: 0, 0>, offset = 0 : i64, shape = array<i64: 32, 64>, strides = array<i64: 64, 1>}
    ktsched.tensor @arg1 {arg = 1 : i64, element_type = f16, lower_corner = array<i64: 0>, offset = 0 : i64, shape = array<i64: 32>, strides = array<i64: 1>}
    ktsched.group @g0 attributes {element_type = f16, reduce_dims = array<i64: 1>, space = array<i64: 32, 64>} {
      ktsched.pipeline attributes {classes = #ktsched.decision<[{shares = array<i64: 32, 0>, space = array<i64: 32, 64>, tiles = array<i64: 0>}], "heuristic">, level = 0 : i64, loop_order = #ktsched.decision<array<i64: 0, 1>, "heuristic">, moves = "tile", split = #ktsched.decision<{dim = 0 : i64, instances = 2 : i64, shares = array<i64: 32, 0>}, "heuristic">, tile = #ktsched.decision<array<i64: 32, 64>, "heuristic">} {
        %0 = ktsched.stage "dma_load" attributes {level = 0 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 32, 64>, tensor = @arg0}], unit = #ktsched.decision<"dma", "heuristic">} -> !ktsched.channel
        %1 = ktsched.buffer %0 {address = #ktsched.decision<0 : i64, "heuristic">, bytes = 4096 : i64, depth = #ktsched.decision<2 : i64, "heuristic">, dims = array<i64: 0, 1>, element_type = f16, level = 0 : i64, memory = "spad", tensor = @arg0}
        %2 = ktsched.stage "nested"(%1) attributes {level = 0 : i64} -> !ktsched.channel {
          %4 = ktsched.pipeline attributes {level = 1 : i64, moves = "vector"} -> !ktsched.channel {
            %5 = ktsched.stage "load"(%1) attributes {level = 1 : i64, transfers = [{dims = array<i64: 0, 1>, element_type = f16, origin = #map, shape = array<i64: 32, 64>, tensor = @arg0}], unit = #ktsched.decision<"ld", "heuristic">} -> !ktsched.channel
            %6 = ktsched.fifo %5 {depth = 4 : i64, level = 1 : i64, link = "ld_to_vec"}
            %7 = ktsched.stage "compute"(%6) attributes {level = 1 : i64, unit = #ktsched.decision<"vec", "heuristic">, vector = #ktsched.decision<32 : i64, "heuristic">} -> !ktsched.channel {
            ^bb0(%arg0: f16):
              %10 = ktsched.vop "const" {value = 0.000000e+00 : f16} : () -> f16
              %11 = ktsched.vop "reduce"(%arg0, %10) {combiner = "add", dim = 1 : i64} : (f16, f16) -> f16
              ktsched.yield %11 : f16
            }
            %8 = ktsched.fifo %7 {depth = 4 : i64, level = 1 : i64, link = "vec_to_st"}
            %9 = ktsched.stage "store"(%8) attributes {level = 1 : i64, transfers = [{dims = array<i64: 0>, element_type = f16, origin = #map1, shape = array<i64: 32>, tensor = @arg1}], unit = #ktsched.decision<"st", "heuristic">} -> !ktsched.channel
            ktsched.yield %9 : !ktsched.channel
          }
          ktsched.yield %4 : !ktsched.channel
        }
        %3 = ktsched.buffer %2 {address = #ktsched.decision<8192 : i64, "heuristic">, bytes = 64 : i64, depth = #ktsched.decision<2 : i64, "heuristic">, dims = array<i64: 0>, element_type = f16, level = 0 : i64, memory = "spad", tensor = @arg1}
        ktsched.stage "dma_store"(%3) attributes {level = 0 : i64, transfers = [{dims = array<i64: 0>, element_type = f16, origin = #map1, shape = array<i64: 32>, tensor = @arg1}], unit = #ktsched.decision<"dma", "heuristic">}
      }
    }
  }
}
)mlir";

std::string replaced(std::string text, llvm::StringRef from, llvm::StringRef to) {
  size_t at = text.find(from.str());
  EXPECT_NE(at, std::string::npos) << "no '" << from.str() << "' in the schedule";
  if (at != std::string::npos)
    text.replace(at, from.size(), to.str());
  return text;
}

class WorkloadTest : public ::testing::Test {
protected:
  WorkloadTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    std::string error;
    model = arch::ArchModel::load(context, "sample", error);
    EXPECT_TRUE(model) << error;
  }
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  /// The workload of `text`, or none; the first error diagnostic goes to
  /// `diagnostic`.
  std::optional<arch::Workload> workloadOf(const std::string &text) {
    mlir::ScopedDiagnosticHandler capture(&context, [&](mlir::Diagnostic &diag) {
      if (diagnostic.empty())
        diagnostic = diag.str();
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    EXPECT_TRUE(module) << diagnostic;
    if (!module)
      return std::nullopt;
    mlir::FailureOr<arch::Workload> workload = cost::computeWorkload(*module, *model);
    if (mlir::failed(workload))
      return std::nullopt;
    return std::move(*workload);
  }

  int64_t linkBytes(const arch::Workload &workload, llvm::StringRef name) {
    for (arch::LinkId id = 0; id < model->links().size(); ++id)
      if (model->links()[id].name == name) {
        auto it = workload.linkBytes().find(id);
        return it == workload.linkBytes().end() ? 0 : it->second.count();
      }
    ADD_FAILURE() << "no link " << name.str();
    return -1;
  }
  arch::NodeId node(llvm::StringRef name) { return *model->lookupNode(name); }
  int64_t memoryBytes(const arch::Workload &workload, llvm::StringRef name) {
    auto it = workload.memoryBytes().find(node(name));
    return it == workload.memoryBytes().end() ? 0 : it->second.count();
  }
  /// The link bytes of the five-stage path, in route order.
  std::vector<int64_t> pathBytes(const arch::Workload &workload) {
    std::vector<int64_t> bytes;
    for (llvm::StringRef name : {"ddr_to_dma", "dma_to_spad", "spad_to_ld", "ld_to_vec",
                                 "vec_to_st", "st_to_spad", "spad_to_dma", "dma_to_ddr"})
      bytes.push_back(linkBytes(workload, name));
    return bytes;
  }
  std::string limit(const arch::RooflineBound &bound) {
    return bound.limiting ? model->resourceName(bound.loads[*bound.limiting].resource) : "";
  }

  mlir::MLIRContext context;
  std::shared_ptr<const arch::ArchModel> model;
  std::string diagnostic;
};

TEST_F(WorkloadTest, AddMovesEachOperandOnceAlongItsRoute) {
  std::optional<arch::Workload> workload = workloadOf(kAddSchedule);
  ASSERT_TRUE(workload) << diagnostic;
  // Two loads of 2 tiles x 16x64 f16 = 4096 bytes each, DDR to the vector
  // unit; one store of 4096 bytes back.
  EXPECT_EQ(pathBytes(*workload),
            (std::vector<int64_t>{8192, 8192, 8192, 8192, 4096, 4096, 4096, 4096}));
  // DDR: 8192 read, 4096 written. The scratchpad is each route's end once:
  // 8192 in and out for the loads, 4096 in and out for the store.
  EXPECT_EQ(memoryBytes(*workload, "ddr"), 12288);
  EXPECT_EQ(workload->memoryWrites(node("ddr")).count(), 4096);
  EXPECT_EQ(memoryBytes(*workload, "spad"), 24576);
  EXPECT_EQ(workload->memoryWrites(node("spad")).count(), 12288);
  // One add per element of the two tiles.
  ASSERT_EQ(workload->computeWork().size(), 1u);
  const arch::Workload::ComputeWork &add = workload->computeWork().front();
  EXPECT_EQ(add.unit, node("vec"));
  EXPECT_EQ(add.opClass, "add");
  EXPECT_TRUE(add.elementType.isF16());
  EXPECT_EQ(add.count, 2048);
  // Both cores work; the bound is DDR's port: 12288 bytes at 64 per cycle
  // (a core's DDR link moves its 4096 bytes at 32 per cycle: 128 cycles).
  arch::GroupId core = model->node(node("dma")).group;
  EXPECT_EQ(workload->activeInstances(core), std::optional<int64_t>(2));
  llvm::Expected<arch::RooflineBound> bound = model->roofline(*workload);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  EXPECT_EQ(bound->cycles, 192);
  EXPECT_EQ(limit(*bound), "memory @ddr");
}

TEST_F(WorkloadTest, RoundsOfTilesAddUp) {
  // Four grid tiles of a 64x64 add on two cores run in two rounds: twice
  // the bytes and adds, still two cores active.
  std::string text =
      replaced(kAddSchedule, "grid = array<i64: 2, 1, 1>", "grid = array<i64: 4, 1, 1>");
  text = replaced(text, "tiles = array<i64: 0, 1>", "tiles = array<i64: 0, 1, 2, 3>");
  std::optional<arch::Workload> workload = workloadOf(text);
  ASSERT_TRUE(workload) << diagnostic;
  EXPECT_EQ(pathBytes(*workload),
            (std::vector<int64_t>{16384, 16384, 16384, 16384, 8192, 8192, 8192, 8192}));
  int64_t adds = 0;
  for (const arch::Workload::ComputeWork &work : workload->computeWork())
    adds += work.count;
  EXPECT_EQ(adds, 4096);
  arch::GroupId core = model->node(node("dma")).group;
  EXPECT_EQ(workload->activeInstances(core), std::optional<int64_t>(2));
}

TEST_F(WorkloadTest, PartlyMaskedTileMovesOnlyItsValidRows) {
  // Grid tile 1 holds 8 valid rows of its 16: it moves 8x64 f16 = 1024
  // bytes per operand between DDR and the scratchpad, tile 0 its 2048. The
  // compute side moves whole tiles of the valid extent too.
  std::string text = replaced(
      kAddSchedule,
      "[{shares = array<i64: 8, 8>, space = array<i64: 16, 64>, tiles = array<i64: 0, 1>}]",
      "[{shares = array<i64: 8, 8>, space = array<i64: 16, 64>, tiles = array<i64: 0>}, "
      "{shares = array<i64: 4, 4>, space = array<i64: 8, 64>, tiles = array<i64: 1>}]");
  std::optional<arch::Workload> workload = workloadOf(text);
  ASSERT_TRUE(workload) << diagnostic;
  EXPECT_EQ(pathBytes(*workload),
            (std::vector<int64_t>{6144, 6144, 6144, 6144, 3072, 3072, 3072, 3072}));
  int64_t adds = 0;
  for (const arch::Workload::ComputeWork &work : workload->computeWork())
    adds += work.count;
  EXPECT_EQ(adds, 1024 + 512);
}

TEST_F(WorkloadTest, RowSumSendsOnlyItsResultsBack) {
  std::optional<arch::Workload> workload = workloadOf(kRowSumSchedule);
  ASSERT_TRUE(workload) << diagnostic;
  // 32x64 f16 in (4096 bytes), 32 f16 sums out (64 bytes).
  EXPECT_EQ(pathBytes(*workload), (std::vector<int64_t>{4096, 4096, 4096, 4096, 64, 64, 64, 64}));
  // The const is the fold's initial value, not work: one add per element
  // and one cross-lane reduce of a 32-lane vector per row.
  ASSERT_EQ(workload->computeWork().size(), 2u);
  EXPECT_EQ(workload->computeWork()[0].opClass, "add");
  EXPECT_EQ(workload->computeWork()[0].count, 2048);
  EXPECT_EQ(workload->computeWork()[1].opClass, "reduce");
  EXPECT_EQ(workload->computeWork()[1].count, 32 * 32);
  // The kernel was written with two tiles: merging them onto one core
  // leaves the bound at two cores' (the ratio shows the cost of merging).
  arch::GroupId core = model->node(node("dma")).group;
  EXPECT_EQ(workload->activeInstances(core), std::optional<int64_t>(2));
  llvm::Expected<arch::RooflineBound> bound = model->roofline(*workload);
  ASSERT_TRUE(bool(bound)) << llvm::toString(bound.takeError());
  // DDR's port: 4032 bytes of reads alone (63 cycles) and 64 read beside
  // 64 written (2 cycles) against 64 cycles of each core's DDR link.
  EXPECT_EQ(bound->cycles, 65);
  EXPECT_EQ(limit(*bound), "memory @ddr");
}

TEST_F(WorkloadTest, MissingClassesDecisionIsDiagnosed) {
  std::string text =
      replaced(kAddSchedule, "classes = #ktsched.decision<", "unrecorded = #ktsched.decision<");
  EXPECT_FALSE(workloadOf(text));
  EXPECT_NE(diagnostic.find("`classes` decision"), std::string::npos) << diagnostic;
}

TEST_F(WorkloadTest, UnitTheDescriptionLacksIsDiagnosed) {
  std::string text = replaced(kAddSchedule, "unit = #ktsched.decision<\"vec\"",
                              "unit = #ktsched.decision<\"matrix\"");
  EXPECT_FALSE(workloadOf(text));
  EXPECT_NE(diagnostic.find("a unit the description lacks"), std::string::npos) << diagnostic;
}

} // namespace
