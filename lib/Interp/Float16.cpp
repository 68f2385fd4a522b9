//===- Float16.cpp - rounding a double to a small binary float format -----===//
//
// One routine for every narrow IEEE-style format (binary16, bfloat16): the
// double's 53-bit significand is shifted to the target quantum (which is
// fixed at the subnormal range's quantum below the smallest normal) and
// rounded to nearest even. A carry out of the significand bumps the
// exponent, which also handles rounding up into the next binade, from the
// subnormals into the normals, and into infinity.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Float16.h"

#include <algorithm>

using namespace ktflow;
using namespace ktflow::interp;

uint32_t ktflow::interp::doubleToSmallFloatBits(double d, unsigned expBits,
                                                unsigned mantBits) {
  uint64_t x = doubleBits(d);
  uint32_t sign = uint32_t(x >> 63) << (expBits + mantBits);
  uint64_t absx = x & 0x7fffffffffffffffull;
  uint32_t expMask = ((1u << expBits) - 1u) << mantBits;
  if (absx >= 0x7ff0000000000000ull) {
    if (absx > 0x7ff0000000000000ull) // NaN: quiet, keep the top payload bits
      return sign | expMask | (1u << (mantBits - 1)) |
             uint32_t((absx >> (52 - mantBits)) & ((1u << mantBits) - 1u));
    return sign | expMask;
  }
  if ((absx >> 52) == 0) // zero or a double subnormal: far below any target
    return sign;
  int bias = (1 << (expBits - 1)) - 1;
  int emin = 1 - bias;
  int e = int(absx >> 52) - 1023;
  uint64_t mant = (absx & 0xfffffffffffffull) | (1ull << 52);
  // value = mant * 2^(e - 52); target quantum is 2^(max(e, emin) - mantBits).
  int shift = std::max(e, emin) - int(mantBits) - (e - 52);
  if (shift >= 64)
    return sign;
  uint64_t r = mant >> shift;
  uint64_t rem = mant & ((1ull << shift) - 1ull);
  uint64_t half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (r & 1ull)))
    ++r;
  if (e < emin) // subnormal (a carry into 1 << mantBits is the smallest normal)
    return sign | uint32_t(r);
  if (r == (1ull << (mantBits + 1))) {
    r >>= 1;
    ++e;
  }
  int biased = e + bias;
  if (biased >= int((1u << expBits) - 1u))
    return sign | expMask;
  return sign | (uint32_t(biased) << mantBits) |
         uint32_t(r & ((1ull << mantBits) - 1ull));
}
