//===- MatrixOps.cpp - the matrix unit's multiply-accumulate ---------------===//
//
// Values: the interpreter's fold (depth in increasing order per output
// element, one rounding per product and per sum, to the accumulator's
// type), in i-k-j order so each row of b is read contiguously. Timing:
// whole R x C x L issues of the unit's description (see MatrixOps.h).
//
// The library is compiled with -ffp-contract=off: a fused multiply-add
// would skip the product's rounding.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Sim/MatrixOps.h"

#include "ktflow/Interp/Float16.h"

using namespace ktflow;
using namespace ktflow::sim;
using dc::ElemType;

template <class Round>
static void foldInOrder(const float *a, const float *b, float *acc, MatrixShape s,
                        Round round) {
  for (int64_t i = 0; i < s.rows; ++i) {
    float *accRow = acc + i * s.cols;
    for (int64_t k = 0; k < s.depth; ++k) {
      float aik = a[i * s.depth + k];
      const float *bRow = b + k * s.cols;
      for (int64_t j = 0; j < s.cols; ++j)
        accRow[j] = round(accRow[j] + round(aik * bRow[j]));
    }
  }
}

void sim::multiplyAccumulate(const float *a, const float *b, float *acc, MatrixShape shape,
                             ElemType accType) {
  switch (accType) {
  case ElemType::F16:
    return foldInOrder(a, b, acc, shape, [](float v) { return interp::roundToHalf(v); });
  case ElemType::BF16:
    return foldInOrder(a, b, acc, shape, [](float v) { return interp::roundToBF16(v); });
  case ElemType::F32:
  default: // integer registers never reach the matrix path (hasIntegerForm)
    return foldInOrder(a, b, acc, shape, [](float v) { return v; });
  }
}

static bool isType(mlir::Type t, ElemType e) {
  return (e == ElemType::F16 && t.isF16()) || (e == ElemType::BF16 && t.isBF16()) ||
         (e == ElemType::F32 && t.isF32());
}

MatrixIssue sim::matrixIssues(const arch::ComputeInfo &unit, llvm::StringRef unitName,
                              ElemType operandType, MatrixShape shape) {
  MatrixIssue result;
  auto fail = [&](const llvm::Twine &why) {
    result.error = ("@" + unitName + " " + why).str();
    return result;
  };
  if (!unit.matrixShape)
    return fail("is not a matrix unit");
  std::optional<Cycles> cost = unit.issueCost("matmul");
  if (!cost)
    return fail("has no op class 'matmul'");
  std::optional<int64_t> lanes;
  for (const auto &[type, count] : unit.lanes)
    if (isType(type, operandType))
      lanes = count;
  if (!lanes)
    return fail("has no lanes for " + dc::elemTypeName(operandType));
  if (shape.rows <= 0 || shape.cols <= 0 || shape.depth <= 0)
    return fail("got an empty block");
  auto ceilDiv = [](int64_t x, int64_t y) { return (x + y - 1) / y; };
  auto [r, c] = *unit.matrixShape;
  result.issues = ceilDiv(shape.rows, r) * ceilDiv(shape.cols, c) * ceilDiv(shape.depth, *lanes);
  result.cycles = *cost * result.issues;
  return result;
}
