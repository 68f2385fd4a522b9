//===- HtmlReport.h - one self-contained HTML page per run ------*- C++ -*-===//
//
// `ktflow report` and `ktflow run --report`: a single HTML file that needs
// no network to open (inline CSS, script and SVG) with the unit timeline,
// a roofline picture (each resource's work over its throughput, the
// limiting one highlighted, the simulated time beside it), bytes per link,
// per-unit utilisation and the schedule's decisions with their sources.
// The data is embedded as JSON; the page's script draws it.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_REPORT_HTMLREPORT_H
#define KTFLOW_REPORT_HTMLREPORT_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Report/Timeline.h"
#include "ktflow/Run/RunKernel.h"
#include "ktflow/Schedule/Decisions.h"
#include "ktflow/Sim/Simulator.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace ktflow::report {

/// What one report shows. The pointed-to data must outlive the call.
struct ReportInput {
  /// What was run (the kernel or bundle path) and how (the command line).
  std::string title, command;
  const arch::ArchModel *model = nullptr;
  const sim::SimResult *result = nullptr;
  /// The schedule's workload; null for saved device code (no roofline).
  const arch::Workload *workload = nullptr;
  llvm::ArrayRef<ktsched::DecisionRecord> decisions;
  /// The comparison against the interpreter, when there was one.
  bool compared = false;
  llvm::ArrayRef<run::OutputComparison> outputs;
  TimelineLimits timelineLimits;
};

/// The input of a report on `ktflow run`'s result.
ReportInput reportOfRun(const run::RunReport &run, const arch::ArchModel &model,
                        llvm::StringRef title, llvm::StringRef command);

/// Writes the page to `os`.
void writeHtmlReport(const ReportInput &input, llvm::raw_ostream &os);
/// Writes the page to the file `path`.
llvm::Error writeHtmlReportFile(const ReportInput &input, llvm::StringRef path);

} // namespace ktflow::report

#endif // KTFLOW_REPORT_HTMLREPORT_H
