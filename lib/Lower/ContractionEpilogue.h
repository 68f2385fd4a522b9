//===- ContractionEpilogue.h - a contraction's epilogue body ----*- C++ -*-===//
//
// Internal to lib/Lower: the element-wise epilogue of a ktsched.contraction
// (its `epilogue` region) as vector ops on the unit that runs it, shared by
// the matrix-unit lowering (per accumulator block) and the vector-unit one
// (per accumulator row).
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_LIB_LOWER_CONTRACTIONEPILOGUE_H
#define KTFLOW_LIB_LOWER_CONTRACTIONEPILOGUE_H

#include "GroupLowering.h"

namespace ktflow::lower::detail {

/// Emits the ops of `body` on `vec`, each one vector op of `lanes`
/// elements (its constants `vconst`, its casts `cast`, the rest through the
/// opcode table); `values` maps the block arguments to their registers on
/// entry. Returns the register of the yielded value, or emits at the op.
mlir::FailureOr<ktunit::Reg> emitEpilogueBody(ktunit::ProgramBuilder &vec, mlir::Block &body,
                                              llvm::DenseMap<mlir::Value, ktunit::Reg> &values,
                                              Elements lanes);

} // namespace ktflow::lower::detail

#endif // KTFLOW_LIB_LOWER_CONTRACTIONEPILOGUE_H
