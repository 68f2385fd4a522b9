//===- InitAll.cpp - register every dialect ktflow reads ------------------===//
#include "ktflow/InitAll.h"

#include "ktflow/Arch/KTArchDialect.h"
#include "ktflow/KTDP/KTDPDialect.h"
#include "ktflow/Schedule/Passes.h"
#include "ktflow/Unit/Passes.h"
#include "ktflow/Lower/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void ktflow::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<ktdp::KTDPDialect, ktarch::KTArchDialect, ktsched::KTSchedDialect,
                  ktunit::KTUnitDialect,
                  mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
}

void ktflow::registerAllPasses() {
  ktsched::registerSchedulePasses();
  ktunit::registerUnitPasses();
  lower::registerLowerPasses();
}
