//===- BenchKernel.cpp - the benchmark suite's kernels --------------------===//
//
// Each kind is a fixed expression over the same skeleton (row blocks on a
// 1-D grid, plain arith ops, no clamps), so the suite measures the
// schedule of the kind, not generator noise. Names encode every parameter,
// so a file name identifies its kernel.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/BenchKernel.h"

using namespace ktflow;
using namespace ktflow::gen;

static const BenchKind kKinds[] = {BenchKind::Add,         BenchKind::Mul,      BenchKind::Fma,
                                   BenchKind::Relu,        BenchKind::BcastRow, BenchKind::BcastCol,
                                   BenchKind::BcastScalar, BenchKind::RowSum,   BenchKind::RowMax,
                                   BenchKind::ColSum,      BenchKind::RowLoop,  BenchKind::Softmax,
                                   BenchKind::LayerNorm,   BenchKind::RmsNorm,  BenchKind::Rope,
                                   BenchKind::SwiGlu};

llvm::ArrayRef<BenchKind> gen::allBenchKinds() { return kKinds; }

llvm::StringRef gen::benchKindName(BenchKind kind) {
  switch (kind) {
  case BenchKind::Add:
    return "add";
  case BenchKind::Mul:
    return "mul";
  case BenchKind::Fma:
    return "fma";
  case BenchKind::Relu:
    return "relu";
  case BenchKind::BcastRow:
    return "bcast-row";
  case BenchKind::BcastCol:
    return "bcast-col";
  case BenchKind::BcastScalar:
    return "bcast-scalar";
  case BenchKind::RowSum:
    return "rowsum";
  case BenchKind::RowMax:
    return "rowmax";
  case BenchKind::ColSum:
    return "colsum";
  case BenchKind::RowLoop:
    return "rowloop";
  case BenchKind::Softmax:
    return "softmax";
  case BenchKind::LayerNorm:
    return "layernorm";
  case BenchKind::RmsNorm:
    return "rmsnorm";
  case BenchKind::Rope:
    return "rope";
  case BenchKind::SwiGlu:
    return "swiglu";
  case BenchKind::Fill:
    return "fill";
  }
  return "?";
}

std::optional<BenchKind> gen::parseBenchKind(llvm::StringRef name) {
  for (BenchKind kind : kKinds)
    if (benchKindName(kind) == name)
      return kind;
  if (name == benchKindName(BenchKind::Fill))
    return BenchKind::Fill;
  return std::nullopt;
}

KernelSpec gen::benchKernel(BenchKind kind, int64_t rows, int64_t cols, ElemType type,
                            int64_t tiles) {
  KernelSpec spec;
  std::string name = benchKindName(kind).str();
  for (char &c : name)
    if (c == '-')
      c = '_';
  spec.name = name + "_" + elemTypeName(type).str();
  spec.origin = "--kernel " + benchKindName(kind).str() + " --shape " + std::to_string(rows) +
                "x" + std::to_string(cols) + " --dtype " + elemTypeName(type).str() +
                " --grid " + std::to_string(tiles);
  spec.rank = 2;
  spec.rows = rows;
  spec.cols = cols;
  spec.grid = {tiles};
  spec.distribution = Distribution::RowBlocks;
  spec.computeType = type;
  spec.reduceDim = 1;

  auto buffer = [&](const char *bufferName, BufferShape shape, bool output) {
    spec.buffers.push_back({bufferName, type, shape, output});
    return unsigned(spec.buffers.size() - 1);
  };
  auto node = [&](Node n) {
    spec.nodes.push_back(n);
    return unsigned(spec.nodes.size() - 1);
  };
  auto leaf = [&](const char *bufferName, BufferShape shape) {
    Node n{shape == BufferShape::Full ? NodeKind::Load : NodeKind::Broadcast};
    n.buffer = buffer(bufferName, shape, false);
    return node(n);
  };
  auto binary = [&](BinaryOp op, unsigned a, unsigned b) {
    Node n{NodeKind::Binary};
    n.binary = op;
    n.operands = {a, b};
    return node(n);
  };
  auto unary = [&](UnaryOp op, unsigned a) {
    Node n{NodeKind::Unary};
    n.unary = op;
    n.operands = {a};
    return node(n);
  };
  auto rowReduce = [&](BinaryOp combiner, unsigned a) {
    Node n{NodeKind::RowReduce};
    n.binary = combiner;
    n.operands = {a};
    return node(n);
  };
  auto constant = [&](double value) {
    Node n{NodeKind::Constant};
    n.value = value;
    return node(n);
  };
  // The mean of a row's values: their sum over the row length.
  auto rowMean = [&](unsigned a) {
    return binary(BinaryOp::Div, rowReduce(BinaryOp::Add, a), constant(double(cols)));
  };
  auto store = [&](unsigned value) {
    spec.outputs.push_back({OutputKind::Store, value, buffer("y", BufferShape::Full, true)});
  };

  switch (kind) {
  case BenchKind::Add:
  case BenchKind::Mul: {
    unsigned x = leaf("x", BufferShape::Full), w = leaf("w", BufferShape::Full);
    store(binary(kind == BenchKind::Add ? BinaryOp::Add : BinaryOp::Mul, x, w));
    break;
  }
  case BenchKind::Fma: {
    unsigned x = leaf("x", BufferShape::Full), w = leaf("w", BufferShape::Full),
             z = leaf("z", BufferShape::Full);
    store(binary(BinaryOp::Add, binary(BinaryOp::Mul, x, w), z));
    break;
  }
  case BenchKind::Relu: {
    Node relu{NodeKind::Unary};
    relu.unary = UnaryOp::Relu;
    relu.operands = {leaf("x", BufferShape::Full)};
    store(node(relu));
    break;
  }
  case BenchKind::BcastRow:
  case BenchKind::BcastCol: {
    unsigned x = leaf("x", BufferShape::Full);
    unsigned b = kind == BenchKind::BcastRow ? leaf("bias", BufferShape::Row)
                                             : leaf("bias", BufferShape::Column);
    store(binary(BinaryOp::Add, x, b));
    break;
  }
  case BenchKind::BcastScalar: {
    unsigned x = leaf("x", BufferShape::Full), s = leaf("scale", BufferShape::Scalar);
    store(binary(BinaryOp::Mul, x, s));
    break;
  }
  case BenchKind::Fill:
    store(leaf("value", BufferShape::Scalar));
    break;
  case BenchKind::RowSum:
  case BenchKind::RowMax: {
    unsigned x = leaf("x", BufferShape::Full);
    spec.outputs.push_back({kind == BenchKind::RowSum ? OutputKind::ReduceSum
                                                      : OutputKind::ReduceMax,
                            x, buffer("y", BufferShape::Column, true)});
    break;
  }
  case BenchKind::ColSum: {
    // The running sums are iter_args of a loop over row blocks.
    spec.distribution = Distribution::ColBlocks;
    spec.reduceDim = 0;
    spec.innerBlock = kColSumBlock;
    spec.launchValues = true;
    unsigned x = leaf("x", BufferShape::Full);
    spec.outputs.push_back({OutputKind::ReduceSum, x, buffer("y", BufferShape::Row, true)});
    break;
  }
  case BenchKind::Softmax: {
    // exp(x - max) / sum exp(x - max), in f32 over f16 rows.
    spec.computeType = ElemType::F32;
    unsigned x = leaf("x", BufferShape::Full);
    unsigned e = unary(UnaryOp::Exp, binary(BinaryOp::Sub, x, rowReduce(BinaryOp::Max, x)));
    store(binary(BinaryOp::Div, e, rowReduce(BinaryOp::Add, e)));
    break;
  }
  case BenchKind::LayerNorm: {
    // (x - mean) * rsqrt(var + eps) * gamma + beta, eps = 0.01.
    spec.computeType = ElemType::F32;
    unsigned x = leaf("x", BufferShape::Full);
    unsigned gamma = leaf("gamma", BufferShape::Row), beta = leaf("beta", BufferShape::Row);
    unsigned centered = binary(BinaryOp::Sub, x, rowMean(x));
    unsigned variance = rowMean(binary(BinaryOp::Mul, centered, centered));
    unsigned rstd = unary(UnaryOp::Rsqrt, binary(BinaryOp::Add, variance, constant(0.01)));
    store(binary(BinaryOp::Add, binary(BinaryOp::Mul, binary(BinaryOp::Mul, centered, rstd), gamma),
                 beta));
    break;
  }
  case BenchKind::RmsNorm: {
    // x * rsqrt(mean(x^2) + eps) * w, eps = 0.01.
    spec.computeType = ElemType::F32;
    unsigned x = leaf("x", BufferShape::Full), w = leaf("w", BufferShape::Row);
    unsigned meanSquare = rowMean(binary(BinaryOp::Mul, x, x));
    unsigned rstd = unary(UnaryOp::Rsqrt, binary(BinaryOp::Add, meanSquare, constant(0.01)));
    store(binary(BinaryOp::Mul, binary(BinaryOp::Mul, x, rstd), w));
    break;
  }
  case BenchKind::Rope: {
    // Rows of `cols` elements as two halves of cols / 2 (the tile): with
    // x = [x1, x2], y = [x1 * cos - x2 * sin, x2 * cos + x1 * sin], cos and
    // sin of the half-row positions (rows x cols / 2: per token, shared by
    // the halves, as the rotate-half form duplicates them).
    spec.computeType = ElemType::F32;
    spec.cols = cols / 2;
    unsigned xBuffer = buffer("x", BufferShape::Halves, false);
    auto half = [&](unsigned which) {
      Node n{NodeKind::Load};
      n.buffer = xBuffer;
      n.half = which;
      return node(n);
    };
    unsigned x1 = half(0), x2 = half(1);
    unsigned cosine = leaf("cos", BufferShape::Full), sine = leaf("sin", BufferShape::Full);
    unsigned y1 = binary(BinaryOp::Sub, binary(BinaryOp::Mul, x1, cosine),
                         binary(BinaryOp::Mul, x2, sine));
    unsigned y2 = binary(BinaryOp::Add, binary(BinaryOp::Mul, x2, cosine),
                         binary(BinaryOp::Mul, x1, sine));
    unsigned yBuffer = buffer("y", BufferShape::Halves, true);
    spec.outputs.push_back({OutputKind::Store, y1, yBuffer});
    Output second{OutputKind::Store, y2, yBuffer};
    second.half = 1;
    spec.outputs.push_back(second);
    break;
  }
  case BenchKind::SwiGlu: {
    // silu(a) * b = a / (1 + exp(-a)) * b.
    spec.computeType = ElemType::F32;
    unsigned a = leaf("a", BufferShape::Full), gate = leaf("b", BufferShape::Full);
    unsigned silu = binary(BinaryOp::Div, a,
                           binary(BinaryOp::Add, constant(1.0), unary(UnaryOp::Exp,
                                                                      unary(UnaryOp::Neg, a))));
    store(binary(BinaryOp::Mul, silu, gate));
    break;
  }
  case BenchKind::RowLoop: {
    // for r = pid to n_rows step tiles { for c = 0 to n_cols step block }.
    spec.distribution = Distribution::RowLoop;
    spec.innerBlock = kRowLoopBlock;
    spec.launchValues = true;
    unsigned x = leaf("x", BufferShape::Full), w = leaf("w", BufferShape::Full);
    store(binary(BinaryOp::Add, x, w));
    break;
  }
  }
  return spec;
}
