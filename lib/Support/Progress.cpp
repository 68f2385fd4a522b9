//===- Progress.cpp - one updating progress line on a terminal ------------===//
//
// Strategy: every change redraws the whole line — carriage return, the
// text cut to the terminal's width (a wrapped line could not be rewritten),
// then "erase to end of line" — under a mutex, so lines from several
// threads never interleave. The destructor erases it.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Support/Progress.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace ktflow;

/// ANSI "erase from the cursor to the end of the line".
static constexpr llvm::StringLiteral kEraseLine = "\x1b[K";

ProgressLine::ProgressLine(size_t total)
    : shown(llvm::sys::Process::StandardErrIsDisplayed()), total(total),
      start(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() {
  if (!shown)
    return;
  llvm::errs() << "\r" << kEraseLine;
  llvm::errs().flush();
}

void ProgressLine::started(llvm::StringRef name) {
  if (!shown)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  current = name.str();
  draw();
}

void ProgressLine::finished() {
  if (!shown)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  ++done;
  draw();
}

void ProgressLine::draw() {
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[" << done << "/" << total << "] " << llvm::format("%.1f", seconds) << " s  "
     << current;
  unsigned columns = llvm::sys::Process::StandardErrColumns();
  if (columns > 1 && text.size() >= columns)
    text.resize(columns - 1);
  llvm::errs() << "\r" << text << kEraseLine;
  llvm::errs().flush();
}
