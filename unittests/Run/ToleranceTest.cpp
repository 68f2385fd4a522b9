//===- ToleranceTest.cpp - the reduction tolerance of `ktflow run` --------===//
//
// The bound of ktir.md §7.3 for reordered sums: eps_out * |ref| +
// 4 * eps_acc * M. Values within it pass, values beyond it are mismatches,
// NaN only meets NaN and infinities must be equal.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Run/RunKernel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ktflow::run;

TEST(ReductionTolerance, EpsilonPerType) {
  EXPECT_EQ(machineEpsilon("f16"), std::ldexp(1.0, -10));
  EXPECT_EQ(machineEpsilon("bf16"), std::ldexp(1.0, -7));
  EXPECT_EQ(machineEpsilon("f32"), std::ldexp(1.0, -23));
  EXPECT_EQ(machineEpsilon("i32"), 0.0);
}

TEST(ReductionTolerance, WithinAndBeyondTheBound) {
  double eps = machineEpsilon("f16"), bound = 0;
  // ref 10 from terms whose absolute values sum to 100: bound
  // 10 * eps + 4 * eps * 100 = 410 * eps, about 0.4.
  EXPECT_TRUE(withinReductionTolerance(10.0, 10.0, 100.0, eps, eps, bound));
  EXPECT_DOUBLE_EQ(bound, 410 * eps);
  EXPECT_TRUE(withinReductionTolerance(10.0 + 400 * eps, 10.0, 100.0, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(10.0 + 420 * eps, 10.0, 100.0, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(10.0 - 420 * eps, 10.0, 100.0, eps, eps, bound));
  // Cancellation: ref near 0 but large terms still allow M's share.
  EXPECT_TRUE(withinReductionTolerance(0.1, 0.0, 100.0, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(1.0, 0.0, 100.0, eps, eps, bound));
}

TEST(ReductionTolerance, NonFiniteValues) {
  double eps = machineEpsilon("f32"), bound = 0;
  EXPECT_TRUE(withinReductionTolerance(NAN, NAN, 1.0, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(1.0, NAN, 1.0, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(NAN, 1.0, 1.0, eps, eps, bound));
  EXPECT_TRUE(withinReductionTolerance(INFINITY, INFINITY, INFINITY, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(-INFINITY, INFINITY, INFINITY, eps, eps, bound));
  EXPECT_FALSE(withinReductionTolerance(INFINITY, 1.0, 1.0, eps, eps, bound));
}
