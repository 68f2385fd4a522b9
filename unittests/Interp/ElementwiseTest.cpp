//===- ElementwiseTest.cpp - arith/math kernels, reductions, matmul -------===//
#include "ktflow/Interp/Elementwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ktflow::interp;
using mlir::arith::CmpFPredicate;
using mlir::arith::CmpIPredicate;

static Scalar f16(double v) { return Scalar::ofFloat(ElemKind::F16, v); }
static Scalar f32(double v) { return Scalar::ofFloat(ElemKind::F32, v); }

static Tensor tensorOf(ElemKind k, std::initializer_list<int64_t> shape,
                       std::initializer_list<double> values) {
  Tensor t(k, llvm::ArrayRef<int64_t>(shape.begin(), shape.size()));
  int64_t i = 0;
  for (double v : values)
    t.set(i++, isFloatKind(k) ? Scalar::ofFloat(k, v) : Scalar::ofInt(k, int64_t(v)));
  return t;
}

TEST(ElementwiseFloat, RoundsOncePerOpToF16) {
  // 2048 + 1 is not an f16 value (spacing 2): ties to even 2048.
  EXPECT_EQ(applyBinary(FloatBinary::Add, f16(2048), f16(1)).f, 2048.0);
  EXPECT_EQ(applyBinary(FloatBinary::Add, f16(2048), f16(3)).f, 2052.0);
  EXPECT_EQ(applyBinary(FloatBinary::Div, f16(1), f16(3)).f, double(roundToHalf(1.0f / 3)));
  EXPECT_TRUE(std::isinf(applyBinary(FloatBinary::Mul, f16(300), f16(300)).f));
  // The same in f32 keeps the exact sum.
  EXPECT_EQ(applyBinary(FloatBinary::Add, f32(2048), f32(1)).f, 2049.0);

  Tensor a = tensorOf(ElemKind::F16, {3}, {2048, 0.1, 60000});
  Tensor b = tensorOf(ElemKind::F16, {3}, {1, 0.2, 60000});
  TensorPtr s = applyBinary(FloatBinary::Add, a, b);
  EXPECT_EQ(s->get(0).f, 2048.0);
  EXPECT_EQ(s->get(1).f, double(roundToHalf(roundToHalf(0.1f) + roundToHalf(0.2f))));
  EXPECT_TRUE(std::isinf(s->get(2).f));
}

TEST(ElementwiseFloat, MaximumMinimumAndNum) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(applyBinary(FloatBinary::MaximumF, f32(nan), f32(1)).f));
  EXPECT_EQ(applyBinary(FloatBinary::MaxNumF, f32(nan), f32(1)).f, 1.0);
  EXPECT_EQ(applyBinary(FloatBinary::MinNumF, f32(2), f32(nan)).f, 2.0);
  // -0 < +0 for maximumf / minimumf.
  EXPECT_FALSE(std::signbit(applyBinary(FloatBinary::MaximumF, f32(-0.0), f32(0.0)).f));
  EXPECT_FALSE(std::signbit(applyBinary(FloatBinary::MaximumF, f32(0.0), f32(-0.0)).f));
  EXPECT_TRUE(std::signbit(applyBinary(FloatBinary::MinimumF, f32(0.0), f32(-0.0)).f));
}

TEST(ElementwiseFloat, TranscendentalsRoundOnce) {
  Scalar e = applyUnary(FloatUnary::Exp, f16(1.0));
  EXPECT_EQ(e.f, double(halfBitsToFloat(doubleToHalfBits(std::exp(1.0)))));
  EXPECT_EQ(applyUnary(FloatUnary::Rsqrt, f32(4.0)).f, 0.5);
  Tensor t = tensorOf(ElemKind::F16, {2}, {0.0, -1.0});
  TensorPtr r = applyUnary(FloatUnary::Exp, t);
  EXPECT_EQ(r->get(0).f, 1.0);
  EXPECT_EQ(r->get(1).f, double(halfBitsToFloat(doubleToHalfBits(std::exp(-1.0)))));
}

TEST(ElementwiseInt, WrapDivideAndCompare) {
  Scalar out;
  auto i8 = [](int64_t v) { return Scalar::ofInt(ElemKind::I8, v); };
  auto idx = [](int64_t v) { return Scalar::ofInt(ElemKind::Index, v); };
  ASSERT_TRUE(applyBinary(IntBinary::Add, i8(127), i8(1), out));
  EXPECT_EQ(out.i, -128);
  ASSERT_TRUE(applyBinary(IntBinary::DivS, idx(-7), idx(2), out));
  EXPECT_EQ(out.i, -3); // truncates toward zero
  ASSERT_TRUE(applyBinary(IntBinary::FloorDivS, idx(-7), idx(2), out));
  EXPECT_EQ(out.i, -4);
  ASSERT_TRUE(applyBinary(IntBinary::RemS, idx(-7), idx(2), out));
  EXPECT_EQ(out.i, -1);
  ASSERT_TRUE(applyBinary(IntBinary::CeilDivS, idx(7), idx(2), out));
  EXPECT_EQ(out.i, 4);
  ASSERT_TRUE(applyBinary(IntBinary::DivU, i8(-1), i8(2), out)); // 255 / 2
  EXPECT_EQ(out.i, 127);
  EXPECT_FALSE(applyBinary(IntBinary::DivU, idx(1), idx(0), out));
  EXPECT_FALSE(applyBinary(IntBinary::RemS, idx(1), idx(0), out));
  EXPECT_TRUE(compare(CmpIPredicate::ult, i8(1), i8(-1)));
  EXPECT_FALSE(compare(CmpIPredicate::slt, i8(1), i8(-1)));

  Tensor a = tensorOf(ElemKind::I32, {2}, {6, 1});
  Tensor z = tensorOf(ElemKind::I32, {2}, {3, 0});
  int64_t bad = -1;
  EXPECT_EQ(applyBinary(IntBinary::DivS, a, z, bad), nullptr);
  EXPECT_EQ(bad, 1);
}

TEST(ElementwiseCast, Conversions) {
  // sitofp rounds to nearest even: 2049 -> 2048 in f16.
  EXPECT_EQ(applyCast(CastKind::SIToFP, ElemKind::F16, Scalar::ofInt(ElemKind::I32, 2049)).f,
            2048.0);
  EXPECT_EQ(applyCast(CastKind::FPToSI, ElemKind::I32, f32(-2.75)).i, -2);
  EXPECT_EQ(applyCast(CastKind::ExtUI, ElemKind::I32, Scalar::ofInt(ElemKind::I1, 1)).i, 1);
  EXPECT_EQ(applyCast(CastKind::ExtSI, ElemKind::I32, Scalar::ofInt(ElemKind::I1, 1)).i, -1);
  EXPECT_EQ(applyCast(CastKind::TruncI, ElemKind::I8, Scalar::ofInt(ElemKind::I32, 0x1ff)).i, -1);
  EXPECT_EQ(applyCast(CastKind::Bitcast, ElemKind::I16, f16(-2.0)).i, int16_t(0xc000));
  EXPECT_EQ(applyCast(CastKind::Bitcast, ElemKind::F16, Scalar::ofInt(ElemKind::I16, 0x3c00)).f,
            1.0);
  EXPECT_TRUE(std::isinf(applyCast(CastKind::TruncF, ElemKind::F16, f32(1e5)).f));
  EXPECT_TRUE(compare(CmpFPredicate::UNO, f32(std::nan("")), f32(0)));
  EXPECT_FALSE(compare(CmpFPredicate::OGT, f32(std::nan("")), f32(0)));
}

TEST(Reduce, FoldsFromInitInRowMajorOrderWithRounding) {
  // Sequential f16: 2048 + 1 -> 2048 (tie to even), again -> 2048; an
  // exact or pairwise sum would give 2050.
  Tensor in = tensorOf(ElemKind::F16, {1, 3}, {2048, 1, 1});
  Tensor init = tensorOf(ElemKind::F16, {1}, {0});
  EXPECT_EQ(reduce(FloatBinary::Add, in, init, {1})->get(0).f, 2048.0);
  // Starting from the init value: 1 + 1 = 2, then 2 + 2048 -> 2050.
  Tensor in2 = tensorOf(ElemKind::F16, {1, 2}, {1, 2048});
  Tensor init1 = tensorOf(ElemKind::F16, {1}, {1});
  EXPECT_EQ(reduce(FloatBinary::Add, in2, init1, {1})->get(0).f, 2050.0);
  // Reducing dimension 0 folds rows in order, per column.
  Tensor m = tensorOf(ElemKind::F32, {3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor z = tensorOf(ElemKind::F32, {2}, {0, 0});
  TensorPtr cols = reduce(FloatBinary::Add, m, z, {0});
  EXPECT_EQ(cols->get(0).f, 9.0);
  EXPECT_EQ(cols->get(1).f, 12.0);
  // Full reduction to rank 0 and a max.
  Tensor s = tensorOf(ElemKind::F32, {}, {-1e30});
  EXPECT_EQ(reduce(FloatBinary::MaximumF, m, s, {0, 1})->get(0).f, 6.0);
  // The inputs are unchanged (value semantics).
  EXPECT_EQ(z.get(0).f, 0.0);
}

TEST(Matmul, AccumulatesIntoOutsInItsType) {
  Tensor a = tensorOf(ElemKind::F32, {1, 3}, {2048, 1, 1});
  Tensor b = tensorOf(ElemKind::F32, {3, 1}, {1, 1, 1});
  Tensor c = tensorOf(ElemKind::F32, {1, 1}, {1});
  EXPECT_EQ(matmul(a, b, c)->get(0).f, 2051.0);
  Tensor a16 = tensorOf(ElemKind::F16, {1, 3}, {2048, 1, 1});
  Tensor b16 = tensorOf(ElemKind::F16, {3, 1}, {1, 1, 1});
  Tensor c16 = tensorOf(ElemKind::F16, {1, 1}, {0});
  EXPECT_EQ(matmul(a16, b16, c16)->get(0).f, 2048.0); // folded k = 0, 1, 2 in f16
  // Batched, 2x(2x2 @ 2x1).
  Tensor ba = tensorOf(ElemKind::F32, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  Tensor bb = tensorOf(ElemKind::F32, {2, 2, 1}, {1, 1, 2, 0});
  Tensor bc = tensorOf(ElemKind::F32, {2, 2, 1}, {0, 0, 0, 0});
  TensorPtr r = matmul(ba, bb, bc);
  EXPECT_EQ(r->get(0).f, 3.0);
  EXPECT_EQ(r->get(1).f, 7.0);
  EXPECT_EQ(r->get(2).f, 10.0);
  EXPECT_EQ(r->get(3).f, 14.0);
}

TEST(GatherStrided, BroadcastAndTranspose) {
  Tensor row = tensorOf(ElemKind::F32, {3}, {1, 2, 3});
  TensorPtr b = gatherStrided(row, {2, 3}, {0, 1});
  EXPECT_EQ(b->get(4).f, 2.0);
  Tensor m = tensorOf(ElemKind::F32, {2, 3}, {1, 2, 3, 4, 5, 6});
  TensorPtr t = gatherStrided(m, {3, 2}, {1, 3});
  EXPECT_EQ(t->get(1).f, 4.0);
  EXPECT_EQ(t->get(4).f, 3.0);
}
