//===- LowerSchedule.h - schedule IR to device code ------------*- C++ -*-===//
//
// Unit lowering (DESIGN.md, "unit IR"): a scheduled kernel (ktsched.kernel)
// becomes one device-code program per unit kind and sub-core instance,
// SPMD over the cores through per-instance tables, with explicit
// push/pop/send/recv and signal/wait between the units. docs/run.md
// describes the strategy per construct.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LOWER_LOWERSCHEDULE_H
#define KTFLOW_LOWER_LOWERSCHEDULE_H

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/Program.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>

namespace ktflow::lower {

struct LowerOptions {
  /// Values of scalar kernel arguments (by argument index). Device code has
  /// no scalar registers: a scalar becomes a splat constant.
  std::map<int64_t, double> scalarArgs;
  /// Bounds the static deadlock check (ktunit-check-deadlock's hand-offs).
  int64_t deadlockCheckSteps = 10000000;
};

/// What lowering produces: the device code (the roofline's work is
/// lib/Cost's, from the schedule).
struct LoweredKernel {
  dc::Bundle bundle;
  /// The unit IR the lowering produced, before the unit passes (channels,
  /// virtual registers; one ktunit.bundle per lowering: a group, or a round
  /// or class of its grid tiles).
  mlir::OwningOpRef<mlir::ModuleOp> unit;
  /// Kernel argument index of every bundle symbol.
  std::vector<int64_t> symbolArgs;
  /// An output written by a reduction, whose order of operations the
  /// lowering changes (lane-wise partial folds, then across lanes): a sum is
  /// compared with a tolerance, max and min stay exact.
  struct ReducedOutput {
    int64_t arg = -1;
    /// "add", "max" or "min"; "phases": a row of a group of phases (a
    /// composite kernel: softmax, layernorm), compared within §7.3's
    /// composite tolerance.
    std::string combiner;
    int64_t length = 0;   ///< terms folded into each result
  };
  std::vector<ReducedOutput> reducedOutputs;
};

/// Lowers the ktsched.kernel of `module` for `model` into the unit IR, then
/// runs the unit passes (sync insertion, register allocation, the capacity
/// and deadlock-freedom analyses) and emits device code. Everything the lowering does not
/// cover, and every failed check, is a diagnostic at the schedule op.
mlir::FailureOr<LoweredKernel> lowerSchedule(mlir::ModuleOp module,
                                             const arch::ArchModel &model,
                                             const LowerOptions &options = {});

/// The first half of lowerSchedule: the unit IR only (`unit`, with the
/// kernel's symbols; `bundle` holds the symbols and no programs yet).
mlir::FailureOr<LoweredKernel> lowerScheduleToUnit(mlir::ModuleOp module,
                                                   const arch::ArchModel &model,
                                                   const LowerOptions &options = {});

} // namespace ktflow::lower

#endif // KTFLOW_LOWER_LOWERSCHEDULE_H
