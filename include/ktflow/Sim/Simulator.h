//===- Simulator.h - event-driven simulation of device code -----*- C++ -*-===//
//
// Runs a device-code bundle on an architecture model: every unit instance
// that has a program is a process; transfers take the links of the routes
// the ArchModel finds, each costing latency + bytes / bandwidth and shared
// among users through per-resource reservations; FIFOs block producers
// when full and consumers when empty; compute costs are the description's
// issue costs. Where the description gives them, a memory port charges the
// mix of reads and writes (mixed_bandwidth) and a mover its per-transfer
// issue cost. Values are real (f16/bf16 rounded after every operation).
// docs/simulator.md describes the timing and sharing model.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SIM_SIMULATOR_H
#define KTFLOW_SIM_SIMULATOR_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"
#include "ktflow/Support/Units.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ktflow::sim {

/// Bounds on one simulation, so device code that would run practically
/// forever (a `loop 4000000000` nest in a loaded bundle) stops with an
/// error instead of hanging its caller. Zero means no bound. The defaults
/// are far above what ktflow lowers (the largest issue-7 benchmark, a
/// 64 MiB add on spyre, simulates 4.8 million cycles) and stop a runaway
/// program within minutes (about 10^7 instructions per second without
/// timing, as in the static deadlock check, and 2·10^6 with it).
struct SimLimits {
  /// Instructions executed by all unit instances together.
  uint64_t maxInstructions = 1'000'000'000;
  /// Simulated time.
  Cycles maxCycles = Cycles(1'000'000'000'000);
};

struct SimOptions {
  /// Compute real values (off: only timing and synchronisation).
  bool computeValues = true;
  /// Charge cycles (off: every instruction takes no time; the order of
  /// events alone decides blocking, which is what the deadlock check needs).
  bool timing = true;
  /// Record a timeline for writeChromeTrace.
  bool trace = false;
  SimLimits limits;
};

struct UnitStats {
  std::string name; ///< Instance name, e.g. "@vec[core=0,subcore=1]".
  Cycles busy;      ///< Executing instructions (including transfers).
  Cycles stall;     ///< Blocked on a FIFO or a semaphore.
  Cycles finish;    ///< When its program ended.
  uint64_t instructions = 0;
  bool finished = false;
};

/// Traffic through one link instance or one memory port.
struct ResourceStats {
  std::string name;
  Bytes bytes;
  Cycles busy; ///< Cycles reserved by transfers.
};

struct TraceEvent {
  unsigned unit; ///< Index into SimResult::units.
  std::string name;
  Cycles start, duration;
};

struct SimResult {
  Cycles totalCycles;
  std::vector<UnitStats> units;
  std::vector<ResourceStats> links;
  std::vector<ResourceStats> ports;
  /// Final contents of every kernel argument, by symbol name.
  std::map<std::string, std::vector<uint8_t>> buffers;
  /// Address patched in for every symbol (Bundle::symbols order).
  std::vector<Bytes> symbolAddresses;
  /// Set when every unfinished unit is blocked: who waits on what, and the
  /// cycle of waits if there is one.
  std::optional<std::string> deadlock;
  std::vector<TraceEvent> trace;
};

/// Initial contents of the input symbols, by name (raw little-endian bytes
/// of exactly the symbol's size). Symbols without data start zeroed.
using SymbolData = std::map<std::string, std::vector<uint8_t>>;

/// Simulates `bundle` on `model`. An error is a problem of the code on this
/// architecture (an unknown unit, a missing route, an address out of
/// bounds, an op the unit lacks) or a run past `options.limits`; a
/// deadlock is reported in the result.
llvm::Expected<SimResult> simulate(const dc::Bundle &bundle, const arch::ArchModel &model,
                                   const SymbolData &inputs, const SimOptions &options = {});

/// `cycles` as time at `model`'s clock, for a reader who thinks in
/// seconds: "9.02 us at 1000 MHz" (three significant digits, in ns, us, ms
/// or s).
std::string formatCycleTime(Cycles cycles, const arch::ArchModel &model);

/// Human-readable report: total cycles (and their time at `model`'s clock),
/// per-unit busy/stall, bytes per link.
void printReport(const SimResult &result, const arch::ArchModel &model, llvm::raw_ostream &os);

/// Chrome trace JSON (one track per unit instance; 1 cycle = 1 us).
llvm::Error writeChromeTrace(const SimResult &result, llvm::StringRef path);

} // namespace ktflow::sim

#endif // KTFLOW_SIM_SIMULATOR_H
