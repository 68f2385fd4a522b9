//===- Memory.h - global memory and tile scratchpads ------------*- C++ -*-===//
//
// Global memory is one flat byte-addressed space shared by all tiles; only
// the ranges of bound buffers exist, so an access outside every buffer is
// detected (ktir.md §2.3). Buffers are placed at 128-byte aligned addresses
// (or at the fixed address a kernel's constant offsets demand). Every tile
// owns a private scratchpad of fixed capacity, addressed from 0 and
// allocated (zero-filled) on first use.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_MEMORY_H
#define KTFLOW_INTERP_MEMORY_H

#include "ktflow/Interp/Value.h"
#include "ktflow/Support/Units.h"

#include <memory>
#include <string>
#include <vector>

namespace ktflow::interp {

/// A buffer in global memory.
struct Buffer {
  std::string name;
  ElemKind kind = ElemKind::F16;
  std::vector<int64_t> shape;
  Bytes base;
  std::vector<uint8_t> bytes;
  /// Set when any store wrote into the buffer.
  bool written = false;
  /// Race checking (empty unless enabled): per byte, the tile that last
  /// wrote it and a tile that read it (-1: none).
  std::vector<int32_t> writer, reader;

  /// Records an access by `tile` to bytes [offset, offset + size) of this
  /// buffer; returns a description of the first cross-tile conflict, or "".
  std::string noteAccess(int64_t offset, int64_t size, bool isWrite, int64_t tile);

  Bytes size() const { return Bytes(int64_t(bytes.size())); }
  Bytes end() const { return base + size(); }
  int64_t numElements() const;
};

class GlobalMemory {
public:
  static constexpr int64_t kAlignment = 128;

  /// Places a buffer of `size` bytes at the next free 128-byte aligned
  /// address at or above `minAddress`.
  Buffer &allocate(std::string name, ElemKind kind, std::vector<int64_t> shape,
                   Bytes size);
  /// Places a buffer at a fixed address (its caller checked it is free).
  Buffer &allocateAt(std::string name, ElemKind kind, std::vector<int64_t> shape,
                     Bytes base, Bytes size);
  /// True if [base, base + size) overlaps no buffer.
  bool isFree(Bytes base, Bytes size) const;

  /// The buffer holding all of [addr, addr + size), or null.
  Buffer *find(Bytes addr, Bytes size);
  std::vector<std::unique_ptr<Buffer>> &buffers() { return all; }
  /// Starts tracking which tile reads and writes each byte.
  void enableRaceChecks();
  bool checksRaces() const { return raceChecks; }

private:
  std::vector<std::unique_ptr<Buffer>> all;
  Buffer *lastHit = nullptr;
  bool raceChecks = false;
};

class Scratchpads {
public:
  Scratchpads(int64_t numTiles, Bytes capacity, std::string source)
      : pads(numTiles), capacityBytes(capacity), capacitySource(std::move(source)) {}
  Bytes capacity() const { return capacityBytes; }
  /// Where the capacity comes from (InterpOptions::scratchpadSource).
  const std::string &source() const { return capacitySource; }
  int64_t numTiles() const { return int64_t(pads.size()); }
  /// Pointer to bytes [addr, addr + size) of tile `tile`'s scratchpad, or
  /// null when the range leaves [0, capacity).
  uint8_t *access(int64_t tile, Bytes addr, Bytes size);

private:
  std::vector<std::vector<uint8_t>> pads;
  Bytes capacityBytes;
  std::string capacitySource;
};

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_MEMORY_H
