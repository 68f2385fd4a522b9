//===- KTDPOpsTest.cpp - the C++ accessors consumers rely on --------------===//
#include "ktflow/InitAll.h"
#include "ktflow/KTDP/IntegerSetUtils.h"
#include "ktflow/KTDP/KTDPOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

using namespace mlir;
using namespace ktflow::ktdp;

namespace {
class KTDPOpsTest : public ::testing::Test {
protected:
  KTDPOpsTest() {
    DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(StringRef text) {
    return parseSourceString<ModuleOp>(text, &context);
  }
  template <typename OpT> OpT first(ModuleOp module) {
    OpT found;
    module.walk([&](OpT op) {
      if (!found)
        found = op;
    });
    return found;
  }
  MLIRContext context;
};

constexpr const char *kViews = R"mlir(
func.func @k(%a: index, %m: index) attributes {grid = [2]} {
  %v = ktdp.construct_memory_view %a, sizes: [%m, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.spyre_memory_space<LX, core = 1>
  } : memref<?x64xf16>
  %c0 = arith.constant 0 : index
  %t = ktdp.construct_access_tile %v[%c0 + symbol(%m), %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d1, d0)>
  } : memref<?x64xf16> -> !ktdp.access_tile<8x4xindex>
  return
}
)mlir";
} // namespace

TEST_F(KTDPOpsTest, MemoryViewAccessors) {
  OwningOpRef<ModuleOp> module = parse(kViews);
  ASSERT_TRUE(module);
  auto view = first<ConstructMemoryViewOp>(*module);
  ASSERT_TRUE(view);
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_TRUE(isa<Value>(sizes[0]));
  EXPECT_EQ(cast<IntegerAttr>(cast<Attribute>(sizes[1])).getInt(), 64);
  SmallVector<OpFoldResult> strides = view.getMixedStrides();
  EXPECT_EQ(cast<IntegerAttr>(cast<Attribute>(strides[0])).getInt(), 64);
  EXPECT_EQ(view.getCoordinateSetSymbolOperands().size(), 1u);
  EXPECT_EQ(view.getRank(), 2u);
  EXPECT_TRUE(view.getElementType().isF16());
  // The older spelling normalises to the current attribute.
  MemorySpaceAttr space = view.getMemorySpace();
  EXPECT_TRUE(space.isCtLocal());
  EXPECT_EQ(space.getCtId(), std::optional<int64_t>(1));
  EXPECT_EQ(space, MemorySpaceAttr::get(&context, MemorySpaceKind::CtLocal, 1));
  EXPECT_EQ(getKernelGrid(view), (SmallVector<int64_t, 3>{2, 1, 1}));
}

TEST_F(KTDPOpsTest, AccessTileAccessors) {
  OwningOpRef<ModuleOp> module = parse(kViews);
  ASSERT_TRUE(module);
  auto tile = first<ConstructAccessTileOp>(*module);
  ASSERT_TRUE(tile);
  // base_map: one dimension (%c0, used twice) and one symbol (%m).
  EXPECT_EQ(tile.getBaseMap().getNumDims(), 1u);
  EXPECT_EQ(tile.getBaseMap().getNumSymbols(), 1u);
  EXPECT_EQ(tile.getBaseMapDimOperands().size(), 1u);
  EXPECT_EQ(tile.getBaseMapSymbolOperands().size(), 1u);
  EXPECT_FALSE(tile.hasTensorBase());
  std::optional<SmallVector<unsigned>> perm = tile.getOrderPermutation();
  ASSERT_TRUE(perm);
  EXPECT_EQ(*perm, (SmallVector<unsigned>{1, 0}));
  TileShape shape = computeTileShape(tile.getAccessTileSet(), *perm);
  EXPECT_EQ(shape.shape, (SmallVector<int64_t>{8, 4}));
  EXPECT_EQ(ArrayRef<int64_t>(shape.shape), tile.getType().getShape());
  EXPECT_EQ(getAccessTileBase(tile.getResult()), tile.getBase());
}

TEST_F(KTDPOpsTest, IndirectTileAccessors) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @k(%tab: memref<64x128xf16>, %ids: memref<16xi32>, %base: index) {
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j)
      %tab[ind(%ids[%base + %i]), (%j * 2)] {
        variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
        variables_space_order = affine_map<(d0, d1) -> (d0, d1)>
      } : memref<64x128xf16>, memref<16xi32> -> !ktdp.access_tile<8x16xindex>
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto tile = first<ConstructIndirectAccessTileOp>(*module);
  ASSERT_TRUE(tile);
  EXPECT_EQ(tile.getNumSubscripts(), 2u);
  EXPECT_EQ(tile.getIntermediateVariableArgs().size(), 2u);
  EXPECT_EQ(tile.getCaptured().size(), 1u);
  EXPECT_EQ(tile.getSubscriptKind(0), SubscriptKind::Indirect);
  EXPECT_EQ(tile.getSubscriptKind(1), SubscriptKind::Direct);
  EXPECT_EQ(tile.getIndexViewForDim(0), tile.getIndexViews()[0]);
  EXPECT_FALSE(tile.getIndexViewForDim(1));
  // Subscript maps: dims are the variables, symbols the captured values.
  // ind(%ids[%base + %i]) at v = (3, 5), %base = 8 reads ids[11].
  EXPECT_EQ(evaluateAffineMap(tile.getSubscriptMap(0), {3, 5}, {8}),
            (SmallVector<int64_t>{11}));
  EXPECT_EQ(evaluateAffineMap(tile.getSubscriptMap(1), {3, 5}, {8}),
            (SmallVector<int64_t>{10}));
}

// A module parsed from a buffer that is not NUL-terminated (parseSourceString
// does not require one) must be read only within the buffer. The tile_future
// parser used to strlen() from the current token; under `make test-asan`
// that is a heap-buffer-overflow on this input (found by fuzz/ktir-fuzzer).
TEST_F(KTDPOpsTest, FutureTypeParserStaysInsideAnUnterminatedBuffer) {
  std::string text = R"mlir(
func.func @k(%p: tensor<1xf16>) attributes {grid = [4]} {
  %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>
         -> !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %p : tensor<1xf16>
  }
  %c = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(i)[g] : (i - 2*g >= 0, -i + 2*g + 1 >= 0)>,
         producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)>
     : !ktdp.tile_future<(tensor<1xf16>), groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>> -> tensor<1xf16>
  return
}
)mlir";
  // Exactly sized heap copies, ending at the type, in the type and after it.
  for (size_t end : {text.find("!ktdp.tile_future"), text.find("tile_future") + 4,
                     text.size()}) {
    std::unique_ptr<char[]> exact(new char[end]);
    std::memcpy(exact.get(), text.data(), end);
    context.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
    OwningOpRef<ModuleOp> module = parse(StringRef(exact.get(), end));
    EXPECT_EQ(bool(module), end == text.size()) << "buffer of " << end << " bytes";
  }
}
