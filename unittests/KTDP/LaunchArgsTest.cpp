//===- LaunchArgsTest.cpp - one reading of --arg NAME=VALUE ---------------===//
//
// The interpreter and ktsched-specialize read launch values through these
// helpers, so what one accepts the other does: names by source name
// (NameLoc) or position, values in the argument's type, runtime_arg
// guarantees, and which arguments are buffers.
//
//===----------------------------------------------------------------------===//
#include "ktflow/InitAll.h"
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/KTDP/LaunchArgs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace ktflow::ktdp;

namespace {
class LaunchArgsTest : public ::testing::Test {
protected:
  LaunchArgsTest() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  MLIRContext context;
};

constexpr const char *kKernel = R"mlir(
func.func @k(%x: index loc("x"), %n: i32 loc("n"), %off: index,
             %rows: !ktdp.runtime_arg<index, granularity=4, upperbound=256>) {
  %c = arith.constant 8 : index
  %base = arith.addi %x, %c : index
  %v = ktdp.construct_memory_view %base, sizes: [64], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  return
}
)mlir";

TEST_F(LaunchArgsTest, NamesComeFromNameLocsOrPositions) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kKernel, &context);
  ASSERT_TRUE(module);
  auto kernel = *module->getOps<func::FuncOp>().begin();
  SmallVector<std::string> names = argumentNames(kernel);
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "x");
  EXPECT_EQ(names[1], "n");
  EXPECT_EQ(names[2], "arg2");
  EXPECT_EQ(resolveArgumentName(names, "n"), std::optional<unsigned>(1));
  EXPECT_EQ(resolveArgumentName(names, "arg3"), std::optional<unsigned>(3));
  EXPECT_EQ(resolveArgumentName(names, "arg4"), std::nullopt);
  EXPECT_EQ(resolveArgumentName(names, "m"), std::nullopt);
  // A base address reached through an addition is a buffer; scalars are not.
  Block &entry = kernel.getBody().front();
  EXPECT_TRUE(isBufferBase(entry.getArgument(0)));
  EXPECT_FALSE(isBufferBase(entry.getArgument(1)));
  EXPECT_FALSE(isBufferBase(entry.getArgument(2)));
}

TEST_F(LaunchArgsTest, BindingsSplitAtTheFirstEquals) {
  std::optional<ArgBinding> b = splitArgBinding("x=a=b.npy");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->name, "x");
  EXPECT_EQ(b->value, "a=b.npy");
  EXPECT_FALSE(splitArgBinding("x"));
}

TEST_F(LaunchArgsTest, ValuesAreReadInTheArgumentsType) {
  std::string error;
  Builder b(&context);
  auto i32 = parseLaunchValue(b.getI32Type(), " 0x10 ", "n", error);
  ASSERT_TRUE(succeeded(i32));
  EXPECT_EQ(cast<IntegerAttr>(*i32).getInt(), 16);
  EXPECT_TRUE(failed(parseLaunchValue(b.getI32Type(), "1.5", "n", error)));
  EXPECT_EQ(error, "value '1.5' for argument 'n' is not an integer");
  EXPECT_TRUE(failed(parseLaunchValue(b.getI8Type(), "300", "n", error)));
  auto i1 = parseLaunchValue(b.getI1Type(), "true", "flag", error);
  ASSERT_TRUE(succeeded(i1));
  EXPECT_EQ(cast<IntegerAttr>(*i1).getValue().getZExtValue(), 1u);
  // Floats are rounded to the type: 0.1 in f16 is 0.0999755859375.
  auto f16 = parseLaunchValue(b.getF16Type(), "0.1", "eps", error);
  ASSERT_TRUE(succeeded(f16));
  EXPECT_EQ(cast<FloatAttr>(*f16).getValueAsDouble(), 0.0999755859375);
  EXPECT_TRUE(failed(parseLaunchValue(b.getF32Type(), "small", "eps", error)));
  EXPECT_EQ(error, "value 'small' for argument 'eps' is not a f32 number");
  // A runtime_arg's value meets its guarantees and has its underlying type.
  auto rt = RuntimeArgType::get(&context, b.getIndexType(), 4, 256);
  auto rows = parseLaunchValue(rt, "24", "rows", error);
  ASSERT_TRUE(succeeded(rows));
  EXPECT_TRUE(cast<IntegerAttr>(*rows).getType().isIndex());
  EXPECT_TRUE(failed(parseLaunchValue(rt, "6", "rows", error)));
  EXPECT_EQ(error, "runtime argument 'rows' = 6 is not a multiple of its granularity 4");
  EXPECT_TRUE(failed(parseLaunchValue(rt, "260", "rows", error)));
  EXPECT_EQ(error, "runtime argument 'rows' = 260 exceeds its upperbound 256");
}
} // namespace
