//===- IntegerSetUtilsTest.cpp - bounding boxes, shapes, enumeration ------===//
#include "ktflow/KTDP/IntegerSetUtils.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ktflow::ktdp;

namespace {
class IntegerSetUtilsTest : public ::testing::Test {
protected:
  IntegerSet set(StringRef text) {
    return cast<IntegerSetAttr>(parseAttribute(text, &context)).getValue();
  }
  AffineMap map(StringRef text) {
    return cast<AffineMapAttr>(parseAttribute(text, &context)).getValue();
  }
  MLIRContext context;
};
} // namespace

TEST_F(IntegerSetUtilsTest, BoxBounds) {
  BoundingBox box = computeBoundingBox(
      set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, "
          "-d1 + 127 >= 0)>"));
  ASSERT_TRUE(box.isBounded());
  EXPECT_EQ(box.lower, (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(box.upper, (SmallVector<int64_t>{15, 127}));
  EXPECT_EQ(box.getExtents(), (SmallVector<int64_t>{16, 128}));
}

TEST_F(IntegerSetUtilsTest, NonZeroLowerCorner) {
  BoundingBox box = computeBoundingBox(
      set("affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, "
          "-d1 + 127 >= 0)>"));
  ASSERT_TRUE(box.isBounded());
  EXPECT_EQ(box.lower[0], 32);
  EXPECT_EQ(box.upper[0], 63);
}

// The rational bound of d0 is 7; the integer maximum of even d0 is 6.
TEST_F(IntegerSetUtilsTest, StridedSetIsTight) {
  BoundingBox box = computeBoundingBox(
      set("affine_set<(d0) : (d0 mod 2 == 0, d0 - 1 >= 0, -d0 + 7 >= 0)>"));
  ASSERT_TRUE(box.isBounded());
  EXPECT_EQ(box.lower[0], 2);
  EXPECT_EQ(box.upper[0], 6);
}

TEST_F(IntegerSetUtilsTest, SymbolsAreBound) {
  IntegerSet rows =
      set("affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>");
  EXPECT_EQ(computeBoundingBox(rows).status, BoundingBox::Status::Symbolic);
  BoundingBox box = computeBoundingBox(rows, {24});
  ASSERT_TRUE(box.isBounded());
  EXPECT_EQ(box.upper[0], 23);
  // With s0 = 0 the set is empty and the extent is 0.
  BoundingBox empty = computeBoundingBox(rows, {0});
  EXPECT_EQ(empty.status, BoundingBox::Status::Empty);
  EXPECT_EQ(empty.getExtents(), (SmallVector<int64_t>{0}));
}

TEST_F(IntegerSetUtilsTest, UnboundedDimensionIsReported) {
  BoundingBox box = computeBoundingBox(
      set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0)>"));
  EXPECT_EQ(box.status, BoundingBox::Status::Unbounded);
  EXPECT_EQ(box.unboundedDim, 1u);
}

TEST_F(IntegerSetUtilsTest, TransposedTileShape) {
  IntegerSet s = set("affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, "
                     "d1 >= 0, -d1 + 15 >= 0)>");
  std::optional<SmallVector<unsigned>> perm =
      getPermutation(map("affine_map<(d0, d1) -> (d1, d0)>"));
  ASSERT_TRUE(perm.has_value());
  TileShape tile = computeTileShape(s, *perm);
  EXPECT_EQ(tile.shape, (SmallVector<int64_t>{16, 8}));
  EXPECT_EQ(tile.qlo, (SmallVector<int64_t>{0, 0}));
}

TEST_F(IntegerSetUtilsTest, NonPermutationsAreRecognised) {
  EXPECT_FALSE(getPermutation(map("affine_map<(d0, d1) -> (d0 + d1, d1)>")));
  EXPECT_FALSE(getPermutation(map("affine_map<(d0, d1) -> (d0, d0)>")));
  EXPECT_FALSE(getPermutation(map("affine_map<(d0, d1) -> (d0)>")));
  EXPECT_TRUE(getPermutation(map("affine_map<(d0, d1, d2) -> (d2, d0, d1)>")));
}

// A lower triangle enumerates row by row, rightmost dimension innermost.
TEST_F(IntegerSetUtilsTest, EnumeratesTriangleInOrder) {
  IntegerSet tri = set("affine_set<(d0, d1) : (d0 >= 0, d1 >= 0, "
                       "d0 - d1 >= 0, -d0 + 2 >= 0)>");
  SmallVector<std::pair<int64_t, int64_t>> points;
  ASSERT_TRUE(succeeded(forEachPoint(tri, {}, [&](ArrayRef<int64_t> p) {
    points.push_back({p[0], p[1]});
    return true;
  })));
  SmallVector<std::pair<int64_t, int64_t>> expected = {
      {0, 0}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {2, 2}};
  EXPECT_EQ(points, expected);
  EXPECT_EQ(computeTileShape(tri, {0, 1}).shape,
            (SmallVector<int64_t>{3, 3}));
}

TEST_F(IntegerSetUtilsTest, EnumerationOfUnboundedSetFails) {
  EXPECT_TRUE(failed(forEachPoint(set("affine_set<(d0) : (d0 >= 0)>"), {},
                                  [](ArrayRef<int64_t>) { return true; })));
}

TEST_F(IntegerSetUtilsTest, EvaluatesWithMlirDivisionSemantics) {
  MLIRContext *ctx = &context;
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  EXPECT_EQ(evaluateAffineExpr(d0.floorDiv(4), {-1}, {}), -1);
  EXPECT_EQ(evaluateAffineExpr(d0.ceilDiv(4), {-1}, {}), 0);
  EXPECT_EQ(evaluateAffineExpr(d0 % 4, {-1}, {}), 3);
  AffineExpr s0 = getAffineSymbolExpr(0, ctx);
  EXPECT_EQ(evaluateAffineExpr(d0 * 2 + s0, {5}, {7}), 17);
  // Missing operands and division by a non-positive symbol value fail.
  EXPECT_FALSE(evaluateAffineExpr(d0, {}, {}));
  EXPECT_FALSE(evaluateAffineExpr(d0.floorDiv(s0), {4}, {0}));
}

TEST_F(IntegerSetUtilsTest, MembershipWithSymbols) {
  IntegerSet pairs =
      set("affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>");
  EXPECT_EQ(containsPoint(pairs, {3}, {1}), true);
  EXPECT_EQ(containsPoint(pairs, {4}, {1}), false);
  IntegerSet bound = bindSymbols(pairs, {1});
  EXPECT_EQ(bound.getNumSymbols(), 0u);
  EXPECT_EQ(computeBoundingBox(bound).lower[0], 2);
}

// With the transposing order the points come column by column and land at
// the transposed position.
TEST_F(IntegerSetUtilsTest, TilePointsFollowTheOrder) {
  IntegerSet s = set("affine_set<(d0, d1) : (d0 - 1 >= 0, -d0 + 2 >= 0, "
                     "d1 >= 0, -d1 + 2 >= 0)>");
  SmallVector<SmallVector<int64_t>> points, positions;
  ASSERT_TRUE(succeeded(forEachTilePoint(
      s, {1, 0}, {}, [&](ArrayRef<int64_t> p, ArrayRef<int64_t> pos) {
        points.emplace_back(p.begin(), p.end());
        positions.emplace_back(pos.begin(), pos.end());
        return true;
      })));
  ASSERT_EQ(points.size(), 6u);
  EXPECT_EQ(points[0], (SmallVector<int64_t>{1, 0}));
  EXPECT_EQ(points[1], (SmallVector<int64_t>{2, 0}));
  EXPECT_EQ(points[2], (SmallVector<int64_t>{1, 1}));
  EXPECT_EQ(positions[0], (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(positions[1], (SmallVector<int64_t>{0, 1}));
  EXPECT_EQ(positions[5], (SmallVector<int64_t>{2, 1}));
}
