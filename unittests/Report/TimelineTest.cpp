//===- TimelineTest.cpp - the report's bounded unit timeline --------------===//
#include "ktflow/Report/Timeline.h"

#include "gtest/gtest.h"

using namespace ktflow;
using namespace ktflow::report;

namespace {

sim::SimResult twoUnits(int64_t cycles) {
  sim::SimResult result;
  result.totalCycles = Cycles(cycles);
  result.units.resize(2);
  result.units[0].name = "@a[core=0]";
  result.units[1].name = "@b[core=0]";
  return result;
}

void addEvent(sim::SimResult &result, unsigned unit, const char *name, int64_t start,
              int64_t duration) {
  result.trace.push_back({unit, name, Cycles(start), Cycles(duration)});
}

TEST(Timeline, ExactKeepsEveryEventSortedPerUnit) {
  sim::SimResult result = twoUnits(100);
  addEvent(result, 1, "copy", 10, 5);
  addEvent(result, 0, "stall: fifo @f full", 20, 30);
  addEvent(result, 0, "add", 0, 20);
  Timeline timeline = buildTimeline(result);
  EXPECT_FALSE(timeline.binned);
  EXPECT_EQ(timeline.events, 3u);
  ASSERT_EQ(timeline.classes, (std::vector<std::string>{"add", "copy", "stall"}));
  ASSERT_EQ(timeline.segments.size(), 3u);
  EXPECT_EQ(timeline.segments[0].unit, 0u);
  EXPECT_EQ(timeline.segments[0].state, 0u); // add, first on unit 0
  EXPECT_EQ(timeline.segments[1].state, 2u); // the stall
  ASSERT_EQ(timeline.segments[1].detail, 0);
  EXPECT_EQ(timeline.details[0], "fifo @f full");
  EXPECT_EQ(timeline.segments[2].unit, 1u);
  EXPECT_EQ(timeline.segments[2].end, Cycles(15));
}

TEST(Timeline, BinsShowTheMajorityStateAndMergeRuns) {
  sim::SimResult result = twoUnits(1000);
  // Unit 0: "add" for the first 600 cycles in one-cycle events, then idle.
  for (int64_t c = 0; c < 600; ++c)
    addEvent(result, 0, "add", c, 1);
  // Unit 1: 3 of every 10 cycles "copy" (a minority), 7 stalled.
  for (int64_t c = 0; c < 1000; c += 10) {
    addEvent(result, 1, "copy", c, 3);
    addEvent(result, 1, "stall: wait", c + 3, 7);
  }
  TimelineLimits limits;
  limits.maxExactEvents = 100;
  limits.minBins = limits.maxBins = 10;
  Timeline timeline = buildTimeline(result, limits);
  ASSERT_TRUE(timeline.binned);
  EXPECT_EQ(timeline.binWidth, Cycles(100));
  // One merged run per unit: add over [0, 600), stalled over [0, 1000).
  ASSERT_EQ(timeline.segments.size(), 2u);
  EXPECT_EQ(timeline.segments[0].unit, 0u);
  EXPECT_EQ(timeline.classes[timeline.segments[0].state], "add");
  EXPECT_EQ(timeline.segments[0].start, Cycles(0));
  EXPECT_EQ(timeline.segments[0].end, Cycles(600));
  EXPECT_EQ(timeline.classes[timeline.segments[1].state], "stall");
  EXPECT_EQ(timeline.segments[1].end, Cycles(1000));
}

TEST(Timeline, BinnedSizeIsBoundedByUnitsTimesBins) {
  sim::SimResult result = twoUnits(100000);
  // Alternating classes every cycle: the worst case for merging.
  for (int64_t c = 0; c < 100000; ++c)
    addEvent(result, c % 2, c % 4 < 2 ? "add" : "mul", c, 1);
  TimelineLimits limits;
  limits.maxExactEvents = 1000;
  limits.maxSegments = 300;
  limits.minBins = 10;
  Timeline timeline = buildTimeline(result, limits);
  ASSERT_TRUE(timeline.binned);
  EXPECT_LE(timeline.segments.size(), limits.maxSegments);
  EXPECT_EQ(timeline.events, 100000u);
}

TEST(Timeline, MostlyIdleBinsAreNotDrawn) {
  sim::SimResult result = twoUnits(1000);
  // 40 busy cycles in each 100-cycle bin: idle has the majority.
  for (int64_t c = 0; c < 1000; c += 100)
    addEvent(result, 0, "add", c, 40);
  TimelineLimits limits;
  limits.maxExactEvents = 1;
  limits.minBins = limits.maxBins = 10;
  Timeline timeline = buildTimeline(result, limits);
  ASSERT_TRUE(timeline.binned);
  EXPECT_TRUE(timeline.segments.empty());
}

} // namespace
