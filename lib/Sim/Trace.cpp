//===- Trace.cpp - Chrome trace of a simulation ---------------------------===//
//
// The trace is Chrome's JSON trace-event format: one thread per unit
// instance (named by thread_name metadata), complete ("X") events for
// instructions that took time and for stalls, as the engine recorded them
// (SimOptions::trace); Perfetto opens it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Sim/Simulator.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace ktflow;
using namespace ktflow::sim;

llvm::Error sim::writeChromeTrace(const SimResult &r, llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write trace '" + path + "': " + ec.message());
  llvm::json::OStream json(out);
  json.object([&] {
    json.attribute("displayTimeUnit", "ns");
    json.attributeArray("traceEvents", [&] {
      for (unsigned i = 0; i < r.units.size(); ++i)
        json.object([&] {
          json.attribute("name", "thread_name");
          json.attribute("ph", "M");
          json.attribute("pid", 0);
          json.attribute("tid", int64_t(i));
          json.attributeObject("args", [&] { json.attribute("name", r.units[i].name); });
        });
      for (const TraceEvent &e : r.trace)
        json.object([&] {
          json.attribute("name", e.name);
          json.attribute("ph", "X");
          json.attribute("pid", 0);
          json.attribute("tid", int64_t(e.unit));
          json.attribute("ts", e.start.count());
          json.attribute("dur", e.duration.count());
        });
    });
  });
  out << "\n";
  return llvm::Error::success();
}
