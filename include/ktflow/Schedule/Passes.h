//===- Passes.h - the scheduler's passes ------------------------*- C++ -*-===//
#ifndef KTFLOW_SCHEDULE_PASSES_H
#define KTFLOW_SCHEDULE_PASSES_H

#include "ktflow/Schedule/KTSched.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ktflow::ktsched {

#define GEN_PASS_DECL
#include "ktflow/Schedule/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Schedule/Passes.h.inc"

} // namespace ktflow::ktsched

#endif // KTFLOW_SCHEDULE_PASSES_H
