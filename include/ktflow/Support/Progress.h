//===- Progress.h - one updating progress line on a terminal ----*- C++ -*-===//
//
// Long commands (bench, fuzz) show how far they are on a single line of
// stderr that rewrites itself: done/total, elapsed time, the item last
// started. Only when stderr is a terminal: piped or redirected, they print
// nothing, so logs and tests see only the results. Thread-safe, for jobs
// that report from several threads.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SUPPORT_PROGRESS_H
#define KTFLOW_SUPPORT_PROGRESS_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <mutex>
#include <string>

namespace ktflow {

class ProgressLine {
public:
  /// A line for `total` items; shown only if stderr is a terminal.
  explicit ProgressLine(size_t total);
  /// Clears the line, so what follows starts on a clean one.
  ~ProgressLine();
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;

  /// Item `name` started (it becomes the one shown).
  void started(llvm::StringRef name);
  /// One more item done.
  void finished();
  bool enabled() const { return shown; }

private:
  void draw();

  const bool shown;
  const size_t total;
  size_t done = 0;
  std::string current;
  const std::chrono::steady_clock::time_point start;
  std::mutex mutex;
};

} // namespace ktflow

#endif // KTFLOW_SUPPORT_PROGRESS_H
