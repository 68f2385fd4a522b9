//===- InterpreterTest.cpp - whole kernels through the interpreter --------===//
//
// Small KTIR kernels exercising what the shipped examples do not: distributed
// views over scratchpads, indirect tiles with masked indices and scatters,
// another tile's scratchpad, duplicate points, the general linalg path,
// scf.while, tensor slicing and padding.
//
//===----------------------------------------------------------------------===//
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Interpreter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace ktflow;
using namespace ktflow::interp;

namespace {
class KernelRun {
public:
  KernelRun(const std::string &text, std::vector<std::string> args = {}) {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context = std::make_unique<mlir::MLIRContext>(registry);
    context->loadAllAvailableDialects();
    mlir::ScopedDiagnosticHandler handler(context.get(), [&](mlir::Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return mlir::success();
    });
    module = mlir::parseSourceString<mlir::ModuleOp>(text, context.get());
    if (!module)
      return;
    InterpOptions options;
    options.args = std::move(args);
    interpreter = std::make_unique<Interpreter>(*module, options);
    ok = mlir::succeeded(interpreter->run());
  }

  std::vector<double> buffer(const std::string &name) {
    for (auto &b : interpreter->memory().buffers()) {
      if (b->name != name)
        continue;
      std::vector<double> out;
      int64_t esize = elementSize(b->kind).bytes.count();
      for (int64_t i = 0; i < b->numElements(); ++i) {
        const uint8_t *p = b->bytes.data() + i * esize;
        if (b->kind == ElemKind::F32) {
          float f;
          std::memcpy(&f, p, 4);
          out.push_back(f);
        } else if (b->kind == ElemKind::F16) {
          uint16_t h;
          std::memcpy(&h, p, 2);
          out.push_back(halfBitsToFloat(h));
        } else {
          int64_t v = 0;
          std::memcpy(&v, p, esize);
          out.push_back(double(wrapInt(b->kind, v)));
        }
      }
      return out;
    }
    ADD_FAILURE() << "no buffer " << name;
    return {};
  }

  bool ok = false;
  std::string diagnostics;

private:
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Interpreter> interpreter;
};
} // namespace

static const char *kSets = R"(
#r4 = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#r3 = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#m42 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
)";

TEST(Interpreter, DistributedViewOverScratchpadAndGlobal) {
  KernelRun run(std::string(kSets) + R"(
func.func @k(%g: index, %out: index) {
  %c0 = arith.constant 0 : index
  %gv = ktdp.construct_memory_view %g, sizes: [2, 2], strides: [2, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<global>} : memref<2x2xf32>
  %lv = ktdp.construct_memory_view %c0, sizes: [2, 2], strides: [2, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<ct_local>} : memref<2x2xf32>
  %d = ktdp.construct_distributed_memory_view(%lv, %gv : memref<2x2xf32>, memref<2x2xf32>) : memref<4x2xf32>
  %at = ktdp.construct_access_tile %d[%c0, %c0] {
      access_tile_set = #m42, access_tile_order = #id2} : memref<4x2xf32> -> !ktdp.access_tile<4x2xindex>
  %v = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  ktdp.store %v, %at : tensor<4x2xf32>, !ktdp.access_tile<4x2xindex>
  %back = ktdp.load %at : !ktdp.access_tile<4x2xindex> -> tensor<4x2xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [4, 2], strides: [2, 1] {
      coordinate_set = #m42, memory_space = #ktdp.memory_space<global>} : memref<4x2xf32>
  %oat = ktdp.construct_access_tile %ov[%c0, %c0] {
      access_tile_set = #m42, access_tile_order = #id2} : memref<4x2xf32> -> !ktdp.access_tile<4x2xindex>
  ktdp.store %back, %oat : tensor<4x2xf32>, !ktdp.access_tile<4x2xindex>
  return
})");
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(run.buffer("arg0"), (std::vector<double>{5, 6, 7, 8}));
  EXPECT_EQ(run.buffer("arg1"), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(Interpreter, IndirectGatherMasksInvalidIndicesAndScatters) {
  KernelRun run(std::string(kSets) + R"(
func.func @k(%table: index, %ids: index, %out: index, %scattered: index) {
  %c0 = arith.constant 0 : index
  %tv = ktdp.construct_memory_view %table, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %tat = ktdp.construct_access_tile %tv[%c0] {access_tile_set = #r4, access_tile_order = #id1}
      : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %tdata = arith.constant dense<[10.0, 11.0, 12.0, 13.0]> : tensor<4xf32>
  ktdp.store %tdata, %tat : tensor<4xf32>, !ktdp.access_tile<4xindex>
  %iv = ktdp.construct_memory_view %ids, sizes: [3], strides: [1] {
      coordinate_set = #r3, memory_space = #ktdp.memory_space<global>} : memref<3xi32>
  %iat = ktdp.construct_access_tile %iv[%c0] {access_tile_set = #r3, access_tile_order = #id1}
      : memref<3xi32> -> !ktdp.access_tile<3xindex>
  %idata = arith.constant dense<[2, 99, 0]> : tensor<3xi32>
  ktdp.store %idata, %iat : tensor<3xi32>, !ktdp.access_tile<3xindex>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i) %tv[ind(%iv[%i])] {
      variables_space_set = #r3, variables_space_order = #id1
  } : memref<4xf32>, memref<3xi32> -> !ktdp.access_tile<3xindex>
  %rows = ktdp.load %g : !ktdp.access_tile<3xindex> -> tensor<3xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [3], strides: [1] {
      coordinate_set = #r3, memory_space = #ktdp.memory_space<global>} : memref<3xf32>
  %oat = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #r3, access_tile_order = #id1}
      : memref<3xf32> -> !ktdp.access_tile<3xindex>
  ktdp.store %rows, %oat : tensor<3xf32>, !ktdp.access_tile<3xindex>
  %sv = ktdp.construct_memory_view %scattered, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %sat = ktdp.construct_access_tile %sv[%c0] {access_tile_set = #r4, access_tile_order = #id1}
      : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %zeros = arith.constant dense<0.0> : tensor<4xf32>
  ktdp.store %zeros, %sat : tensor<4xf32>, !ktdp.access_tile<4xindex>
  %s = ktdp.construct_indirect_access_tile intermediate_variables(%j) %sv[ind(%iv[%j])] {
      variables_space_set = #r3, variables_space_order = #id1
  } : memref<4xf32>, memref<3xi32> -> !ktdp.access_tile<3xindex>
  %vals = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  ktdp.store %vals, %s : tensor<3xf32>, !ktdp.access_tile<3xindex>
  return
})");
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(run.buffer("arg2"), (std::vector<double>{12, 0, 10}));
  EXPECT_EQ(run.buffer("arg3"), (std::vector<double>{3, 0, 1, 0}));
}

TEST(Interpreter, AnotherTilesScratchpadAndLaterStoreWins) {
  KernelRun run(std::string(kSets) + R"(
func.func @k(%out: index, %dup: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  %is0 = arith.cmpi eq, %t, %c0 : index
  %lv1 = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4xf32>
  %own = ktdp.construct_memory_view %c0, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<ct_local>} : memref<4xf32>
  %ov = ktdp.construct_memory_view %out, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  scf.if %is0 {
    %at = ktdp.construct_access_tile %lv1[%c0] {access_tile_set = #r4, access_tile_order = #id1}
        : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %v = arith.constant dense<42.0> : tensor<4xf32>
    ktdp.store %v, %at : tensor<4xf32>, !ktdp.access_tile<4xindex>
  } else {
    %at = ktdp.construct_access_tile %own[%c0] {access_tile_set = #r4, access_tile_order = #id1}
        : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %v = ktdp.load %at : !ktdp.access_tile<4xindex> -> tensor<4xf32>
    %oat = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #r4, access_tile_order = #id1}
        : memref<4xf32> -> !ktdp.access_tile<4xindex>
    ktdp.store %v, %oat : tensor<4xf32>, !ktdp.access_tile<4xindex>
    // Four points on one element (stride 0): the last in order survives.
    %dv = ktdp.construct_memory_view %dup, sizes: [4], strides: [0] {
        coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %dat = ktdp.construct_access_tile %dv[%c0] {access_tile_set = #r4, access_tile_order = #id1}
        : memref<4xf32> -> !ktdp.access_tile<4xindex>
    %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    ktdp.store %d, %dat : tensor<4xf32>, !ktdp.access_tile<4xindex>
  }
  return
})");
  ASSERT_TRUE(run.ok) << run.diagnostics;
  EXPECT_EQ(run.buffer("arg0"), (std::vector<double>{42, 42, 42, 42}));
  EXPECT_EQ(run.buffer("arg1"), (std::vector<double>{4}));
}

/// Runs `body` (which must define %r : tensor<4xf32>) and stores %r.
static std::vector<double> compute(const std::string &body, std::string *diags = nullptr) {
  KernelRun run(std::string(kSets) + R"(
func.func @k(%out: index) {
  %c0 = arith.constant 0 : index
)" + body + R"(
  %ov = ktdp.construct_memory_view %out, sizes: [4], strides: [1] {
      coordinate_set = #r4, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
  %oat = ktdp.construct_access_tile %ov[%c0] {access_tile_set = #r4, access_tile_order = #id1}
      : memref<4xf32> -> !ktdp.access_tile<4xindex>
  ktdp.store %r, %oat : tensor<4xf32>, !ktdp.access_tile<4xindex>
  return
})");
  if (diags)
    *diags = run.diagnostics;
  if (!run.ok) {
    ADD_FAILURE() << run.diagnostics;
    return {};
  }
  return run.buffer("arg0");
}

TEST(InterpreterLinalg, ReduceWithCmpfSelectCombiner) {
  EXPECT_EQ(compute(R"(
  %m = arith.constant dense<[[1.0, 9.0], [4.0, -2.0], [0.5, 0.25], [7.0, 8.0]]> : tensor<4x2xf32>
  %init = arith.constant dense<-100.0> : tensor<4xf32>
  %r = linalg.reduce ins(%m : tensor<4x2xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %gt = arith.cmpf ogt, %in, %acc : f32
      %s = arith.select %gt, %in, %acc : f32
      linalg.yield %s : f32
    }
)"),
            (std::vector<double>{9, 4, 0.5, 8}));
}

TEST(InterpreterLinalg, GenericMatvecAndTranspose) {
  EXPECT_EQ(compute(R"(
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %x = arith.constant dense<[10.0, 1.0]> : tensor<2xf32>
  %init = arith.constant dense<0.5> : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a, %x : tensor<4x2xf32>, tensor<2xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%av: f32, %xv: f32, %acc: f32):
    %p = arith.mulf %av, %xv : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
)"),
            (std::vector<double>{12.5, 34.5, 56.5, 78.5}));
  EXPECT_EQ(compute(R"(
  %a = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %e = tensor.empty() : tensor<4x1xf32>
  %t = linalg.transpose ins(%a : tensor<1x4xf32>) outs(%e : tensor<4x1xf32>) permutation = [1, 0]
  %r = tensor.collapse_shape %t [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
)"),
            (std::vector<double>{1, 2, 3, 4}));
}

TEST(InterpreterLinalg, MatvecNamedOpAndBatchMatmul) {
  EXPECT_EQ(compute(R"(
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %x = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %init = arith.constant dense<0.0> : tensor<4xf32>
  %r = linalg.matvec ins(%a, %x : tensor<4x2xf32>, tensor<2xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
)"),
            (std::vector<double>{3, 7, 11, 15}));
  EXPECT_EQ(compute(R"(
  %a = arith.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf16>
  %b = arith.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]> : tensor<2x2x2xf16>
  %init = arith.constant dense<0.0> : tensor<2x1x2xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x1x2xf16>, tensor<2x2x2xf16>)
                           outs(%init : tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
  %r = tensor.collapse_shape %m [[0, 1, 2]] : tensor<2x1x2xf32> into tensor<4xf32>
)"),
            (std::vector<double>{1, 2, 6, 8}));
}

TEST(InterpreterSCF, WhileAndIf) {
  EXPECT_EQ(compute(R"(
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %n = scf.while (%i = %c1) : (index) -> index {
    %lt = arith.cmpi slt, %i, %c10 : index
    scf.condition(%lt) %i : index
  } do {
  ^bb0(%i: index):
    %d = arith.addi %i, %i : index
    scf.yield %d : index
  }
  %ni = arith.index_cast %n : index to i32
  %f = arith.sitofp %ni : i32 to f32
  %big = arith.cmpi sgt, %n, %c10 : index
  %g = scf.if %big -> f32 {
    scf.yield %f : f32
  } else {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  }
  %r = tensor.splat %g : tensor<4xf32>
)"),
            (std::vector<double>{16, 16, 16, 16}));
}

TEST(InterpreterTensor, SlicesReshapesAndElements) {
  EXPECT_EQ(compute(R"(
  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %row = tensor.extract_slice %m[1, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
  %c2 = arith.constant 2 : index
  %x = tensor.extract %row[%c2] : tensor<3xf32>
  %nine = arith.constant 9.0 : f32
  %row2 = tensor.insert %nine into %row[%c2] : tensor<3xf32>
  %z = arith.constant dense<0.0> : tensor<4xf32>
  %ins = tensor.insert_slice %row2 into %z[1] [3] [1] : tensor<3xf32> into tensor<4xf32>
  %e = tensor.expand_shape %ins [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %c = tensor.collapse_shape %e [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
  %f = tensor.from_elements %x, %x, %x, %x : tensor<4xf32>
  %r = arith.addf %c, %f : tensor<4xf32>
)"),
            (std::vector<double>{6, 10, 11, 15}));
}

// tensor.pad's padding value in each of its forms: a constant defined
// outside the region, one defined inside it (which used to be read before
// the region ran: "value used before it was computed"), and a value that
// depends on the padded index.
TEST(InterpreterTensor, PadWithOutsideConstant) {
  EXPECT_EQ(compute(R"(
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %p = arith.constant 7.0 : f32
  %r = tensor.pad %v low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %p : f32
  } : tensor<2xf32> to tensor<4xf32>
)"),
            (std::vector<double>{7, 1, 2, 7}));
}

TEST(InterpreterTensor, PadWithConstantInsideTheRegion) {
  EXPECT_EQ(compute(R"(
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = tensor.pad %v low[2] high[0] {
  ^bb0(%i: index):
    %p = arith.constant -3.0 : f32
    tensor.yield %p : f32
  } : tensor<2xf32> to tensor<4xf32>
)"),
            (std::vector<double>{-3, -3, 1, 2}));
}

TEST(InterpreterTensor, PadWithIndexDependentValue) {
  EXPECT_EQ(compute(R"(
  %v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = tensor.pad %v low[1] high[1] {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    %p = arith.addf %f, %f : f32
    tensor.yield %p : f32
  } : tensor<2xf32> to tensor<4xf32>
)"),
            (std::vector<double>{0, 1, 2, 6}));
}

TEST(InterpreterErrors, ShapeMismatchAndNonPositiveGrid) {
  std::string diags;
  KernelRun bad(R"(func.func @k() attributes {grid = [0]} { return })");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.diagnostics.find("'grid' entries must be positive"), std::string::npos);
  KernelRun broadcastBad(std::string(kSets) + R"(
func.func @k() {
  %a = arith.constant dense<1.0> : tensor<3xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %b = linalg.broadcast ins(%a : tensor<3xf32>) outs(%e : tensor<2x4xf32>) dimensions = [0]
  return
})");
  // The verifier or the interpreter rejects it; either way, no crash.
  EXPECT_FALSE(broadcastBad.ok);
}
