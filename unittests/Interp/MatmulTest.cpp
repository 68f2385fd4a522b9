//===- MatmulTest.cpp - the interpreter's blocked matmul against its definition ===//
//
// interp::matmul runs a register-blocked kernel with hardware rounding where
// the processor has one (AVX-512 or AVX2 + F16C); each is checked here. Its results must be the definition's bit for bit:
// every product and every sum rounded to the accumulator's kind, k folded in
// increasing order per output element (ktir.md §7.2). These tests compare it
// with that definition written as the plainest loop, on shapes with ragged
// row and column blocks and on values that round in every way (ties,
// subnormals, overflow to infinity, NaN).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Interp/Elementwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace ktflow::interp;

namespace {

float roundKind(ElemKind kind, float v) {
  switch (kind) {
  case ElemKind::F16:
    return roundToHalf(v);
  case ElemKind::BF16:
    return roundToBF16(v);
  default:
    return v;
  }
}

/// The definition: for each output element, k = 0, 1, ... in order.
Tensor reference(const Tensor &a, const Tensor &b, const Tensor &c) {
  Tensor out(c);
  int64_t m = c.shape()[0], n = c.shape()[1], kk = a.shape()[1];
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = c.f32()[i * n + j];
      for (int64_t k = 0; k < kk; ++k)
        acc = roundKind(c.kind(), acc + roundKind(c.kind(), a.f32()[i * kk + k] *
                                                                  b.f32()[k * n + j]));
      out.f32()[i * n + j] = acc;
    }
  return out;
}

/// Values of `kind` spread over its range, with special values mixed in.
Tensor randomTensor(ElemKind kind, int64_t rows, int64_t cols, std::mt19937 &rng,
                    bool specials) {
  Tensor t(kind, {rows, cols});
  std::normal_distribution<float> normal(0.0f, 4.0f);
  std::uniform_int_distribution<int> pick(0, 39);
  const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(), 6.0e-8f /* f16 subnormal */,
                           65504.0f, 2049.0f, -1.0e-5f};
  for (int64_t i = 0; i < rows * cols; ++i) {
    float v = normal(rng);
    if (specials && pick(rng) == 0)
      v = special[pick(rng) % 6];
    t.f32()[i] = roundKind(kind, v);
  }
  return t;
}

/// Bit for bit, except that any NaN matches any NaN.
void expectSameBits(const Tensor &got, const Tensor &want) {
  ASSERT_EQ(got.numElements(), want.numElements());
  for (int64_t i = 0; i < got.numElements(); ++i) {
    // NaN matches NaN (ktir.md §7.3): which NaN an add of two NaNs returns
    // depends on the operand order the compiler picked for each loop.
    if (std::isnan(got.f32()[i]) && std::isnan(want.f32()[i]))
      continue;
    uint32_t g, w;
    std::memcpy(&g, got.f32() + i, 4);
    std::memcpy(&w, want.f32() + i, 4);
    ASSERT_EQ(g, w) << "element " << i << ": " << got.f32()[i] << " vs " << want.f32()[i];
  }
}

void check(ElemKind kind, int64_t m, int64_t n, int64_t kk, bool specials, unsigned seed) {
  std::mt19937 rng(seed);
  Tensor a = randomTensor(kind, m, kk, rng, specials);
  Tensor b = randomTensor(kind, kk, n, rng, specials);
  Tensor c = randomTensor(kind, m, n, rng, specials);
  Tensor want = reference(a, b, c);
  expectSameBits(*matmul(a, b, c), want);
  // Every kernel this processor runs, not only the one matmul picks.
  for (MatmulKernel kernel : {MatmulKernel::Avx512, MatmulKernel::Avx2, MatmulKernel::Scalar}) {
    if (!canRunMatmulKernel(kernel))
      continue;
    SCOPED_TRACE("kernel " + std::to_string(int(kernel)));
    expectSameBits(*matmulWith(kernel, a, b, c), want);
  }
}

} // namespace

TEST(InterpMatmul, F16MatchesDefinitionOnRaggedBlocks) {
  // Whole 4 x 16 and 8 x 32 blocks, ragged rows, ragged columns, both,
  // fewer than a block.
  for (auto [m, n, kk] : {std::tuple{8, 32, 64}, {7, 32, 33}, {8, 37, 5}, {13, 45, 17},
                          {3, 9, 4}, {1, 1, 1}, {16, 64, 40}, {19, 77, 23}, {12, 48, 9}})
    check(ElemKind::F16, m, n, kk, /*specials=*/false, unsigned(m * 1000 + n));
}

TEST(InterpMatmul, F16RoundsSpecialValuesAsTheDefinition) {
  // NaN, infinities, subnormals, overflow and ties among the operands.
  check(ElemKind::F16, 12, 48, 40, /*specials=*/true, 7);
  check(ElemKind::F16, 5, 19, 9, /*specials=*/true, 8);
}

TEST(InterpMatmul, BF16AndF32MatchDefinition) {
  check(ElemKind::BF16, 9, 40, 31, /*specials=*/true, 11);
  check(ElemKind::F32, 9, 40, 31, /*specials=*/true, 12);
  check(ElemKind::F32, 16, 64, 128, /*specials=*/false, 13);
}

TEST(InterpMatmul, F16AccumulationRoundsEverySum) {
  // 2048 + 1 + 1 + ... stays 2048 in f16 (each sum rounds back to even); a
  // kernel that kept an f32 partial sum would give 2048 + 8.
  // 8 x 32: one block of every kernel.
  Tensor a(ElemKind::F16, {8, 8}), b(ElemKind::F16, {8, 32}), c(ElemKind::F16, {8, 32});
  for (int64_t i = 0; i < 64; ++i)
    a.f32()[i] = 1.0f;
  for (int64_t i = 0; i < 256; ++i)
    b.f32()[i] = 1.0f;
  for (int64_t i = 0; i < 256; ++i)
    c.f32()[i] = 2048.0f;
  for (MatmulKernel kernel : {MatmulKernel::Avx512, MatmulKernel::Avx2, MatmulKernel::Scalar}) {
    TensorPtr got = matmulWith(kernel, a, b, c);
    for (int64_t i = 0; i < 256; ++i)
      EXPECT_EQ(got->f32()[i], 2048.0f) << "kernel " << int(kernel);
  }
}
