//===- PageAssets.h - the report page's fixed parts -------------*- C++ -*-===//
//
// The parts of the HTML report that do not depend on the run: its sections
// (empty until the script fills them), its style sheet and its script.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_REPORT_PAGEASSETS_H
#define KTFLOW_LIB_REPORT_PAGEASSETS_H

#include "llvm/ADT/StringRef.h"

namespace ktflow::report {

/// The <body> before the data: header and one <section> per part, each
/// with an id (summary, timeline, roofline, links, utilisation, decisions),
/// a .note paragraph and a .content element the script fills.
llvm::StringRef pageBody();
llvm::StringRef pageStyle();
/// Reads the JSON in #ktflow-data, draws every section, then marks
/// <body data-rendered="yes"> (or "error", with the message in
/// #render-error).
llvm::StringRef pageScript();

} // namespace ktflow::report

#endif // KTFLOW_LIB_REPORT_PAGEASSETS_H
