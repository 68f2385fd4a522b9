//===- Float16Test.cpp - binary16 / bfloat16 rounding ---------------------===//
#include "ktflow/Interp/Float16.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace ktflow::interp;

TEST(Float16, ExactValuesRoundTrip) {
  // Every finite binary16 value converts to float and back unchanged.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff))
      continue; // NaN payloads are checked separately
    float f = halfBitsToFloat(uint16_t(h));
    EXPECT_EQ(floatToHalfBits(f), h) << std::hex << h;
    EXPECT_EQ(doubleToHalfBits(f), h) << std::hex << h;
  }
}

TEST(Float16, TiesToEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: rounds to even (1).
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: rounds up to even.
  EXPECT_EQ(floatToHalfBits(1.0f + 3 * 0x1p-11f), 0x3c02);
  // Just above the tie rounds up.
  EXPECT_EQ(floatToHalfBits(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
  EXPECT_EQ(doubleToHalfBits(1.0 + 0x1p-11), 0x3c00);
  EXPECT_EQ(doubleToHalfBits(1.0 + 0x1p-11 + 0x1p-40), 0x3c01);
}

TEST(Float16, Subnormals) {
  EXPECT_EQ(floatToHalfBits(0x1p-24f), 0x0001);          // smallest subnormal
  EXPECT_EQ(floatToHalfBits(0x1p-25f), 0x0000);          // tie with 0: even
  EXPECT_EQ(floatToHalfBits(0x1.8p-25f), 0x0001);        // above the tie
  EXPECT_EQ(floatToHalfBits(3 * 0x1p-25f), 0x0002);      // 1.5 ulp: tie to even 2
  EXPECT_EQ(floatToHalfBits(0x1p-14f - 0x1p-25f), 0x0400); // rounds up into normals
  EXPECT_EQ(floatToHalfBits(-0x1p-24f), 0x8001);
  EXPECT_EQ(halfBitsToFloat(0x0001), 0x1p-24f);
  EXPECT_EQ(halfBitsToFloat(0x03ff), 1023 * 0x1p-24f);
  EXPECT_EQ(doubleToHalfBits(0x1p-25), 0x0000);
  EXPECT_EQ(doubleToHalfBits(3 * 0x1p-25), 0x0002);
}

TEST(Float16, OverflowToInfinity) {
  EXPECT_EQ(floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalfBits(65519.0f), 0x7bff); // below the midpoint to 2^16
  EXPECT_EQ(floatToHalfBits(65520.0f), 0x7c00); // the midpoint rounds to inf
  EXPECT_EQ(floatToHalfBits(-1e6f), 0xfc00);
  EXPECT_EQ(doubleToHalfBits(65520.0), 0x7c00);
  EXPECT_EQ(doubleToHalfBits(65519.99), 0x7bff);
  EXPECT_TRUE(std::isinf(halfBitsToFloat(0x7c00)));
}

TEST(Float16, NaNStaysNaN) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  uint16_t h = floatToHalfBits(nan);
  EXPECT_EQ(h & 0x7c00, 0x7c00);
  EXPECT_NE(h & 0x3ff, 0);
  EXPECT_TRUE(std::isnan(halfBitsToFloat(h)));
  EXPECT_TRUE(std::isnan(halfBitsToFloat(doubleToHalfBits(std::nan("")))));
  EXPECT_TRUE(std::isnan(roundToBF16(nan)));
}

TEST(Float16, FloatAndDoublePathsAgree) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 200000; ++i) {
    float f = bitsToFloat(bits(rng));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(floatToHalfBits(f), doubleToHalfBits(f)) << f;
    ASSERT_EQ(floatToBF16Bits(f), doubleToBF16Bits(f)) << f;
  }
}

TEST(BFloat16, RoundingAndRange) {
  EXPECT_EQ(floatToBF16Bits(1.0f), 0x3f80);
  EXPECT_EQ(floatToBF16Bits(1.0f + 0x1p-8f), 0x3f80);     // tie: even
  EXPECT_EQ(floatToBF16Bits(1.0f + 3 * 0x1p-8f), 0x3f82); // tie: up to even
  EXPECT_EQ(floatToBF16Bits(3.4e38f), 0x7f80);            // overflow to inf
  EXPECT_EQ(bf16BitsToFloat(0x0001), bitsToFloat(0x00010000)); // subnormal
  // A double just above a bf16 tie must not be double-rounded through float.
  double justAbove = 1.0 + 0x1p-8 + 0x1p-40;
  EXPECT_EQ(doubleToBF16Bits(justAbove), 0x3f81);
}
