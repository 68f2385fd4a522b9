//===- Passes.h - the unit IR's passes --------------------------*- C++ -*-===//
#ifndef KTFLOW_UNIT_PASSES_H
#define KTFLOW_UNIT_PASSES_H

#include "ktflow/Unit/KTUnit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace ktflow::ktunit {

#define GEN_PASS_DECL
#include "ktflow/Unit/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ktflow/Unit/Passes.h.inc"

} // namespace ktflow::ktunit

#endif // KTFLOW_UNIT_PASSES_H
