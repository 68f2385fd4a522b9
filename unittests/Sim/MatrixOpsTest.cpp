//===- MatrixOpsTest.cpp - the matrix unit's values and issue counts -------===//
//
// The matrix unit's multiply-accumulate must equal the interpreter's matmul
// bit for bit (the same fold order and roundings, ktir.md §7.2), also when
// a K loop feeds it one K block after another into the same accumulator;
// its issue count follows the shipped descriptions' matrix shapes and
// lanes (sample's 4x4 unit with 4 f16 lanes, spyre's 8x8 PT with 8).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Elementwise.h"
#include "ktflow/Sim/MatrixOps.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace ktflow;
using namespace ktflow::sim;
using interp::ElemKind;
using interp::Tensor;

namespace {

/// Values of f16 spread over several binades and signs, so products and
/// sums round in every direction.
void fillHalf(Tensor &t, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (int64_t i = 0, e = t.numElements(); i < e; ++i)
    t.f32()[i] = interp::roundToHalf(dist(rng));
}

/// Asserts the bit patterns agree (NaN payloads and signed zeros included).
void expectSameBits(const float *got, const float *want, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    uint32_t g, w;
    std::memcpy(&g, got + i, 4);
    std::memcpy(&w, want + i, 4);
    ASSERT_EQ(g, w) << "element " << i << ": " << got[i] << " vs " << want[i];
  }
}

struct MatrixCase {
  int64_t m, n, k, kBlock;
  ElemKind acc;
};

class MatrixValues : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(MatrixValues, KBlocksInOrderMatchTheInterpreter) {
  MatrixCase c = GetParam();
  std::mt19937 rng(1234 + c.m * 7 + c.k);
  Tensor a(ElemKind::F32, {c.m, c.k}), b(ElemKind::F32, {c.k, c.n});
  Tensor acc(c.acc, {c.m, c.n});
  fillHalf(a, rng);
  fillHalf(b, rng);
  fillHalf(acc, rng);
  // The interpreter's operands have the accumulator's kind (f16 values are
  // exact in f32 and bf16 is not used for operands here).
  Tensor a2(c.acc, {c.m, c.k}), b2(c.acc, {c.k, c.n});
  std::memcpy(a2.f32(), a.f32(), 4 * c.m * c.k);
  std::memcpy(b2.f32(), b.f32(), 4 * c.k * c.n);
  interp::TensorPtr want = interp::matmul(a2, b2, acc);

  dc::ElemType accType = c.acc == ElemKind::F16 ? dc::ElemType::F16 : dc::ElemType::F32;
  std::vector<float> got(acc.f32(), acc.f32() + c.m * c.n);
  // K blocks in increasing order, each a separate unit operation on
  // copies of the blocks (as staged in scratchpad).
  for (int64_t k0 = 0; k0 < c.k; k0 += c.kBlock) {
    int64_t kb = std::min(c.kBlock, c.k - k0);
    std::vector<float> aBlock(c.m * kb), bBlock(kb * c.n);
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t k = 0; k < kb; ++k)
        aBlock[i * kb + k] = a.f32()[i * c.k + k0 + k];
    std::memcpy(bBlock.data(), b.f32() + k0 * c.n, 4 * kb * c.n);
    multiplyAccumulate(aBlock.data(), bBlock.data(), got.data(), {c.m, c.n, kb}, accType);
  }
  expectSameBits(got.data(), want->f32(), c.m * c.n);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MatrixValues,
    ::testing::Values(MatrixCase{16, 32, 128, 32, ElemKind::F32}, // example 10's tile
                      MatrixCase{16, 32, 128, 32, ElemKind::F16},
                      MatrixCase{5, 7, 9, 4, ElemKind::F32},    // ragged blocks
                      MatrixCase{5, 7, 9, 4, ElemKind::F16},
                      MatrixCase{8, 8, 64, 64, ElemKind::F16})); // one K block

TEST(MatrixValues, ProductsRoundToTheAccumulator) {
  // 1 + 2^-11 is not an f16: in an f16 accumulator the product 1 * (1 +
  // 2^-11) already rounds (to 1, the even neighbour), then 1 + 1 = 2; in
  // f32 the sum keeps the 2^-11.
  float a[1] = {1.0f}, b[1] = {1.0f + 0x1p-11f};
  float acc16[1] = {1.0f}, acc32[1] = {1.0f};
  multiplyAccumulate(a, b, acc16, {1, 1, 1}, dc::ElemType::F16);
  multiplyAccumulate(a, b, acc32, {1, 1, 1}, dc::ElemType::F32);
  EXPECT_EQ(acc16[0], 2.0f);
  EXPECT_EQ(acc32[0], 2.0f + 0x1p-11f);
}

class MatrixTiming : public ::testing::Test {
protected:
  MatrixTiming() : context(makeRegistry()) {}
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    return registry;
  }
  const arch::Node *unitNamed(const arch::ArchModel &model, llvm::StringRef name) {
    for (arch::NodeId id : model.computeUnits())
      if (model.node(id).name == name)
        return &model.node(id);
    return nullptr;
  }
  std::shared_ptr<const arch::ArchModel> load(llvm::StringRef name) {
    std::string error;
    auto model = arch::ArchModel::load(context, name, error);
    EXPECT_TRUE(model) << error;
    return model;
  }
  mlir::MLIRContext context;
};

TEST_F(MatrixTiming, IssuesFollowTheDescription) {
  auto sample = load("sample");
  ASSERT_TRUE(sample);
  const arch::Node *mxu = unitNamed(*sample, "mxu");
  ASSERT_TRUE(mxu);
  // 16x32 acc, K = 32 on a 4x4 unit with 4 f16 lanes: 4 * 8 * 8 issues.
  MatrixIssue issue = matrixIssues(mxu->compute, "mxu", dc::ElemType::F16, {16, 32, 32});
  EXPECT_EQ(issue.error, "");
  EXPECT_EQ(issue.issues, 256);
  EXPECT_EQ(issue.cycles, Cycles(256));
  // A ragged block costs whole issues: 5x7 acc, K = 9 -> 2 * 2 * 3.
  EXPECT_EQ(matrixIssues(mxu->compute, "mxu", dc::ElemType::F16, {5, 7, 9}).issues, 12);
  // No f32 lanes on sample's unit: named in the error.
  EXPECT_EQ(matrixIssues(mxu->compute, "mxu", dc::ElemType::F32, {4, 4, 4}).error,
            "@mxu has no lanes for f32");
  // The vector unit is no matrix unit.
  const arch::Node *vec = unitNamed(*sample, "vec");
  ASSERT_TRUE(vec);
  EXPECT_EQ(matrixIssues(vec->compute, "vec", dc::ElemType::F16, {4, 4, 4}).error,
            "@vec is not a matrix unit");

  auto spyre = load("spyre");
  ASSERT_TRUE(spyre);
  const arch::Node *pt = unitNamed(*spyre, "pt");
  ASSERT_TRUE(pt);
  // 8x8 PT with 8 f16 lanes: 64x64x64 is 8 * 8 * 8 issues = 512 MACs each.
  MatrixIssue big = matrixIssues(pt->compute, "pt", dc::ElemType::F16, {64, 64, 64});
  EXPECT_EQ(big.issues, 512);
  EXPECT_EQ(big.issues * 512, 64 * 64 * 64);

  // deep keeps no matrix unit.
  auto deep = load("deep");
  ASSERT_TRUE(deep);
  for (arch::NodeId id : deep->computeUnits())
    EXPECT_FALSE(deep->node(id).compute.isMatrix()) << deep->node(id).name;
}

} // namespace
