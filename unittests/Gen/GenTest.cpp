//===- GenTest.cpp - kernel specs, random and bench generators ------------===//
#include "ktflow/Gen/BenchKernel.h"
#include "ktflow/Gen/GatherKernel.h"
#include "ktflow/Gen/KernelPrinter.h"
#include "ktflow/Gen/RandomKernel.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace ktflow::gen;

TEST(KernelSpec, UnevenSplitsRoundTheTileUp) {
  KernelSpec spec = benchKernel(BenchKind::Add, 10, 7, ElemType::F16, 4);
  EXPECT_EQ(spec.tileRows(), 3); // ceil(10 / 4); the last tile is 1 row + 2 masked
  EXPECT_EQ(spec.tileCols(), 7);
  spec.distribution = Distribution::ColBlocks;
  EXPECT_EQ(spec.tileRows(), 10);
  EXPECT_EQ(spec.tileCols(), 2);
}

TEST(KernelSpec, RejectsSplittingTheReducedDimension) {
  KernelSpec spec = benchKernel(BenchKind::RowSum, 16, 16, ElemType::F32, 2);
  EXPECT_FALSE(spec.validate());
  spec.distribution = Distribution::ColBlocks;
  ASSERT_TRUE(spec.validate());
  EXPECT_NE(spec.validate()->find("reduced dimension"), std::string::npos);
}

TEST(KernelSpec, RejectsForwardOperands) {
  KernelSpec spec = benchKernel(BenchKind::Add, 4, 4, ElemType::F16, 1);
  spec.nodes.back().operands[0] = spec.nodes.size() - 1;
  EXPECT_TRUE(spec.validate());
}

TEST(RandomKernel, EverySeedGivesAValidSpecWithinTheTileBound) {
  for (int64_t maxTiles : {1, 2, 32}) {
    RandomKernelOptions options;
    options.maxTiles = maxTiles;
    for (uint64_t seed = 0; seed < 500; ++seed) {
      KernelSpec spec = randomKernel(seed, options);
      std::optional<std::string> problem = spec.validate();
      EXPECT_FALSE(problem) << "seed " << seed << ": " << *problem;
      EXPECT_LE(spec.numTiles(), maxTiles) << "seed " << seed;
    }
  }
}

TEST(RandomKernel, SameSeedSameTextOtherSeedOtherText) {
  RandomKernelOptions options;
  EXPECT_EQ(printKernel(randomKernel(7, options)), printKernel(randomKernel(7, options)));
  EXPECT_NE(printKernel(randomKernel(7, options)), printKernel(randomKernel(8, options)));
}

TEST(RandomKernel, ShapesIncludeUnevenSplitsAndNonPowersOfTwo) {
  RandomKernelOptions options;
  bool uneven = false, nonPowerOfTwo = false;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    KernelSpec spec = randomKernel(seed, options);
    int64_t split = spec.distribution == Distribution::ColBlocks ? spec.cols : spec.rows;
    if (spec.rank == 1)
      split = spec.cols;
    uneven |= split % spec.numTiles() != 0;
    nonPowerOfTwo |= (spec.cols & (spec.cols - 1)) != 0;
  }
  EXPECT_TRUE(uneven);
  EXPECT_TRUE(nonPowerOfTwo);
}

TEST(BenchKernel, NamesRoundTrip) {
  for (BenchKind kind : allBenchKinds()) {
    std::optional<BenchKind> parsed = parseBenchKind(benchKindName(kind));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(*parsed, kind);
    EXPECT_FALSE(benchKernel(kind, 8, 8, ElemType::F32, 2).validate());
  }
  EXPECT_FALSE(parseBenchKind("gelu"));
}

TEST(IndirectRows, RandomSpecsAreValidAndTheirIndicesLegal) {
  bool sawScatter = false, sawGather = false, sawOp = false;
  for (uint64_t seed = 0; seed < 500; ++seed) {
    IndirectRowsSpec spec = randomIndirectRows(seed, 8);
    ASSERT_FALSE(gatherProblem(spec.rows, spec.cols, spec.tiles)) << seed;
    ASSERT_LE(spec.tiles, 8);
    ASSERT_GE(spec.tableRows, spec.scatter ? spec.rows : 1);
    std::vector<int32_t> ids = indirectRowIds(spec, seed);
    ASSERT_EQ(int64_t(ids.size()), spec.rows);
    for (int32_t id : ids)
      ASSERT_TRUE(id >= 0 && id < spec.tableRows) << seed;
    // A scatter writes each table row at most once (no race between tiles).
    if (spec.scatter) {
      std::vector<int32_t> sorted = ids;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << seed;
    }
    EXPECT_EQ(indirectRowIds(spec, seed), ids);
    sawScatter |= spec.scatter;
    sawGather |= !spec.scatter;
    sawOp |= !spec.op.empty();
  }
  EXPECT_TRUE(sawScatter && sawGather && sawOp);
}

TEST(IndirectRows, ShrinkingKeepsSpecsValid) {
  IndirectRowsSpec spec = randomIndirectRows(11, 8);
  for (int step = 0; step < 40; ++step) {
    std::vector<IndirectRowsSpec> smaller = shrinkIndirectRows(spec);
    if (smaller.empty())
      break;
    spec = smaller.back();
    ASSERT_FALSE(gatherProblem(spec.rows, spec.cols, spec.tiles));
    ASSERT_GE(spec.tableRows, spec.scatter ? spec.rows : 1);
  }
  EXPECT_TRUE(shrinkIndirectRows(spec).empty());
  EXPECT_EQ(spec.rows, 1);
  EXPECT_EQ(spec.cols, 1);
}
