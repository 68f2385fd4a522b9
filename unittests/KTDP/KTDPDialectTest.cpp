//===- KTDPDialectTest.cpp - the ktdp dialect loads -----------------------===//
#include "ktflow/InitAll.h"
#include "ktflow/KTDP/KTDPDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

TEST(KTDPDialect, Loads) {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  EXPECT_NE(context.getOrLoadDialect<ktflow::ktdp::KTDPDialect>(), nullptr);
}
