//===- LaunchTableTest.cpp - launch-table expressions and binding ---------===//
#include "ktflow/DeviceCode/LaunchTable.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace ktflow;
using namespace ktflow::dc;

namespace {

int64_t eval(llvm::StringRef expr, std::map<std::string, int64_t> values) {
  llvm::Expected<int64_t> v = evaluateLaunchExpr(expr, values);
  EXPECT_TRUE(bool(v)) << llvm::toString(v.takeError());
  return v ? *v : -999;
}

std::string errorOf(llvm::StringRef expr, std::map<std::string, int64_t> values) {
  llvm::Expected<int64_t> v = evaluateLaunchExpr(expr, values);
  return v ? "" : llvm::toString(v.takeError());
}

TEST(LaunchTableTest, EvaluatesAffineExpressions) {
  // Example 12's trip count of grid tile 1: ceil((M/4 - 1) / 2), and the
  // guard of tile k: min(1, max(0, trips - k)).
  const char *trips = "((rows floordiv 4) + (-1)) ceildiv 2";
  EXPECT_EQ(eval(trips, {{"rows", 4}}), 0);
  EXPECT_EQ(eval(trips, {{"rows", 24}}), 3);
  EXPECT_EQ(eval(trips, {{"rows", 256}}), 32);
  EXPECT_EQ(eval(trips, {{"rows", 0}}), 0); // ceil(-1 / 2) = 0
  EXPECT_EQ(eval("min(1, max(0, 1 * ((rows floordiv 4) ceildiv 2) - 2))", {{"rows", 24}}), 1);
  EXPECT_EQ(eval("min(1, max(0, 1 * ((rows floordiv 4) ceildiv 2) - 3))", {{"rows", 24}}), 0);
  // Flooring and ceiling round towards minus and plus infinity; mod >= 0.
  EXPECT_EQ(eval("-7 floordiv 2", {}), -4);
  EXPECT_EQ(eval("-7 ceildiv 2", {}), -3);
  EXPECT_EQ(eval("-7 mod 3", {}), 2);
  EXPECT_EQ(eval("2 + 3 * 4 - 1", {}), 13);
  EXPECT_EQ(eval("max(-(n), 3 - n)", {{"n", 5}}), -2);
}

TEST(LaunchTableTest, RejectsMalformedExpressions) {
  EXPECT_NE(errorOf("rows +", {{"rows", 1}}).find("expected a value"), std::string::npos);
  EXPECT_NE(errorOf("m * 2", {{"rows", 1}}).find("'m' is not an unbound launch value"),
            std::string::npos);
  EXPECT_NE(errorOf("4 floordiv (rows - 4)", {{"rows", 4}}).find("a divisor or modulus of 0"),
            std::string::npos);
  EXPECT_NE(errorOf("(rows", {{"rows", 1}}).find("expected ')'"), std::string::npos);
  EXPECT_NE(errorOf("rows rows", {{"rows", 1}}).find("unexpected"), std::string::npos);
}

Bundle tableBundle() {
  Bundle b;
  LaunchValue rows;
  rows.name = "rows";
  rows.arg = 2;
  rows.type = "index";
  rows.bound = false;
  rows.granularity = 4;
  rows.upperbound = 256;
  b.launchValues.push_back(rows);
  Program p;
  p.unit = "dma";
  p.instances = {0, 1};
  p.tableColumns = 2;
  p.table = {{7, 1}, {9, 1}};
  p.launchCells = {{0, 1, "(rows floordiv 4) ceildiv 2"},
                   {1, 1, "((rows floordiv 4) + (-1)) ceildiv 2"}};
  b.programs.push_back(p);
  return b;
}

TEST(LaunchTableTest, BindingFillsTheTable) {
  Bundle b = tableBundle();
  ASSERT_FALSE(bool(verifyBundle(b, "test")));
  EXPECT_TRUE(hasUnboundLaunchValues(b));
  llvm::Error e = bindLaunchValues(b, {{"rows", "24"}});
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(b.programs[0].table, (std::vector<std::vector<int64_t>>{{7, 3}, {9, 3}}));
  EXPECT_TRUE(b.programs[0].launchCells.empty());
  EXPECT_TRUE(b.launchValues[0].bound);
  EXPECT_TRUE(b.launchValues[0].boundAtLaunch);
  EXPECT_EQ(b.launchValues[0].value, "24");
  EXPECT_FALSE(hasUnboundLaunchValues(b));
  // By position too, and a small value gives core 1 no trips.
  Bundle c = tableBundle();
  llvm::Error e2 = bindLaunchValues(c, {{"arg2", "4"}});
  ASSERT_FALSE(bool(e2)) << llvm::toString(std::move(e2));
  EXPECT_EQ(c.programs[0].table, (std::vector<std::vector<int64_t>>{{7, 1}, {9, 0}}));
}

TEST(LaunchTableTest, BindingChecksTheGuarantees) {
  auto bindError = [](std::map<std::string, std::string> given) {
    Bundle b = tableBundle();
    llvm::Error e = bindLaunchValues(b, given);
    return e ? llvm::toString(std::move(e)) : std::string();
  };
  EXPECT_NE(bindError({{"rows", "6"}}).find("rows must be a multiple of 4"), std::string::npos);
  EXPECT_NE(bindError({{"rows", "260"}}).find("rows must lie in [0, 256]"), std::string::npos);
  EXPECT_NE(bindError({{"rows", "-4"}}).find("rows must lie in [0, 256]"), std::string::npos);
  EXPECT_NE(bindError({{"rows", "many"}}).find("'many' is not an index value"), std::string::npos);
  EXPECT_NE(bindError({}).find("left unbound at compile time: run it with --arg rows=VALUE"),
            std::string::npos);
}

TEST(LaunchTableTest, VerifierChecksCells) {
  Bundle b = tableBundle();
  b.programs[0].launchCells.push_back({2, 0, "rows"});
  llvm::Error e = verifyBundle(b, "test");
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("outside its table"), std::string::npos);
  Bundle c = tableBundle();
  c.programs[0].launchCells.push_back({0, 0, "cols"});
  llvm::Error e2 = verifyBundle(c, "test");
  ASSERT_TRUE(bool(e2));
  EXPECT_NE(llvm::toString(std::move(e2)).find("'cols' is not an unbound launch value"),
            std::string::npos);
}

TEST(LaunchTableTest, EncodesAsVersionThree) {
  Bundle b = tableBundle();
  ProgramBuilder dma(b, "dma2", {0, 1}, 1);
  dma.addTableRow({2});
  dma.addTableRow({0});
  dma.loopFromTable(0);
  dma.end();
  b.programs.back().launchCells = {{1, 0, "rows mod 8"}};
  std::vector<uint8_t> bytes = encodeBundle(b);
  EXPECT_EQ(bytes[4], 3u);
  llvm::Expected<Bundle> back = decodeBundle(bytes, "v3");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  auto text = [](const Bundle &x) {
    std::string s;
    llvm::raw_string_ostream os(s);
    printBundle(x, os);
    return s;
  };
  EXPECT_EQ(text(*back), text(b));
  EXPECT_TRUE(back->programs.back().body.front().countFromTable);
  EXPECT_FALSE(back->launchValues.front().bound);
  EXPECT_EQ(back->launchValues.front().upperbound, 256);
}

} // namespace
