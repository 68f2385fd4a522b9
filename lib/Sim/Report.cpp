//===- Report.cpp - text report of a simulation ---------------------------===//
//
// The report lists what docs/simulator.md promises: total cycles, per unit
// instance its busy and stall cycles and utilisation, and the bytes and
// busy cycles of every link and memory port that carried traffic. The
// Chrome trace is written by Trace.cpp.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Sim/Simulator.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <iterator>

using namespace ktflow;
using namespace ktflow::sim;

std::string sim::formatCycleTime(Cycles cycles, const arch::ArchModel &model) {
  // The verifier keeps clock_mhz positive; a model built otherwise has no
  // time to give.
  if (model.clockMhz() <= 0)
    return "no clock";
  // Cycles over MHz are microseconds; scale to the unit that puts the value
  // in [1, 1000), deciding after rounding so that 999.7 ns prints as
  // 1.00 us, not 1000 ns.
  double value = double(cycles.count()) * 1000.0 / double(model.clockMhz()); // ns
  static const char *const units[] = {"ns", "us", "ms", "s"};
  unsigned unit = 0;
  while (unit + 1 < std::size(units) && value >= 999.5) {
    value /= 1000.0;
    ++unit;
  }
  int decimals = value >= 99.95 || cycles.count() == 0 ? 0 : value >= 9.995 ? 1 : 2;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.*f", decimals, value) << " " << units[unit] << " at "
     << model.clockMhz() << " MHz";
  return text;
}

void sim::printReport(const SimResult &r, const arch::ArchModel &model, llvm::raw_ostream &os) {
  os << "total cycles: " << r.totalCycles.count() << " (" << formatCycleTime(r.totalCycles, model)
     << ")\n";
  os << "units:\n";
  double total = std::max<int64_t>(1, r.totalCycles.count());
  for (const UnitStats &u : r.units)
    os << llvm::formatv("  {0,-32} busy {1,10}  stall {2,10}  util {3,6:P}  {4} instr{5}\n",
                        u.name, u.busy.count(), u.stall.count(), u.busy.count() / total,
                        u.instructions, u.finished ? "" : "  (blocked)");
  os << "links:\n";
  for (const ResourceStats &l : r.links)
    os << llvm::formatv("  {0,-32} bytes {1,12}  busy {2,10}\n", l.name, l.bytes.count(),
                        l.busy.count());
  if (!r.ports.empty()) {
    os << "memory ports:\n";
    for (const ResourceStats &p : r.ports)
      os << llvm::formatv("  {0,-32} bytes {1,12}  busy {2,10}\n", p.name, p.bytes.count(),
                          p.busy.count());
  }
}
