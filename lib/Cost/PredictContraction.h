//===- PredictContraction.h - a contraction's cycles (internal) -*- C++ -*-===//
//
// Part of lib/Cost/Predict.cpp: the prediction of one ktsched.contraction
// on a matrix unit, from its recorded decisions (PredictContraction.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_COST_PREDICTCONTRACTION_H
#define KTFLOW_LIB_COST_PREDICTCONTRACTION_H

#include "ktflow/Cost/Predict.h"
#include "ktflow/Schedule/KTSched.h"

namespace ktflow::cost::detail {

mlir::FailureOr<GroupPrediction> predictContraction(ktsched::KernelOp kernel,
                                                    ktsched::ContractionOp op,
                                                    const arch::ArchModel &model);

} // namespace ktflow::cost::detail

#endif // KTFLOW_LIB_COST_PREDICTCONTRACTION_H
