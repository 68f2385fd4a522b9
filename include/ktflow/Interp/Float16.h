//===- Float16.h - binary16 and bfloat16 rounding ---------------*- C++ -*-===//
//
// The interpreter keeps f16 and bf16 values in float storage, rounded to
// their type after every operation (ktir.md §7.1). These helpers convert
// between float/double and the 16-bit encodings with round-to-nearest-even,
// keeping subnormals, turning overflow into infinities and preserving NaN.
// The float versions are branch-light because they run in the elementwise
// hot loops; the double version is one generic routine parameterised by the
// target format, used where a value starts in double (transcendentals,
// constants, sitofp) so that it is rounded once, not twice.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_INTERP_FLOAT16_H
#define KTFLOW_INTERP_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace ktflow::interp {

inline uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
inline float bitsToFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
inline uint64_t doubleBits(double d) {
  uint64_t x;
  std::memcpy(&x, &d, 8);
  return x;
}

/// float -> IEEE binary16 bits, round to nearest even.
inline uint16_t floatToHalfBits(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) {
    if (absx > 0x7f800000u) // NaN: keep it quiet, keep the top payload bits.
      return uint16_t(sign | 0x7e00u | ((absx >> 13) & 0x3ffu));
    return uint16_t(sign | 0x7c00u);
  }
  if (absx >= 0x477ff000u) // >= 65520 rounds to infinity.
    return uint16_t(sign | 0x7c00u);
  if (absx >= 0x38800000u) { // normal in binary16 (>= 2^-14)
    uint32_t r = absx - ((127u - 15u) << 23);
    r = (r + 0xfffu + ((r >> 13) & 1u)) >> 13;
    return uint16_t(sign | r);
  }
  // Subnormal in binary16: the quantum is 2^-24.
  uint32_t e = absx >> 23;
  if (e == 0)
    return uint16_t(sign); // float subnormals are far below 2^-25
  uint32_t shift = 126u - e; // >= 14
  if (shift >= 25u)
    return uint16_t(sign);
  uint32_t m = (absx & 0x7fffffu) | 0x800000u;
  uint32_t r = m >> shift;
  uint32_t rem = m & ((1u << shift) - 1u);
  uint32_t half = 1u << (shift - 1u);
  if (rem > half || (rem == half && (r & 1u)))
    ++r;
  return uint16_t(sign | r);
}

/// IEEE binary16 bits -> float (exact).
inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return bitsToFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = float(mant) * (1.0f / 16777216.0f); // mant * 2^-24, exact
    return sign ? -v : v;
  }
  return bitsToFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

/// float -> bfloat16 bits, round to nearest even.
inline uint16_t floatToBF16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u); // quiet NaN
  x = x + 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}
inline float bf16BitsToFloat(uint16_t b) { return bitsToFloat(uint32_t(b) << 16); }

/// Rounds a float to the nearest binary16 value, returned as float.
inline float roundToHalf(float f) { return halfBitsToFloat(floatToHalfBits(f)); }
/// Rounds a float to the nearest bfloat16 value, returned as float.
inline float roundToBF16(float f) { return bf16BitsToFloat(floatToBF16Bits(f)); }

/// Rounds a double once to a binary format with `expBits` exponent bits and
/// `mantBits` fraction bits (IEEE-style: subnormals, infinities, NaN) and
/// returns the encoding in the low bits.
uint32_t doubleToSmallFloatBits(double d, unsigned expBits, unsigned mantBits);

inline uint16_t doubleToHalfBits(double d) {
  return uint16_t(doubleToSmallFloatBits(d, 5, 10));
}
inline uint16_t doubleToBF16Bits(double d) {
  return uint16_t(doubleToSmallFloatBits(d, 8, 7));
}

} // namespace ktflow::interp

#endif // KTFLOW_INTERP_FLOAT16_H
