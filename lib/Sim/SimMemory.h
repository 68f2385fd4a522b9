//===- SimMemory.h - sparse byte-addressed memory of the simulator -*- C++ -*-===//
//
// A memory instance's contents: a byte array allocated page by page on
// first write, so a description's 128 GiB global memory costs only the
// bytes a kernel touches. Unwritten bytes read as zero. The page size is a
// host-side storage detail, not a property of any device.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_SIM_SIMMEMORY_H
#define KTFLOW_LIB_SIM_SIMMEMORY_H

#include "ktflow/Support/Units.h"

#include <cstring>
#include <memory>
#include <unordered_map>

namespace ktflow::sim {

class SimMemory {
public:
  void read(Bytes address, uint8_t *out, Bytes size) const {
    int64_t a = address.count(), n = size.count();
    while (n > 0) {
      int64_t page = a >> kPageBits, off = a & (kPageSize - 1);
      int64_t chunk = std::min(n, kPageSize - off);
      auto it = pages.find(page);
      if (it == pages.end())
        std::memset(out, 0, chunk);
      else
        std::memcpy(out, it->second.get() + off, chunk);
      out += chunk;
      a += chunk;
      n -= chunk;
    }
  }
  void write(Bytes address, const uint8_t *in, Bytes size) {
    int64_t a = address.count(), n = size.count();
    while (n > 0) {
      int64_t page = a >> kPageBits, off = a & (kPageSize - 1);
      int64_t chunk = std::min(n, kPageSize - off);
      std::unique_ptr<uint8_t[]> &p = pages[page];
      if (!p) {
        p.reset(new uint8_t[kPageSize]);
        std::memset(p.get(), 0, kPageSize);
      }
      std::memcpy(p.get() + off, in, chunk);
      in += chunk;
      a += chunk;
      n -= chunk;
    }
  }

private:
  static constexpr int64_t kPageBits = 16;
  static constexpr int64_t kPageSize = int64_t(1) << kPageBits;
  std::unordered_map<int64_t, std::unique_ptr<uint8_t[]>> pages;
};

} // namespace ktflow::sim

#endif // KTFLOW_LIB_SIM_SIMMEMORY_H
