//===- RunSummary.cpp - what `ktflow run` prints --------------------------===//
//
// Ordered so that a reader finds the answer first: whether the device code
// computed what the kernel means, how long it took against the fastest the
// description allows, and what the schedule decided. The plan line reads the
// plan JSON the run recorded (the format `ktflow compile --dump-plan`
// writes), so it shows exactly the decisions a plan file would replay.
//
//===----------------------------------------------------------------------===//
#include "RunSummary.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace ktflow;

void tool::printPerformance(llvm::raw_ostream &os, const sim::SimResult &result,
                            const arch::ArchModel &model, const arch::Workload *workload,
                            bool verbose) {
  os << "simulated cycles: " << result.totalCycles.count() << " ("
     << sim::formatCycleTime(result.totalCycles, model) << ")\n";
  if (workload) {
    llvm::Expected<arch::RooflineBound> bound = model.roofline(*workload);
    if (!bound) {
      os << "roofline bound: unavailable (" << llvm::toString(bound.takeError()) << ")\n";
    } else if (bound->limiting) {
      const arch::ResourceLoad &limit = bound->loads[*bound->limiting];
      double cycles = std::max(1.0, bound->cycles);
      os << "roofline bound: " << llvm::format("%.0f", bound->cycles) << " cycles, limited by "
         << model.resourceName(limit.resource) << "\n";
      os << "cycles / bound: " << llvm::format("%.2f", double(result.totalCycles.count()) / cycles)
         << "\n";
    }
  }
  if (!verbose)
    return;
  os << "unit utilisation (busy / total cycles):\n";
  double total = std::max<int64_t>(1, result.totalCycles.count());
  for (const sim::UnitStats &unit : result.units)
    os << "  " << unit.name << ": " << llvm::format("%.1f%%", 100.0 * unit.busy.count() / total)
       << " busy, " << unit.stall.count() << " stall cycles\n";
}

/// "8x1024" from a JSON array of integers.
static std::string joinInts(const llvm::json::Array *values, llvm::StringRef separator) {
  if (!values)
    return "";
  std::vector<std::string> parts;
  for (const llvm::json::Value &v : *values)
    if (std::optional<int64_t> i = v.getAsInteger())
      parts.push_back(std::to_string(*i));
  return llvm::join(parts, separator);
}

std::string tool::formatPlanLine(llvm::StringRef planJson) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(planJson);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return "";
  }
  std::vector<std::string> items;
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr;
  for (const llvm::json::Value &kernelValue : kernels ? *kernels : llvm::json::Array()) {
    const llvm::json::Object *kernel = kernelValue.getAsObject();
    if (!kernel)
      continue;
    if (const llvm::json::Object *merge = kernel->getObject("merge")) {
      int64_t factor = merge->getInteger("factor").value_or(1);
      if (factor > 1)
        items.push_back(llvm::formatv("merge {0} grid tiles over dim {1}", factor,
                                      merge->getInteger("dim").value_or(0)));
    }
    const llvm::json::Array *groups = kernel->getArray("groups");
    for (const llvm::json::Value &groupValue : groups ? *groups : llvm::json::Array()) {
      const llvm::json::Object *group = groupValue.getAsObject();
      if (!group)
        continue;
      std::string item = group->getString("name").value_or("group").str() + ": tile " +
                         joinInts(group->getArray("tile"), "x");
      if (std::optional<int64_t> depth = group->getInteger("depth"))
        item += ", depth " + std::to_string(*depth);
      if (const llvm::json::Object *split = group->getObject("split")) {
        int64_t instances = split->getInteger("instances").value_or(1);
        if (instances > 1)
          item += llvm::formatv(", split {0} over dim {1}", instances,
                                split->getInteger("dim").value_or(0));
      }
      std::string order = joinInts(group->getArray("loop_order"), ",");
      if (!order.empty())
        item += ", loop order (" + order + ")";
      if (const llvm::json::Array *units = group->getArray("units")) {
        std::vector<std::string> names;
        for (const llvm::json::Value &u : *units)
          if (const llvm::json::Object *unit = u.getAsObject())
            names.push_back(unit->getString("unit").value_or("?").str());
        if (!names.empty())
          item += ", units " + llvm::join(names, " ");
      }
      items.push_back(std::move(item));
    }
  }
  return llvm::join(items, "; ");
}

/// "12.0 KiB", "32.0 MiB": bytes in the unit that keeps the value under 1024.
static std::string formatBytes(int64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  unsigned unit = 0;
  while (unit + 1 < std::size(units) && value >= 1024) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? std::to_string(bytes) + " B" : llvm::formatv("{0:f1} {1}", value, units[unit]);
}

/// The kernel names a plan lists, comma-separated.
static std::string planKernelNames(llvm::StringRef planJson) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(planJson);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return "";
  }
  std::vector<std::string> names;
  const llvm::json::Object *root = parsed->getAsObject();
  if (const llvm::json::Array *kernels = root ? root->getArray("kernels") : nullptr)
    for (const llvm::json::Value &kernel : *kernels)
      if (const llvm::json::Object *object = kernel.getAsObject())
        if (std::optional<llvm::StringRef> name = object->getString("name"))
          names.push_back(name->str());
  return llvm::join(names, ", ");
}

void tool::printRunSummary(llvm::raw_ostream &os, const run::RunReport &report,
                           const arch::ArchModel &model, const RunSummaryOptions &options) {
  int64_t bufferBytes = 0;
  for (const dc::Symbol &symbol : report.bundle.symbols)
    bufferBytes += symbol.size.count();
  std::string kernels = planKernelNames(report.planJson);
  os << "kernel: " << (kernels.empty() ? "?" : kernels) << " on " << model.name() << ", "
     << report.bundle.symbols.size()
     << (report.bundle.symbols.size() == 1 ? " buffer, " : " buffers, ") << formatBytes(bufferBytes)
     << "\n";
  bool anyTolerance =
      llvm::any_of(report.outputs, [](const run::OutputComparison &o) { return o.tolerance; });
  if (anyTolerance)
    os << "comparison: bit-exact, except outputs of sum reductions: |got - ref| <= "
          "eps*|ref| + 4*eps*sum|terms| (ktir.md 7.3; reordered sums)\n";
  else
    os << "comparison: bit-exact (same order of operations)\n";
  for (const run::OutputComparison &output : report.outputs) {
    if (output.firstMismatch >= 0)
      os << "MISMATCH in " << output.name << " at element " << output.firstMismatch << ": got "
         << output.got << ", expected " << output.expected
         << (output.tolerance ? " (beyond the sum tolerance)" : "") << "\n";
    else
      os << "match: " << output.name << " (" << output.elements << " elements)";
    if (output.tolerance)
      os << (output.firstMismatch >= 0 ? "  " : " ") << "tolerance: "
         << (output.composite ? "composite (phases) over rows of " : "sum of ")
         << output.reductionLength << " terms, max error " << llvm::format("%.3g", output.maxError)
         << " (" << llvm::formatv("{0:f2}", output.maxBoundFraction) << " of the bound)\n";
    else if (output.firstMismatch < 0)
      os << "\n";
  }
  // A value left unbound at compile time: the schedule, and so the
  // roofline's work, is that of its upperbound.
  for (const dc::LaunchValue &v : report.bundle.launchValues)
    if (v.boundAtLaunch)
      os << "launch value " << v.name << "=" << v.value
         << ": unbound at compile time (launch table); the roofline counts the work at its "
            "upperbound "
         << v.upperbound << "\n";
  printPerformance(os, report.result, model, &report.workload, options.verbose);
  std::string plan = formatPlanLine(report.planJson);
  if (!plan.empty())
    os << "plan: " << plan << "\n";
  if (!options.reportPath.empty())
    os << "report: " << options.reportPath << "\n";
  size_t mismatches = llvm::count_if(
      report.outputs, [](const run::OutputComparison &o) { return o.firstMismatch >= 0; });
  if (report.match)
    os << "result: match (" << report.outputs.size()
       << (report.outputs.size() == 1 ? " output" : " outputs") << ")";
  else
    os << "result: MISMATCH (" << mismatches << " of " << report.outputs.size()
       << (report.outputs.size() == 1 ? " output" : " outputs") << ")";
  if (!options.verbose)
    os << "; per-unit utilisation: --verbose";
  os << "\n";
}
