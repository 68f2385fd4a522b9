//===- MatrixOps.h - the matrix unit's multiply-accumulate -*- C++ -*-===//
//
// One matrix-unit operation `acc += a x b` on blocks held as floats: a is
// rows x depth, b is depth x cols, acc is rows x cols, all row-major. Every
// product and every sum is rounded to the accumulator's type and each
// output element folds depth = 0, 1, ... in order: the order and precision
// the reference interpreter uses for linalg.matmul (ktir.md §7.2), so a
// schedule that keeps each element's K fold in order (K blocks visited in
// increasing order, each block folded from its first row on) matches the
// interpreter bit for bit.
//
// The timing follows the description: an R x C unit with L lanes (MACs per
// cell per issue) covers an R x C tile of acc over L steps of depth per
// issue, so a block needs ceil(rows/R) * ceil(cols/C) * ceil(depth/L)
// issues, each costing the unit's issue cost for op class `matmul`.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SIM_MATRIXOPS_H
#define KTFLOW_SIM_MATRIXOPS_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"

#include <optional>
#include <string>

namespace ktflow::sim {

/// The shape of one block multiply-accumulate, in elements.
struct MatrixShape {
  int64_t rows = 0;  ///< M: rows of a and acc
  int64_t cols = 0;  ///< N: columns of b and acc
  int64_t depth = 0; ///< K: columns of a, rows of b
};

/// acc[i, j] = round(acc[i, j] + round(a[i, k] * b[k, j])) for k = 0 ..
/// depth - 1 in order, rounding to `accType`. The operands' values must
/// already be values of their own type (as VectorOps keeps them).
void multiplyAccumulate(const float *a, const float *b, float *acc, MatrixShape shape,
                        dc::ElemType accType);

/// Issues of the matrix unit `unit` one block needs with operands of
/// `operandType`, or an error naming what the description lacks.
struct MatrixIssue {
  int64_t issues = 0;
  Cycles cycles{0}; ///< issues x the unit's `matmul` issue cost
  std::string error;
};
MatrixIssue matrixIssues(const arch::ComputeInfo &unit, llvm::StringRef unitName,
                         dc::ElemType operandType, MatrixShape shape);

} // namespace ktflow::sim

#endif // KTFLOW_SIM_MATRIXOPS_H
