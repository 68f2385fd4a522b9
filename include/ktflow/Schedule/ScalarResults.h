//===- ScalarResults.h - scalars read from one-element tensors -*- C++ -*-===//
//
// A frontend reads a reduction's one element as a scalar (tensor.extract),
// computes on it with scalar arith and math ops and stores it back through
// tensor.from_elements or tensor.splat (Triton's running sums, carried as
// scalar iter_args, take this form once ktsched-absorb-loops has absorbed
// their loop). The compute groups move tensors only, so these scalar uses
// are rewritten into the same ops on the one-element tensor.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_SCHEDULE_SCALARRESULTS_H
#define KTFLOW_SCHEDULE_SCALARRESULTS_H

#include "mlir/IR/Operation.h"

namespace ktflow::ktsched {

/// Rewrites, under `root`, the uses of every scalar a tensor.extract reads
/// from a one-element float tensor T:
///  * an element-wise scalar op whose other operands are constants, scalar
///    kernel arguments or such scalars becomes that op on T (constants and
///    arguments splat to T's shape), its result read again by an extract;
///  * tensor.from_elements and tensor.splat to T's type become T itself;
///    tensor.splat to a larger shape becomes a linalg.broadcast of T.
/// Other uses stay scalar (the input check diagnoses them).
void liftOneElementScalars(mlir::Operation *root);

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_SCALARRESULTS_H
