//===- ktflow-opt.cpp - pass runner for lit tests -------------------------===//
//
// mlir-opt with ktflow's dialects and passes registered.
//
//===----------------------------------------------------------------------===//
#include "ktflow/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  ktflow::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "ktflow pass runner\n", registry));
}
