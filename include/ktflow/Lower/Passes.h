//===- Passes.h - schedule IR to unit IR ------------------------*- C++ -*-===//
#ifndef KTFLOW_LOWER_PASSES_H
#define KTFLOW_LOWER_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ktflow::lower {

#define GEN_PASS_DECL
#include "ktflow/Lower/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Lower/Passes.h.inc"

} // namespace ktflow::lower

#endif // KTFLOW_LOWER_PASSES_H
