//===- HtmlReport.cpp - one self-contained HTML page per run --------------===//
//
// Strategy: everything the page shows is gathered into one JSON object
// (llvm/Support/JSON.h) — the run's summary, the roofline loads the
// architecture model computes for the schedule's workload, the
// simulator's per-unit, per-link and per-port statistics, the bounded
// timeline (Timeline.h) and the decision list — and embedded in a
// <script type="application/json"> element; the page's inline script
// (PageAssets.cpp) draws it as SVG and tables. Nothing is fetched, so the
// file opens offline. The C++ side decides what is in the page, the
// script only how it looks.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Report/HtmlReport.h"

#include "PageAssets.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace ktflow;
using namespace ktflow::report;
namespace json = llvm::json;

ReportInput ktflow::report::reportOfRun(const run::RunReport &run, const arch::ArchModel &model,
                                        llvm::StringRef title, llvm::StringRef command) {
  ReportInput input;
  input.title = title.str();
  input.command = command.str();
  input.model = &model;
  input.result = &run.result;
  input.workload = &run.workload;
  input.decisions = run.decisions;
  input.compared = true;
  input.outputs = run.outputs;
  return input;
}

static llvm::StringRef kindName(arch::Resource::Kind kind) {
  switch (kind) {
  case arch::Resource::Kind::MemoryPort:
    return "memory";
  case arch::Resource::Kind::Link:
    return "link";
  case arch::Resource::Kind::Compute:
    return "compute";
  }
  return "";
}

static json::Value rooflineJson(const ReportInput &input) {
  if (!input.workload)
    return nullptr;
  llvm::Expected<arch::RooflineBound> bound = input.model->roofline(*input.workload);
  if (!bound)
    return json::Object{{"error", llvm::toString(bound.takeError())}};
  json::Array resources;
  for (const arch::ResourceLoad &load : bound->loads) {
    bool compute = load.resource.kind == arch::Resource::Kind::Compute;
    resources.push_back(json::Object{{"name", input.model->resourceName(load.resource)},
                                     {"kind", kindName(load.resource.kind)},
                                     {"work", load.work},
                                     {"unit", compute ? "issue cycles" : "bytes"},
                                     {"instances", load.instances},
                                     {"throughput", load.throughput},
                                     {"cycles", load.cycles}});
  }
  json::Object roofline{{"bound", bound->cycles}, {"resources", std::move(resources)}};
  if (bound->limiting)
    roofline["limiting"] = int64_t(*bound->limiting);
  return roofline;
}

static json::Array resourceStatsJson(llvm::ArrayRef<sim::ResourceStats> stats) {
  json::Array array;
  for (const sim::ResourceStats &s : stats)
    array.push_back(
        json::Object{{"name", s.name}, {"bytes", s.bytes.count()}, {"busy", s.busy.count()}});
  return array;
}

static json::Object timelineJson(const ReportInput &input) {
  Timeline timeline = buildTimeline(*input.result, input.timelineLimits);
  json::Array segments;
  for (const TimelineSegment &s : timeline.segments) {
    json::Array segment{int64_t(s.unit), s.start.count(), s.end.count(), int64_t(s.state)};
    if (s.detail >= 0)
      segment.push_back(int64_t(s.detail));
    segments.push_back(std::move(segment));
  }
  json::Array classes, details;
  for (const std::string &c : timeline.classes)
    classes.push_back(c);
  for (const std::string &d : timeline.details)
    details.push_back(d);
  return json::Object{{"classes", std::move(classes)},
                      {"details", std::move(details)},
                      {"segments", std::move(segments)},
                      {"events", int64_t(timeline.events)},
                      {"binned", timeline.binned},
                      {"binWidth", timeline.binWidth.count()},
                      {"maxExactEvents", int64_t(input.timelineLimits.maxExactEvents)}};
}

static json::Object reportJson(const ReportInput &input) {
  const sim::SimResult &result = *input.result;
  json::Array units;
  for (const sim::UnitStats &u : result.units)
    units.push_back(json::Object{{"name", u.name},
                                 {"busy", u.busy.count()},
                                 {"stall", u.stall.count()},
                                 {"finish", u.finish.count()},
                                 {"instructions", int64_t(u.instructions)},
                                 {"finished", u.finished}});
  json::Array outputs;
  bool match = true;
  for (const run::OutputComparison &o : input.outputs) {
    match &= o.firstMismatch < 0;
    json::Object output{{"name", o.name},
                        {"type", o.elementType},
                        {"elements", o.elements},
                        {"tolerance", o.tolerance}};
    if (o.firstMismatch >= 0) {
      output["mismatch"] = o.firstMismatch;
      output["got"] = o.got;
      output["expected"] = o.expected;
    }
    outputs.push_back(std::move(output));
  }
  json::Array decisions;
  for (const ktsched::DecisionRecord &d : input.decisions)
    decisions.push_back(json::Object{{"kernel", d.kernel},
                                     {"group", d.group},
                                     {"where", d.where},
                                     {"name", d.name},
                                     {"value", d.value},
                                     {"source", d.source}});
  return json::Object{
      {"title", input.title},
      {"command", input.command},
      {"arch", input.model->name()},
      {"cycles", result.totalCycles.count()},
      {"time", sim::formatCycleTime(result.totalCycles, *input.model)},
      {"compared", input.compared},
      {"match", match},
      {"outputs", std::move(outputs)},
      {"roofline", rooflineJson(input)},
      {"units", std::move(units)},
      {"links", resourceStatsJson(result.links)},
      {"ports", resourceStatsJson(result.ports)},
      {"timeline", timelineJson(input)},
      {"decisions", std::move(decisions)},
      {"hasDecisions", input.workload != nullptr},
  };
}

static std::string escapeHtml(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

void ktflow::report::writeHtmlReport(const ReportInput &input, llvm::raw_ostream &os) {
  std::string data;
  llvm::raw_string_ostream dataStream(data);
  dataStream << json::Value(reportJson(input));
  // Inside <script>, "</script" or "<!--" would end or confuse the
  // element; '<' occurs only inside JSON strings, where \u003c is the same
  // character.
  std::string embedded;
  embedded.reserve(data.size());
  for (char c : data) {
    if (c == '<')
      embedded += "\\u003c";
    else
      embedded += c;
  }
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<meta name=\"generator\" content=\"ktflow\">\n"
     << "<title>ktflow report: " << escapeHtml(input.title) << "</title>\n<style>\n"
     << pageStyle() << "</style>\n</head>\n<body>\n"
     << pageBody() << "<script id=\"ktflow-data\" type=\"application/json\">" << embedded
     << "</script>\n<script>\n"
     << pageScript() << "</script>\n</body>\n</html>\n";
}

llvm::Error ktflow::report::writeHtmlReportFile(const ReportInput &input, llvm::StringRef path) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError(ec, "cannot write report '" + path + "': " + ec.message());
  writeHtmlReport(input, out);
  out.close();
  if (out.has_error())
    return llvm::createStringError(out.error(),
                                   "cannot write report '" + path + "': " + out.error().message());
  return llvm::Error::success();
}
