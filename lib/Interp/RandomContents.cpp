//===- RandomContents.cpp - seeded contents of unbound buffers ------------===//
#include "ktflow/Interp/RandomContents.h"

#include "ktflow/Interp/Float16.h"

#include <cmath>
#include <cstring>

using namespace ktflow;
using namespace ktflow::interp;

RandomContents::RandomContents(uint64_t seed)
    : state(seed * 0x9e3779b97f4a7c15ull + 0x1234567ull) {}

uint64_t RandomContents::next() {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double RandomContents::uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

double RandomContents::normal() { // Box-Muller; each pair of uniforms gives two samples
  if (spare) {
    double v = *spare;
    spare.reset();
    return v;
  }
  double u1 = uniform(), u2 = uniform();
  if (u1 < 1e-300)
    u1 = 1e-300;
  double r = std::sqrt(-2.0 * std::log(u1));
  double angle = 6.283185307179586 * u2, s, c;
#if defined(__GLIBC__)
  // One call for both: glibc's sincos shares sin's and cos's code and
  // gives their bits exactly (checked on 5e7 angles), at about half the
  // cost, and random contents dominate the interpretation of large inputs.
  sincos(angle, &s, &c);
#else
  s = std::sin(angle);
  c = std::cos(angle);
#endif
  spare = r * s;
  return r * c;
}

void RandomContents::fill(ElemKind kind, int64_t elements, uint8_t *out) {
  int64_t esize = elementSize(kind).bytes.count();
  uint8_t *p = out;
  for (int64_t i = 0; i < elements; ++i, p += esize) {
    if (isFloatKind(kind)) {
      // Random data only needs to be deterministic, not correctly rounded
      // from the double sample.
      double v = normal();
      switch (kind) {
      case ElemKind::F16: {
        uint16_t h = floatToHalfBits(float(v));
        std::memcpy(p, &h, 2);
        break;
      }
      case ElemKind::BF16: {
        uint16_t h = floatToBF16Bits(float(v));
        std::memcpy(p, &h, 2);
        break;
      }
      case ElemKind::F32: {
        float f = float(v);
        std::memcpy(p, &f, 4);
        break;
      }
      default:
        std::memcpy(p, &v, 8);
      }
      continue;
    }
    int64_t v = kind == ElemKind::I1 ? int64_t(next() & 1) : int64_t(next() % 16);
    std::memcpy(p, &v, esize); // little endian: the low bytes
  }
}
