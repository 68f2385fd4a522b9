//===- EmitTest.cpp - ktunit::emitBundle ----------------------------------===//
//
// The C++ entry point of emission: a unit program after sync insertion and
// register allocation becomes the bundle its ops say, and IR that still
// has virtual registers is refused with a diagnostic, not a bundle.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Unit/Emit.h"

#include "ktflow/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace ktflow;

namespace {

mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context, const char *text) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  return mlir::parseSourceString<mlir::ModuleOp>(text, &context);
}

const char *kProgram = R"mlir(
ktunit.bundle @b device "sample" {
  ktunit.symbol @A : f32 [16] 64 bytes input
  ktunit.program @v unit "vec" instances [1] table dense<[[128]]> : tensor<1x1xi64> {
    %r = ktunit.vreg {phys = 4} : !ktunit.vreg<16xf32>
    ktunit.credit sem 2, 3
    ktunit.loop 2 {
      ktunit.vload #ktunit.addr<sym @A + t0 + d0 * 64> -> %r : !ktunit.vreg<16xf32>
    }
  }
}
)mlir";

TEST(EmitTest, OpsBecomeTheirInstructions) {
  mlir::MLIRContext context;
  auto module = parse(context, kProgram);
  ASSERT_TRUE(module);
  mlir::FailureOr<dc::Bundle> bundle = ktunit::emitBundle(*module);
  ASSERT_TRUE(mlir::succeeded(bundle));
  ASSERT_EQ(bundle->symbols.size(), 1u);
  EXPECT_EQ(bundle->symbols[0].elementType, "f32");
  ASSERT_EQ(bundle->programs.size(), 1u);
  const dc::Program &p = bundle->programs[0];
  EXPECT_EQ(p.unit, "vec");
  EXPECT_EQ(p.instances, std::vector<int64_t>{1});
  ASSERT_EQ(p.table.size(), 1u);
  EXPECT_EQ(p.table[0], std::vector<int64_t>{128});
  ASSERT_EQ(p.body.size(), 4u);
  EXPECT_EQ(p.body[0].op, dc::Opcode::Credit);
  EXPECT_EQ(p.body[0].sem, 2u);
  EXPECT_EQ(p.body[0].count, 3);
  EXPECT_EQ(p.body[1].op, dc::Opcode::Loop);
  const dc::Instruction &load = p.body[2];
  EXPECT_EQ(load.op, dc::Opcode::VLoad);
  EXPECT_EQ(load.vd, 4);
  EXPECT_EQ(load.count, 16);
  EXPECT_EQ(load.src.base, dc::Address::Base::Symbol);
  EXPECT_EQ(load.src.tableColumn, std::optional<uint32_t>(0));
  ASSERT_EQ(load.src.terms.size(), 1u);
  EXPECT_EQ(load.src.terms[0].stride, Bytes(64));
  EXPECT_EQ(p.body[3].op, dc::Opcode::End);
}

TEST(EmitTest, VirtualRegistersAreRefused) {
  mlir::MLIRContext context;
  std::string text = kProgram;
  text.replace(text.find("{phys = 4} "), 11, "");
  auto module = parse(context, text.c_str());
  ASSERT_TRUE(module);
  std::string message;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    message = d.str();
    return mlir::success();
  });
  EXPECT_TRUE(mlir::failed(ktunit::emitBundle(*module)));
  EXPECT_NE(message.find("run ktunit-allocate-registers first"), std::string::npos) << message;
}

} // namespace
