//===- InitAll.h - register every dialect ktflow reads ----------*- C++ -*-===//
#ifndef KTFLOW_INITALL_H
#define KTFLOW_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace ktflow {
/// Registers ktflow's own dialects and the upstream dialects KTIR programs
/// use (func, arith, math, scf, linalg, tensor, affine, memref).
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers every ktflow pass with the global pass registry (for ktflow-opt).
void registerAllPasses();
} // namespace ktflow

#endif // KTFLOW_INITALL_H
