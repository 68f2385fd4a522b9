//===- Memory.cpp - global memory and tile scratchpads --------------------===//
//
// Buffers are few, so lookup is a linear scan with a one-entry cache (loads
// and stores touch the same buffer many times in a row).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Memory.h"

using namespace ktflow;
using namespace ktflow::interp;

int64_t Buffer::numElements() const {
  return int64_t(bytes.size()) / elementSize(kind).bytes.count();
}

bool GlobalMemory::isFree(Bytes base, Bytes size) const {
  for (const auto &b : all)
    if (base < b->end() && b->base < base + size)
      return false;
  return true;
}

Buffer &GlobalMemory::allocateAt(std::string name, ElemKind kind,
                                 std::vector<int64_t> shape, Bytes base,
                                 Bytes size) {
  auto buffer = std::make_unique<Buffer>();
  buffer->name = std::move(name);
  buffer->kind = kind;
  buffer->shape = std::move(shape);
  buffer->base = base;
  buffer->bytes.assign(size.count(), 0);
  all.push_back(std::move(buffer));
  return *all.back();
}

Buffer &GlobalMemory::allocate(std::string name, ElemKind kind,
                               std::vector<int64_t> shape, Bytes size) {
  // Start above 1 MiB so that stray small constant addresses hit no buffer.
  Bytes next(1 << 20);
  for (const auto &b : all)
    if (b->end() > next)
      next = b->end();
  next = next.alignTo(Bytes(kAlignment));
  // Leave a guard gap so that an overrun of one buffer is not silently a
  // read of the next one.
  if (!all.empty())
    next = (next + Bytes(kAlignment)).alignTo(Bytes(kAlignment));
  return allocateAt(std::move(name), kind, std::move(shape), next, size);
}

Buffer *GlobalMemory::find(Bytes addr, Bytes size) {
  if (lastHit && addr >= lastHit->base && addr + size <= lastHit->end())
    return lastHit;
  for (auto &b : all)
    if (addr >= b->base && addr + size <= b->end()) {
      lastHit = b.get();
      return lastHit;
    }
  return nullptr;
}

uint8_t *Scratchpads::access(int64_t tile, Bytes addr, Bytes size) {
  if (tile < 0 || tile >= numTiles() || addr < Bytes(0) ||
      addr + size > capacityBytes)
    return nullptr;
  std::vector<uint8_t> &pad = pads[tile];
  if (pad.empty())
    pad.assign(capacityBytes.count(), 0);
  return pad.data() + addr.count();
}

void GlobalMemory::enableRaceChecks() {
  raceChecks = true;
  for (auto &b : all) {
    b->writer.assign(b->bytes.size(), -1);
    b->reader.assign(b->bytes.size(), -1);
  }
}

std::string Buffer::noteAccess(int64_t offset, int64_t size, bool isWrite,
                               int64_t tile) {
  for (int64_t i = offset; i < offset + size; ++i) {
    int32_t w = writer[i], r = reader[i];
    std::string other;
    if (w >= 0 && w != tile)
      other = "tile " + std::to_string(w) + " wrote";
    else if (isWrite && r >= 0 && r != tile)
      other = "tile " + std::to_string(r) + " read";
    if (!other.empty())
      return "cross-tile conflict: tile " + std::to_string(tile) +
             (isWrite ? " writes" : " reads") + " byte " +
             std::to_string((base + Bytes(i)).count()) + " of buffer '" + name +
             "', which " + other + " (a data race, ktir.md §2.4)";
    if (isWrite)
      writer[i] = int32_t(tile);
    else
      reader[i] = int32_t(tile);
  }
  return "";
}
