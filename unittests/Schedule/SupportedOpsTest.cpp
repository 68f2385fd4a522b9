//===- SupportedOpsTest.cpp - the supported-op table ----------------------===//
//
// The table is what the input check and the lowering share; these tests pin
// the properties both rely on: names are unique, every elementwise entry
// names an op class an architecture description can list, and lookups by
// op and by name agree.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/InitAll.h"
#include "ktflow/Schedule/SupportedOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include <gtest/gtest.h>

using namespace ktflow::ktsched;

TEST(SupportedOps, NamesAreUnique) {
  // Unique per kind of work: an op may have one index entry (on scalars)
  // and one lane-wise entry (on tensors), as arith.select has.
  llvm::StringSet<> seen;
  for (const OpSupport &entry : supportedOps()) {
    std::string key = entry.name.str() + (entry.role == OpRole::Index ? "/index" : "");
    EXPECT_TRUE(seen.insert(key).second) << key;
  }
}

TEST(SupportedOps, ElementwiseOpsNameKnownOpClasses) {
  auto known = ktflow::arch::knownOpClasses();
  for (const OpSupport &entry : supportedOps()) {
    if (entry.role != OpRole::Elementwise) {
      EXPECT_TRUE(entry.opClass.empty()) << entry.name.str();
      continue;
    }
    EXPECT_TRUE(llvm::is_contained(known, entry.opClass))
        << entry.name.str() << " -> " << entry.opClass.str();
  }
}

TEST(SupportedOps, LookupByOpMatchesLookupByName) {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    func.func @f(%a: tensor<4xf16>) {
      %s = arith.addf %a, %a : tensor<4xf16>
      %e = math.exp %s : tensor<4xf16>
      return
    })mlir",
                                                        &context);
  ASSERT_TRUE(module);
  unsigned elementwise = 0;
  module->walk([&](mlir::Operation *op) {
    if (mlir::isa<mlir::ModuleOp>(op))
      return;
    const OpSupport *byOp = lookupOpSupport(op);
    ASSERT_NE(byOp, nullptr) << op->getName().getStringRef().str();
    EXPECT_EQ(byOp, lookupOpSupport(op->getName().getStringRef()));
    if (byOp->role == OpRole::Elementwise)
      ++elementwise;
  });
  EXPECT_EQ(elementwise, 2u);
  EXPECT_EQ(lookupOpSupport("linalg.matmul")->role, OpRole::Contraction);
  EXPECT_EQ(lookupOpSupport("linalg.batch_matmul"), nullptr);
  EXPECT_EQ(lookupOpSupport("arith.addf")->opClass, "add");
  EXPECT_EQ(lookupOpSupport("math.exp")->opClass, "exp");
}
