//===- TileScheduler.h - cooperative tiles for inter-tile ops ---*- C++ -*-===//
//
// Private to lib/Interp. Kernels with inter-tile ops need a tile to wait for
// partials that later tiles produce, which one-tile-after-another execution
// cannot do. The scheduler gives every tile its own thread but lets exactly
// one run at a time (a baton passed under a mutex): a tile runs until it
// finishes or must wait; then the next tile in linear-id order gets the
// baton. Execution stays deterministic and needs no locking elsewhere. When
// a whole round over the unfinished tiles makes no progress, the kernel is
// deadlocked and the scheduler reports who waits.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_INTERP_TILESCHEDULER_H
#define KTFLOW_LIB_INTERP_TILESCHEDULER_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ktflow::interp {

/// A failure inside a tile, with where it happened.
struct TileFailure {
  int64_t tile = 0;
  mlir::Operation *op = nullptr;
  std::string message;
};

class TileScheduler {
public:
  explicit TileScheduler(int64_t numTiles);

  /// Runs body(tile) for every tile cooperatively. `body` reports failures
  /// by returning them. Returns the first failure or a deadlock.
  std::optional<TileFailure>
  run(std::function<std::optional<TileFailure>(int64_t)> body);

  /// Called from tile `tile`'s thread: gives up the baton until `ready()`
  /// (evaluated with the baton held) is true. `what` describes the wait for
  /// deadlock reports. Throws InterpError if the launch is being aborted.
  void waitUntil(int64_t tile, llvm::function_ref<bool()> ready,
                 const std::string &what, mlir::Operation *op);
  /// Records that shared state changed (a partial was produced).
  void noteProgress() { ++progress; }

  /// Partials of each produce-op instance: (op, instance) -> tile -> values.
  template <class V>
  using PerInstance = std::map<std::pair<mlir::Operation *, int64_t>, V>;

private:
  enum class State { Ready, Blocked, Done };
  void handBack(std::unique_lock<std::mutex> &lock);

  std::mutex mutex;
  std::condition_variable cv;
  int64_t baton = -1;
  bool aborting = false;
  uint64_t progress = 0;
  std::vector<State> states;
  std::vector<std::string> waits;
  std::vector<mlir::Operation *> waitOps;
};

} // namespace ktflow::interp

#endif // KTFLOW_LIB_INTERP_TILESCHEDULER_H
