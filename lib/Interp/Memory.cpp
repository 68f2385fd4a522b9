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
