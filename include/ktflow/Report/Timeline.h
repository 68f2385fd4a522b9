//===- Timeline.h - a simulation's unit timeline, bounded -------*- C++ -*-===//
//
// The intervals the HTML report draws per unit instance: busy intervals by
// instruction class and stalls, from the simulator's trace events. A trace
// with more events than a page can carry is drawn in bins instead: each
// unit's row is cut into equal bins of simulated time and every bin shows
// the state (an instruction class, stalled or idle) that occupies most of
// it, so the page's size is bounded by units x bins, not by the run's
// length.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_REPORT_TIMELINE_H
#define KTFLOW_REPORT_TIMELINE_H

#include "ktflow/Sim/Simulator.h"
#include "ktflow/Support/Units.h"

#include <string>
#include <vector>

namespace ktflow::report {

struct TimelineLimits {
  /// Traces with at most this many events are drawn event by event.
  size_t maxExactEvents = 20000;
  /// A binned timeline draws at most this many segments over all units,
  /// within [minBins, maxBins] bins per unit.
  size_t maxSegments = 120000;
  unsigned minBins = 100, maxBins = 1000;
};

/// One drawn interval of one unit's row.
struct TimelineSegment {
  unsigned unit; ///< Index into SimResult::units.
  Cycles start, end;
  /// Index into Timeline::classes.
  unsigned state;
  /// Index into Timeline::details (what a stall waited on), or -1.
  int detail = -1;
};

struct Timeline {
  /// Instruction classes (opcode names) in alphabetical order, then
  /// "stall" if any unit stalled.
  std::vector<std::string> classes;
  std::vector<TimelineSegment> segments;
  /// Distinct stall reasons (exact timelines only).
  std::vector<std::string> details;
  /// Trace events read.
  size_t events = 0;
  /// Whether the timeline is binned, and the bin width.
  bool binned = false;
  Cycles binWidth;
};

/// The timeline of `result` (whose trace must have been recorded).
Timeline buildTimeline(const sim::SimResult &result, const TimelineLimits &limits = {});

} // namespace ktflow::report

#endif // KTFLOW_REPORT_TIMELINE_H
