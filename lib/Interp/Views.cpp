//===- Views.cpp - memory views, access tiles, load and store -------------===//
//
// Loads and stores take one of two paths:
//   * fast: a box tile over a single box-shaped view whose points are all
//     valid; the touched element range is resolved to memory once and the
//     data moves as strided runs, converting between the memory encoding
//     and tensor storage (f16 bits <-> float, ...) run by run;
//   * general: point by point, each coordinate resolved through the view's
//     partitions (masking invalid ones) and each element's memory found
//     separately (a one-entry buffer cache keeps this cheap).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Views.h"

#include <cstring>

using namespace ktflow;
using namespace ktflow::interp;

std::string interp::formatCoord(llvm::ArrayRef<int64_t> c) {
  std::string s = "(";
  for (size_t i = 0; i < c.size(); ++i)
    s += (i ? ", " : "") + std::to_string(c[i]);
  return s + ")";
}

bool MemoryView::isValid(llvm::ArrayRef<int64_t> c) const {
  for (unsigned k = 0; k < rank(); ++k) {
    int64_t rel = c[k] - lo[k];
    if (rel < 0 || rel >= sizes[k])
      return false;
  }
  return coords.contains(c);
}

Elements MemoryView::elementIndex(llvm::ArrayRef<int64_t> c) const {
  int64_t idx = offset.count();
  for (unsigned k = 0; k < rank(); ++k)
    idx += (c[k] - lo[k]) * strides[k];
  return Elements(idx);
}

const MemoryView *View::resolve(llvm::ArrayRef<int64_t> c) const {
  for (const auto &part : parts)
    if (part->isValid(c))
      return part.get();
  return nullptr;
}

unsigned AccessTile::baseRank() const {
  return view ? view->rank : tensorBase->rank();
}
int64_t AccessTile::numPositions() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}
int64_t AccessTile::numPoints() const {
  return boxForm ? numPositions() : int64_t(positions.size());
}

//===----------------------------------------------------------------------===//
// Element encoding
//===----------------------------------------------------------------------===//

/// Decodes `n` elements of kind `k`, `stride` bytes apart, into `dst[di..]`.
static void decodeRun(ElemKind k, const uint8_t *src, int64_t stride, int64_t n,
                      Tensor &dst, int64_t di) {
  switch (k) {
  case ElemKind::F16: {
    float *d = dst.f32() + di;
    for (int64_t i = 0; i < n; ++i, src += stride) {
      uint16_t h;
      std::memcpy(&h, src, 2);
      d[i] = halfBitsToFloat(h);
    }
    return;
  }
  case ElemKind::BF16: {
    float *d = dst.f32() + di;
    for (int64_t i = 0; i < n; ++i, src += stride) {
      uint16_t h;
      std::memcpy(&h, src, 2);
      d[i] = bf16BitsToFloat(h);
    }
    return;
  }
  case ElemKind::F32: {
    float *d = dst.f32() + di;
    for (int64_t i = 0; i < n; ++i, src += stride)
      std::memcpy(&d[i], src, 4);
    return;
  }
  case ElemKind::F64: {
    double *d = dst.f64() + di;
    for (int64_t i = 0; i < n; ++i, src += stride)
      std::memcpy(&d[i], src, 8);
    return;
  }
  default: {
    int64_t *d = dst.i64() + di;
    unsigned bytes = elementSize(k).bytes.count();
    for (int64_t i = 0; i < n; ++i, src += stride) {
      int64_t v = 0;
      switch (bytes) {
      case 1:
        v = int8_t(*src);
        break;
      case 2: {
        int16_t x;
        std::memcpy(&x, src, 2);
        v = x;
        break;
      }
      case 4: {
        int32_t x;
        std::memcpy(&x, src, 4);
        v = x;
        break;
      }
      default:
        std::memcpy(&v, src, 8);
      }
      d[i] = wrapInt(k, v);
    }
    return;
  }
  }
}

/// Encodes `n` elements `src[si..]` into memory, `stride` bytes apart.
static void encodeRun(ElemKind k, const Tensor &src, int64_t si, int64_t n,
                      uint8_t *dst, int64_t stride) {
  switch (k) {
  case ElemKind::F16: {
    const float *s = src.f32() + si;
    for (int64_t i = 0; i < n; ++i, dst += stride) {
      uint16_t h = floatToHalfBits(s[i]);
      std::memcpy(dst, &h, 2);
    }
    return;
  }
  case ElemKind::BF16: {
    const float *s = src.f32() + si;
    for (int64_t i = 0; i < n; ++i, dst += stride) {
      uint16_t h = floatToBF16Bits(s[i]);
      std::memcpy(dst, &h, 2);
    }
    return;
  }
  case ElemKind::F32: {
    const float *s = src.f32() + si;
    for (int64_t i = 0; i < n; ++i, dst += stride)
      std::memcpy(dst, &s[i], 4);
    return;
  }
  case ElemKind::F64: {
    const double *s = src.f64() + si;
    for (int64_t i = 0; i < n; ++i, dst += stride)
      std::memcpy(dst, &s[i], 8);
    return;
  }
  default: {
    const int64_t *s = src.i64() + si;
    unsigned bytes = elementSize(k).bytes.count();
    for (int64_t i = 0; i < n; ++i, dst += stride) {
      int64_t v = k == ElemKind::I1 ? (s[i] ? 1 : 0) : s[i];
      std::memcpy(dst, &v, bytes); // little endian: low bytes first
    }
    return;
  }
  }
}

//===----------------------------------------------------------------------===//
// Memory resolution
//===----------------------------------------------------------------------===//

namespace {
struct Resolved {
  uint8_t *ptr = nullptr;
  Buffer *buffer = nullptr;
};
} // namespace

/// Memory for elements [first, last] of `view`; throws when it is not all
/// allocated. `coord` names the access in the message.
static Resolved resolveRange(const MemoryView &view, Elements first,
                             Elements last, MemoryContext &mem,
                             llvm::ArrayRef<int64_t> coord) {
  ElementSize esize = elementSize(view.kind);
  Bytes addr = toBytes(first, esize);
  Bytes size = toBytes(last - first + Elements(1), esize);
  auto where = [&]() {
    return "coordinate " + formatCoord(coord) + " -> element " +
           std::to_string(first.count()) + " (byte " +
           std::to_string(addr.count()) + ")";
  };
  switch (view.space) {
  case SpaceKind::Unspecified:
    throw InterpError{"access through a view in the 'unspecified' memory "
                      "space (placement not decided) at " + where()};
  case SpaceKind::Global: {
    Buffer *b = mem.global.find(addr, size);
    if (!b)
      throw InterpError{"global memory access outside every bound buffer: " +
                        where() + ", " + std::to_string(size.count()) + " bytes"};
    return {b->bytes.data() + (addr - b->base).count(), b};
  }
  case SpaceKind::Local: {
    int64_t tile = view.ctId < 0 ? mem.tile : view.ctId;
    if (tile >= mem.pads.numTiles())
      throw InterpError{"ct_id " + std::to_string(tile) +
                        " names no tile (the grid has " +
                        std::to_string(mem.pads.numTiles()) + " tiles)"};
    uint8_t *p = mem.pads.access(tile, addr, size);
    if (!p)
      throw InterpError{"scratchpad access outside [0, " +
                        std::to_string(mem.pads.capacity().count()) +
                        ") bytes of tile " + std::to_string(tile) + " (" +
                        mem.pads.source() + "): " + where() + ", " +
                        std::to_string(size.count()) + " bytes"};
    return {p, nullptr};
  }
  }
  return {};
}

/// Race bookkeeping for `n` elements of `esize` bytes, `stride` bytes
/// apart, starting at `p` inside `buffer`.
static void noteRun(Buffer &buffer, const uint8_t *p, int64_t stride, int64_t n,
                    int64_t esize, bool isWrite, int64_t tile) {
  int64_t offset = p - buffer.bytes.data();
  for (int64_t i = 0; i < n; ++i, offset += stride) {
    std::string conflict = buffer.noteAccess(offset, esize, isWrite, tile);
    if (!conflict.empty())
      throw InterpError{conflict};
  }
}

bool interp::readElement(const View &view, llvm::ArrayRef<int64_t> coord,
                         MemoryContext &mem, Scalar &out) {
  const MemoryView *part = view.resolve(coord);
  if (!part)
    return false;
  Elements idx = part->elementIndex(coord);
  Resolved r = resolveRange(*part, idx, idx, mem, coord);
  Tensor tmp(part->kind, {});
  decodeRun(part->kind, r.ptr, 0, 1, tmp, 0);
  out = tmp.get(0);
  return true;
}

//===----------------------------------------------------------------------===//
// Box fast path
//===----------------------------------------------------------------------===//

/// If every point of box tile `tile` is valid in a single box view, the
/// view; else null.
static const MemoryView *fullyValidBoxView(const AccessTile &tile) {
  if (!tile.boxForm || !tile.view || tile.view->parts.size() != 1)
    return nullptr;
  const MemoryView &v = *tile.view->parts.front();
  if (!v.coords.isBox() || v.coords.isEmpty())
    return nullptr;
  for (unsigned k = 0; k < v.rank(); ++k) {
    int64_t validLo = std::max(v.coords.lower()[k], v.lo[k]);
    int64_t validHi = std::min(v.coords.upper()[k], v.lo[k] + v.sizes[k] - 1);
    if (tile.boxLo[k] < validLo || tile.boxHi[k] > validHi)
      return nullptr;
  }
  return &v;
}

/// Walks the tile's positions row-major as runs along the last tile
/// dimension: fn(position of run start, element index of run start, run
/// length, element stride within the run).
template <class Fn>
static void forEachRun(const AccessTile &tile, const MemoryView &v, Fn fn) {
  unsigned rank = tile.shape.size();
  if (tile.numPositions() == 0)
    return;
  if (rank == 0) {
    fn(0, v.elementIndex(tile.boxLo).count(), 1, 0);
    return;
  }
  llvm::SmallVector<int64_t, 4> estride(rank);
  for (unsigned i = 0; i < rank; ++i)
    estride[i] = v.strides[tile.perm[i]];
  int64_t base = v.elementIndex(tile.boxLo).count();
  int64_t inner = tile.shape[rank - 1];
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  int64_t pos = 0;
  while (true) {
    int64_t e = base;
    for (unsigned i = 0; i + 1 < rank; ++i)
      e += idx[i] * estride[i];
    fn(pos, e, inner, estride[rank - 1]);
    pos += inner;
    int level = int(rank) - 2;
    for (; level >= 0; --level) {
      if (++idx[level] < tile.shape[level])
        break;
      idx[level] = 0;
    }
    if (level < 0)
      return;
  }
}

//===----------------------------------------------------------------------===//
// Point-by-point path
//===----------------------------------------------------------------------===//

/// Calls fn(position, coordinate) for every unmasked point in enumeration
/// order (box tiles enumerate row-major over positions, which is the
/// lexicographic order of order(p)).
template <class Fn>
static void forEachPoint(const AccessTile &tile, Fn fn) {
  unsigned baseRank = tile.baseRank();
  if (!tile.boxForm) {
    for (size_t p = 0, n = tile.positions.size(); p < n; ++p)
      if (!tile.masked[p])
        fn(tile.positions[p],
           llvm::ArrayRef<int64_t>(tile.coords.data() + p * baseRank, baseRank));
    return;
  }
  unsigned rank = tile.shape.size();
  int64_t n = tile.numPositions();
  llvm::SmallVector<int64_t, 4> c(tile.boxLo.begin(), tile.boxLo.end());
  llvm::SmallVector<int64_t, 4> idx(rank, 0);
  for (int64_t pos = 0; pos < n; ++pos) {
    for (unsigned i = 0; i < rank; ++i)
      c[tile.perm[i]] = tile.boxLo[tile.perm[i]] + idx[i];
    fn(pos, llvm::ArrayRef<int64_t>(c));
    for (int level = int(rank) - 1; level >= 0; --level) {
      if (++idx[level] < tile.shape[level])
        break;
      idx[level] = 0;
    }
  }
}

TensorPtr interp::loadTile(const AccessTile &tile, ElemKind kind,
                           MemoryContext &mem) {
  auto out = std::make_shared<Tensor>(kind, tile.shape);
  if (tile.tensorBase) {
    const Tensor &src = *tile.tensorBase;
    auto strides = src.strides();
    forEachPoint(tile, [&](int64_t pos, llvm::ArrayRef<int64_t> c) {
      int64_t lin = 0;
      for (unsigned k = 0; k < src.rank(); ++k) {
        if (c[k] < 0 || c[k] >= src.shape()[k])
          return; // masked
        lin += c[k] * strides[k];
      }
      out->copyElement(pos, src, lin);
    });
    return out;
  }
  if (const MemoryView *v = fullyValidBoxView(tile)) {
    if (tile.numPositions() == 0)
      return out;
    Elements first = v->elementIndex(tile.boxLo);
    Elements last = v->elementIndex(tile.boxHi);
    Resolved r = resolveRange(*v, first, last, mem, tile.boxLo);
    int64_t esize = elementSize(v->kind).bytes.count();
    forEachRun(tile, *v, [&](int64_t pos, int64_t e, int64_t n, int64_t s) {
      if (r.buffer && mem.global.checksRaces())
        noteRun(*r.buffer, r.ptr + (e - first.count()) * esize, s * esize, n, esize,
                false, mem.tile);
      decodeRun(kind, r.ptr + (e - first.count()) * esize, s * esize, n, *out, pos);
    });
    return out;
  }
  const View &view = *tile.view;
  forEachPoint(tile, [&](int64_t pos, llvm::ArrayRef<int64_t> c) {
    const MemoryView *part = view.resolve(c);
    if (!part)
      return; // masked: stays 0
    Elements idx = part->elementIndex(c);
    Resolved r = resolveRange(*part, idx, idx, mem, c);
    if (r.buffer && mem.global.checksRaces())
      noteRun(*r.buffer, r.ptr, 0, 1, elementSize(part->kind).bytes.count(), false,
              mem.tile);
    decodeRun(kind, r.ptr, 0, 1, *out, pos);
  });
  return out;
}

void interp::storeTile(const AccessTile &tile, const Tensor &data,
                       MemoryContext &mem) {
  if (tile.tensorBase)
    throw InterpError{"store through an access tile whose base is a tensor "
                      "value is not supported (tensors are immutable)"};
  ElemKind kind = data.kind();
  if (const MemoryView *v = fullyValidBoxView(tile)) {
    if (tile.numPositions() == 0)
      return;
    Elements first = v->elementIndex(tile.boxLo);
    Elements last = v->elementIndex(tile.boxHi);
    Resolved r = resolveRange(*v, first, last, mem, tile.boxLo);
    if (r.buffer)
      r.buffer->written = true;
    int64_t esize = elementSize(v->kind).bytes.count();
    forEachRun(tile, *v, [&](int64_t pos, int64_t e, int64_t n, int64_t s) {
      if (r.buffer && mem.global.checksRaces())
        noteRun(*r.buffer, r.ptr + (e - first.count()) * esize, s * esize, n, esize,
                true, mem.tile);
      encodeRun(kind, data, pos, n, r.ptr + (e - first.count()) * esize, s * esize);
    });
    return;
  }
  const View &view = *tile.view;
  forEachPoint(tile, [&](int64_t pos, llvm::ArrayRef<int64_t> c) {
    const MemoryView *part = view.resolve(c);
    if (!part)
      return; // masked: writes nothing
    Elements idx = part->elementIndex(c);
    Resolved r = resolveRange(*part, idx, idx, mem, c);
    if (r.buffer)
      r.buffer->written = true;
    if (r.buffer && mem.global.checksRaces())
      noteRun(*r.buffer, r.ptr, 0, 1, elementSize(part->kind).bytes.count(), true,
              mem.tile);
    encodeRun(kind, data, pos, 1, r.ptr, 0);
  });
}
