//===- Simulator.cpp - the event-driven device-code simulator ===//
//
// Strategy: one process per unit instance with a program, advanced by a
// priority queue of events ordered by (cycle, sequence number), so runs are
// deterministic. A process executes instructions until one takes time (it
// schedules its own resumption) or blocks (a FIFO or semaphore wakes it).
// This file holds the event loop and the result; Engine.h lists the files
// that hold the rest (setup, resource calendar, FIFOs, execution per
// instruction class, deadlock report).
//
// Everything hardware-specific comes from the ArchModel; lib/Sim names no
// unit, memory or number of a device.
//
//===----------------------------------------------------------------------===//
#include "Engine.h"
#include "ktflow/Sim/StaticChecks.h"

#include "llvm/Support/FormatVariadic.h"

using namespace ktflow;
using namespace ktflow::sim;
using namespace ktflow::sim::detail;
using namespace ktflow::arch;
using namespace ktflow::dc;
using llvm::StringRef;

SimResult Engine::run(const SymbolData &inputs) {
  if (!createUnits() || !placeSymbols(inputs))
    return {};
  chooseTicksPerCycle();
  for (unsigned i = 0; i < units.size(); ++i)
    resumeAt(i, Cycles(0));
  while (!events.empty()) {
    Event e = events.top();
    events.pop();
    now = e.time;
    if (options.limits.maxCycles.count() && now > options.limits.maxCycles) {
      error = llvm::formatv("simulation stopped: the cycle limit ({0}) is reached; the code "
                            "would run practically forever",
                            options.limits.maxCycles.count())
                  .str();
      return {};
    }
    switch (e.kind) {
    case Event::Resume:
      step(e.unit);
      if (error)
        return {};
      break;
    case Event::SemIncrement: {
      Unit &target = units[e.unit];
      target.sems[e.sem] += 1;
      wake(int(e.unit), now);
      break;
    }
    case Event::Write:
      landWrite(e.write);
      break;
    }
  }
  result.totalCycles = now;
  bool stuck = false;
  for (Unit &u : units) {
    if (u.state != State::Done) {
      stuck = true;
      u.stats.stall += now - u.blockedSince;
    }
    result.units.push_back(u.stats);
  }
  if (stuck)
    result.deadlock = deadlockReport();
  auto busyCycles = [&](const Reservable &r) {
    return Cycles((r.busyTicks + ticksPerCycle - 1) / ticksPerCycle);
  };
  for (auto &[key, r] : links)
    result.links.push_back({r.name, r.bytes, busyCycles(r)});
  for (auto &[key, r] : ports)
    result.ports.push_back({r.name, r.bytes, busyCycles(r)});
  if (options.computeValues)
    for (size_t s = 0; s < bundle.symbols.size(); ++s) {
      const Symbol &sym = bundle.symbols[s];
      std::vector<uint8_t> data(sym.size.count());
      memoryOf({*globalMemory, 0}).read(result.symbolAddresses[s], data.data(), sym.size);
      result.buffers[sym.name] = std::move(data);
    }
  return std::move(result);
}

llvm::Expected<SimResult> sim::simulate(const Bundle &bundle, const ArchModel &model,
                                        const SymbolData &inputs, const SimOptions &options) {
  if (llvm::Error e = verifyBundle(bundle, "bundle"))
    return std::move(e);
  // The launch table is filled in at launch (dc::bindLaunchValues).
  for (const LaunchValue &v : bundle.launchValues)
    if (!v.bound)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "launch value '" + v.name + "' is unbound: give it with --arg " + v.name + "=VALUE");
  if (llvm::Error e = checkUnitResources(bundle, model))
    return std::move(e);
  Engine engine(bundle, model, options);
  SimResult result = engine.run(inputs);
  if (engine.error)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), *engine.error);
  return result;
}
