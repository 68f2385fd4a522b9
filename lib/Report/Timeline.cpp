//===- Timeline.cpp - a simulation's unit timeline, bounded ---------------===//
//
// Strategy: trace events are named by opcode ("copy", "add") or
// "stall: <reason>"; the opcode is the instruction class. Exact timelines
// keep every event (the stall reason as a detail). Binned timelines
// process one unit at a time: each event's duration is spread over the
// bins it overlaps, per state; a bin's idle time is what is left of its
// width; the bin takes the state with the most time (ties to the first
// state, idle last); neighbouring bins of the same non-idle state merge
// into one segment. Work is O(events + units x bins) and memory O(bins x
// states) beyond the result.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Report/Timeline.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace ktflow;
using namespace ktflow::report;

static constexpr llvm::StringLiteral kStallPrefix = "stall: ";
static constexpr llvm::StringLiteral kStall = "stall";

Timeline ktflow::report::buildTimeline(const sim::SimResult &result,
                                       const TimelineLimits &limits) {
  Timeline timeline;
  timeline.events = result.trace.size();

  // States: instruction classes alphabetically, "stall" last.
  std::map<std::string, unsigned> classIndex;
  bool anyStall = false;
  for (const sim::TraceEvent &event : result.trace) {
    if (llvm::StringRef(event.name).starts_with(kStallPrefix))
      anyStall = true;
    else
      classIndex.emplace(event.name, 0);
  }
  for (auto &[name, index] : classIndex) {
    index = timeline.classes.size();
    timeline.classes.push_back(name);
  }
  unsigned stallState = timeline.classes.size();
  if (anyStall)
    timeline.classes.push_back(kStall.str());
  auto stateOf = [&](const sim::TraceEvent &event) {
    return llvm::StringRef(event.name).starts_with(kStallPrefix) ? stallState
                                                                  : classIndex.at(event.name);
  };

  if (result.trace.size() <= limits.maxExactEvents) {
    std::map<std::string, int> detailIndex;
    for (const sim::TraceEvent &event : result.trace) {
      TimelineSegment segment{event.unit, event.start, event.start + event.duration,
                              stateOf(event)};
      llvm::StringRef name(event.name);
      if (name.consume_front(kStallPrefix)) {
        auto [it, inserted] = detailIndex.emplace(name.str(), timeline.details.size());
        if (inserted)
          timeline.details.push_back(name.str());
        segment.detail = it->second;
      }
      timeline.segments.push_back(segment);
    }
    // Segments equal in every field are interchangeable, so a full key
    // makes the order deterministic.
    std::sort(timeline.segments.begin(), timeline.segments.end(),
              [](const TimelineSegment &a, const TimelineSegment &b) {
                return std::make_tuple(a.unit, a.start.count(), a.end.count(), a.state,
                                       a.detail) < std::make_tuple(b.unit, b.start.count(),
                                                                   b.end.count(), b.state,
                                                                   b.detail);
              });
    return timeline;
  }

  timeline.binned = true;
  size_t units = std::max<size_t>(1, result.units.size());
  int64_t total = std::max<int64_t>(1, result.totalCycles.count());
  int64_t bins = std::clamp<int64_t>(limits.maxSegments / units, limits.minBins, limits.maxBins);
  bins = std::min(bins, total);
  int64_t width = (total + bins - 1) / bins;
  bins = (total + width - 1) / width;
  timeline.binWidth = Cycles(width);

  std::vector<std::vector<size_t>> eventsOf(result.units.size());
  for (size_t i = 0; i < result.trace.size(); ++i)
    if (result.trace[i].unit < eventsOf.size())
      eventsOf[result.trace[i].unit].push_back(i);

  size_t states = timeline.classes.size();
  std::vector<int64_t> occupied(bins * states);
  for (unsigned unit = 0; unit < eventsOf.size(); ++unit) {
    std::fill(occupied.begin(), occupied.end(), 0);
    for (size_t i : eventsOf[unit]) {
      const sim::TraceEvent &event = result.trace[i];
      unsigned state = stateOf(event);
      int64_t start = event.start.count(), end = start + event.duration.count();
      for (int64_t bin = start / width; bin < bins && bin * width < end; ++bin) {
        int64_t from = std::max(start, bin * width), to = std::min(end, (bin + 1) * width);
        occupied[bin * states + state] += to - from;
      }
    }
    int64_t runStart = 0;
    int runState = -1;
    auto closeRun = [&](int64_t bin) {
      if (runState >= 0)
        timeline.segments.push_back({unit, Cycles(runStart * width),
                                     Cycles(std::min(total, bin * width)), unsigned(runState)});
    };
    for (int64_t bin = 0; bin < bins; ++bin) {
      int64_t binEnd = std::min(total, (bin + 1) * width);
      int64_t idle = binEnd - bin * width;
      int best = -1;
      int64_t bestTime = 0;
      for (size_t state = 0; state < states; ++state) {
        int64_t time = occupied[bin * states + state];
        idle -= time;
        if (time > bestTime) {
          best = state;
          bestTime = time;
        }
      }
      if (idle > bestTime)
        best = -1;
      if (best != runState) {
        closeRun(bin);
        runStart = bin;
        runState = best;
      }
    }
    closeRun(bins);
  }
  return timeline;
}
