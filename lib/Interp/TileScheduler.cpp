//===- TileScheduler.cpp - cooperative tiles for inter-tile ops -----------===//
//
// One thread per tile, one baton. The main thread hands the baton to each
// unfinished tile in linear-id order and waits for it to come back (the
// tile finished or blocked). A pass in which no tile finished, started, or
// produced anything while some tile is blocked is a deadlock. On abort,
// every waiting tile is woken and unwinds with an InterpError that the
// tile's body swallows.
//
//===----------------------------------------------------------------------===//
#include "TileScheduler.h"

#include "ktflow/Interp/Views.h"

#include <thread>

using namespace ktflow;
using namespace ktflow::interp;

TileScheduler::TileScheduler(int64_t numTiles)
    : states(numTiles, State::Ready), waits(numTiles), waitOps(numTiles) {}

void TileScheduler::handBack(std::unique_lock<std::mutex> &lock) {
  baton = -1;
  cv.notify_all();
}

void TileScheduler::waitUntil(int64_t tile, llvm::function_ref<bool()> ready,
                              const std::string &what, mlir::Operation *op) {
  std::unique_lock<std::mutex> lock(mutex);
  while (!ready()) {
    states[tile] = State::Blocked;
    waits[tile] = what;
    waitOps[tile] = op;
    handBack(lock);
    cv.wait(lock, [&] { return baton == tile; });
    if (aborting)
      throw InterpError{"aborted"};
  }
  states[tile] = State::Ready;
}

std::optional<TileFailure>
TileScheduler::run(std::function<std::optional<TileFailure>(int64_t)> body) {
  int64_t numTiles = states.size();
  std::optional<TileFailure> failure;
  std::vector<std::thread> threads;
  threads.reserve(numTiles);
  for (int64_t t = 0; t < numTiles; ++t)
    threads.emplace_back([this, t, &body, &failure] {
      {
        std::unique_lock<std::mutex> lock(mutex);
        cv.wait(lock, [&] { return baton == t; });
        if (aborting) {
          states[t] = State::Done;
          handBack(lock);
          return;
        }
      }
      std::optional<TileFailure> f = body(t);
      std::unique_lock<std::mutex> lock(mutex);
      if (f && !aborting && !failure)
        failure = f;
      states[t] = State::Done;
      handBack(lock);
    });

  auto giveBaton = [&](int64_t t) {
    std::unique_lock<std::mutex> lock(mutex);
    baton = t;
    cv.notify_all();
    cv.wait(lock, [&] { return baton == -1; });
  };

  while (true) {
    bool anyLeft = false, progressed = false;
    for (int64_t t = 0; t < numTiles; ++t) {
      State before;
      uint64_t progressBefore;
      {
        std::lock_guard<std::mutex> lock(mutex);
        before = states[t];
        progressBefore = progress;
      }
      if (before == State::Done)
        continue;
      anyLeft = true;
      giveBaton(t);
      std::lock_guard<std::mutex> lock(mutex);
      if (before != State::Blocked || states[t] != State::Blocked ||
          progress != progressBefore)
        progressed = true;
      if (failure)
        break;
    }
    if (!anyLeft || failure)
      break;
    if (!progressed) {
      std::string who;
      int64_t first = -1;
      for (int64_t t = 0; t < numTiles; ++t)
        if (states[t] == State::Blocked) {
          if (first < 0)
            first = t;
          who += (who.empty() ? "" : "; ") + ("tile " + std::to_string(t) + " " + waits[t]);
        }
      failure = TileFailure{first, first >= 0 ? waitOps[first] : nullptr,
                            "deadlock: every unfinished tile waits: " + who};
      break;
    }
  }
  // Wake and unwind every tile still waiting.
  {
    std::unique_lock<std::mutex> lock(mutex);
    aborting = true;
  }
  for (int64_t t = 0; t < numTiles; ++t) {
    bool done;
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = states[t] == State::Done;
    }
    if (!done)
      giveBaton(t);
  }
  for (std::thread &thread : threads)
    thread.join();
  return failure;
}
