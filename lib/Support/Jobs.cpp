//===- Jobs.cpp - run independent work items on N threads -----------------===//
//
// Strategy: a shared atomic counter hands out the next index, so a slow
// item does not hold up the others' thread (no static partition); with one
// job everything runs on the caller's thread, exactly as a plain loop.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Support/Jobs.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace ktflow;

unsigned ktflow::defaultJobs() { return std::max(1u, std::thread::hardware_concurrency()); }

void ktflow::runJobs(size_t count, unsigned jobs,
                     llvm::function_ref<void(unsigned, size_t)> work) {
  size_t threads = std::min<size_t>(std::max(1u, jobs), count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i)
      work(0, i);
    return;
  }
  std::atomic<size_t> next{0};
  auto loop = [&](unsigned worker) {
    for (size_t i = next++; i < count; i = next++)
      work(worker, i);
  };
  std::vector<std::thread> pool;
  for (unsigned worker = 1; worker < threads; ++worker)
    pool.emplace_back(loop, worker);
  loop(0);
  for (std::thread &thread : pool)
    thread.join();
}
