//===- BoundSetTest.cpp - integer set binding and enumeration -------------===//
#include "ktflow/Interp/BoundSet.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace ktflow::interp;

namespace {
class BoundSetTest : public ::testing::Test {
protected:
  mlir::IntegerSet parse(const char *text) {
    auto attr = mlir::parseAttribute(text, &context);
    return mlir::cast<mlir::IntegerSetAttr>(attr).getValue();
  }
  std::vector<std::vector<int64_t>> points(const BoundSet &s,
                                           std::vector<unsigned> order) {
    std::vector<std::vector<int64_t>> out;
    s.forEach(order, [&](llvm::ArrayRef<int64_t> p) { out.emplace_back(p.begin(), p.end()); });
    return out;
  }
  mlir::MLIRContext context;
};
} // namespace

TEST_F(BoundSetTest, BoxWithSymbol) {
  std::string error;
  auto s = BoundSet::bind(
      parse("affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 - 2 >= 0, -d1 + 3 >= 0)>"),
      {3}, error);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->isBox());
  EXPECT_EQ(s->lower()[0], 0);
  EXPECT_EQ(s->upper()[0], 2);
  EXPECT_EQ(s->lower()[1], 2);
  EXPECT_EQ(s->boxVolume(), 6);
  EXPECT_TRUE(s->contains({2, 3}));
  EXPECT_FALSE(s->contains({3, 3}));
  // Order {1, 0}: dimension 1 slowest.
  auto pts = points(*s, {1, 0});
  ASSERT_EQ(pts.size(), 6u);
  EXPECT_EQ(pts[1], (std::vector<int64_t>{1, 2}));
}

TEST_F(BoundSetTest, TriangleAndExactCorners) {
  std::string error;
  auto s = BoundSet::bind(
      parse("affine_set<(d0, d1) : (d0 - 1 >= 0, -d0 + 3 >= 0, d1 >= 0, d0 - d1 - 1 >= 0)>"), {},
      error);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->isBox());
  EXPECT_EQ(points(*s, {0, 1}).size(), 6u); // 1 + 2 + 3
  llvm::SmallVector<int64_t> lo, hi;
  ASSERT_TRUE(s->exactCorners(lo, hi));
  EXPECT_EQ(lo[1], 0);
  EXPECT_EQ(hi[1], 2);
  EXPECT_FALSE(s->contains({1, 1}));
}

TEST_F(BoundSetTest, ModAndEquality) {
  std::string error;
  auto s = BoundSet::bind(
      parse("affine_set<(d0) : (d0 >= 0, -d0 + 9 >= 0, d0 mod 3 == 0)>"), {}, error);
  ASSERT_TRUE(s);
  auto pts = points(*s, {0});
  ASSERT_EQ(pts.size(), 4u);
  EXPECT_EQ(pts[3][0], 9);
  auto eq = BoundSet::bind(parse("affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 4 >= 0)>"), {},
                           error);
  ASSERT_TRUE(eq);
  EXPECT_TRUE(eq->isBox());
  EXPECT_EQ(eq->boxVolume(), 5);
}

TEST_F(BoundSetTest, UnboundedAndEmpty) {
  std::string error;
  EXPECT_FALSE(BoundSet::bind(parse("affine_set<(d0)[s0] : (d0 - s0 >= 0)>"), {2}, error));
  EXPECT_NE(error.find("unbounded"), std::string::npos);
  auto empty = BoundSet::bind(parse("affine_set<(d0) : (d0 - 5 >= 0, -d0 + 2 >= 0)>"), {}, error);
  ASSERT_TRUE(empty);
  EXPECT_TRUE(empty->isEmpty());
  EXPECT_EQ(points(*empty, {0}).size(), 0u);
}

TEST(EvaluateAffine, FloorDivModSemantics) {
  mlir::MLIRContext context;
  auto d0 = mlir::getAffineDimExpr(0, &context);
  EXPECT_EQ(evaluateAffine(d0.floorDiv(2), {-3}, {}), -2);
  EXPECT_EQ(evaluateAffine(d0.ceilDiv(2), {-3}, {}), -1);
  EXPECT_EQ(evaluateAffine(d0 % 3, {-1}, {}), 2);
}
