//===- RandomKernel.cpp - random kernels within the scheduler's coverage --===//
//
// Strategy: draw the decisions in dependency order — element types, rank and
// shape, grid, whether there is a reduction and over which dimension, then a
// work distribution that never splits the reduced dimension (a split would
// need a cross-tile combine or loop-carried values, both outside the
// coverage). The expression is grown node by node from the loaded leaves,
// preferring values not used yet so chains stay fused and every loaded value
// is consumed; leftovers are folded into the result at the end.
//
// Finiteness is tracked, not hoped for: each node carries a bound on its
// magnitude (inputs are assumed within kAssumedInputMagnitude). Any value
// whose bound exceeds kOperandBound is clamped before it can be used again,
// so a product never exceeds kOperandBound^2, well inside f16's range; a sum
// reduction clamps its input so that length * bound stays below f16's max.
// Division, exp and (with `math`) the roots, log and pow are safe by
// construction (KernelSpec.h).
//
// With `phases` the body is a chain of phases instead (runPhases): each
// phase grows element-wise ops from the values so far, and ends in a row
// reduction of a value that varies along the row; its per-row result may
// pass through per-row ops before later phases read it; the stored value
// combines the rows with the last per-row result.
//
// Sizes are drawn from four families — powers of two, multiples of 16,
// small odd sizes and arbitrary ones — so uneven splits, masked last tiles
// and fully masked tiles all occur.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/RandomKernel.h"

#include <algorithm>
#include <cmath>

using namespace ktflow;
using namespace ktflow::gen;

namespace {

/// splitmix64: tiny, fast, and the same sequence everywhere.
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed ^ 0x6b746c6f77ull) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n).
  uint64_t below(uint64_t n) { return n <= 1 ? 0 : next() % n; }
  /// Uniform in [lo, hi].
  int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo + 1))); }
  /// True with probability percent/100.
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T>
  const T &pick(const std::vector<T> &items) {
    return items[below(items.size())];
  }

private:
  uint64_t state;
};

constexpr double kOperandBound = 64.0;
constexpr double kClampTo = 16.0;
/// Sums are kept below this (f16's largest finite value is 65504).
constexpr double kSumBound = 30000.0;

class Generator {
public:
  Generator(uint64_t seed, const RandomKernelOptions &options)
      : rng(seed), options(options), seed(seed) {}
  KernelSpec run();

private:
  int64_t pickExtent(int64_t max);
  void pickGrid();
  unsigned addBuffer(const std::string &name, ElemType type, BufferShape shape, bool output);
  unsigned addNode(Node node, double bound);
  /// `count` full inputs in0, in1, ... of `storage`, as Load leaves.
  void addInputLeaves(unsigned count, ElemType storage);
  /// A broadcast operand buffer `name` of `shape`, as a Broadcast leaf.
  void addBroadcastLeaf(const char *name, BufferShape shape, ElemType storage);
  unsigned bounded(unsigned node);
  unsigned pickOperand();
  unsigned addUnary();
  unsigned addBinary();
  unsigned addFma();
  /// The loop forms of `options.loops`, drawn onto the finished kernel.
  void drawLoops();
  /// The multi-phase body of `options.phases`.
  KernelSpec runPhases();
  /// Whether node `i` varies along the row (reads a full or a row operand).
  bool variesAlongRow(unsigned i) const;

  Rng rng;
  RandomKernelOptions options;
  uint64_t seed;
  KernelSpec spec;
  std::vector<double> bounds;
  std::vector<bool> used;
};

int64_t Generator::pickExtent(int64_t max) {
  max = std::max<int64_t>(1, max);
  switch (rng.below(4)) {
  case 0: { // a power of two
    int64_t p = 1;
    int64_t choices = 0;
    while ((p << 1) <= max) {
      p <<= 1;
      ++choices;
    }
    return int64_t(1) << rng.range(0, choices);
  }
  case 1: // a multiple of 16
    return max < 16 ? max : 16 * rng.range(1, max / 16);
  case 2: // a small size, often odd
    return rng.range(1, std::min<int64_t>(max, 17));
  default:
    return rng.range(1, max);
  }
}

void Generator::pickGrid() {
  int64_t maxTiles = std::max<int64_t>(1, options.maxTiles);
  if (maxTiles >= 2 && rng.chance(35)) {
    int64_t gx = rng.range(1, maxTiles);
    int64_t gy = rng.range(1, maxTiles / gx);
    spec.grid = {gx, gy};
  } else {
    spec.grid = {rng.range(1, maxTiles)};
  }
}

unsigned Generator::addBuffer(const std::string &name, ElemType type, BufferShape shape,
                              bool output) {
  spec.buffers.push_back({name, type, shape, output});
  return spec.buffers.size() - 1;
}

unsigned Generator::addNode(Node node, double bound) {
  // Integer results wrap, which is defined: no bound to keep, no clamp.
  if (options.ints)
    bound = 1;
  for (unsigned op : node.operands)
    used[op] = true;
  spec.nodes.push_back(std::move(node));
  bounds.push_back(bound);
  used.push_back(false);
  return spec.nodes.size() - 1;
}

/// Clamps `node` when its bound is too large to be an operand.
void Generator::addInputLeaves(unsigned count, ElemType storage) {
  for (unsigned i = 0; i < count; ++i) {
    Node load{NodeKind::Load};
    load.buffer = addBuffer("in" + std::to_string(i), storage, BufferShape::Full, false);
    addNode(load, kAssumedInputMagnitude);
  }
}

void Generator::addBroadcastLeaf(const char *name, BufferShape shape, ElemType storage) {
  Node node{NodeKind::Broadcast};
  node.buffer = addBuffer(name, storage, shape, false);
  addNode(node, kAssumedInputMagnitude);
}

unsigned Generator::bounded(unsigned node) {
  if (bounds[node] <= kOperandBound)
    return node;
  Node clamp{NodeKind::Unary};
  clamp.unary = UnaryOp::Clamp;
  clamp.value = kClampTo;
  clamp.operands = {node};
  return addNode(clamp, kClampTo);
}

unsigned Generator::pickOperand() {
  std::vector<unsigned> fresh, all;
  for (unsigned i = 0; i < spec.nodes.size(); ++i) {
    if (bounds[i] > kOperandBound)
      continue; // superseded by its clamp
    all.push_back(i);
    if (!used[i])
      fresh.push_back(i);
  }
  // The newest value continues the chain; unused values get consumed.
  if (rng.chance(45) && bounds.back() <= kOperandBound)
    return spec.nodes.size() - 1;
  if (!fresh.empty() && rng.chance(70))
    return rng.pick(fresh);
  return rng.pick(all);
}

unsigned Generator::addUnary() {
  static const std::vector<UnaryOp> ops = {UnaryOp::Neg, UnaryOp::Abs, UnaryOp::Relu,
                                           UnaryOp::SafeExp};
  static const std::vector<UnaryOp> withMath = {
      UnaryOp::Neg,      UnaryOp::Abs,       UnaryOp::Relu,    UnaryOp::SafeExp,
      UnaryOp::SafeSqrt, UnaryOp::SafeRsqrt, UnaryOp::SafeLog, UnaryOp::Tanh,
      UnaryOp::Erf};
  static const std::vector<UnaryOp> integerOps = {UnaryOp::Neg, UnaryOp::Relu,
                                                  UnaryOp::Clamp};
  Node node{NodeKind::Unary};
  node.unary = rng.pick(options.ints ? integerOps : options.math ? withMath : ops);
  if (node.unary == UnaryOp::Clamp)
    node.value = double(rng.range(1, 1000));
  unsigned a = pickOperand();
  node.operands = {a};
  double bound = bounds[a];
  switch (node.unary) {
  case UnaryOp::SafeExp:
    bound = std::exp(2.0);
    break;
  case UnaryOp::SafeSqrt:
    bound = std::sqrt(bounds[a]);
    break;
  case UnaryOp::SafeLog:
    bound = std::log(bounds[a] + 1);
    break;
  case UnaryOp::SafeRsqrt:
  case UnaryOp::Tanh:
  case UnaryOp::Erf:
    bound = 1;
    break;
  default:
    break;
  }
  return addNode(node, bound);
}

unsigned Generator::addFma() {
  Node node{NodeKind::Fma};
  unsigned a = pickOperand(), b = pickOperand(), c = pickOperand();
  node.operands = {a, b, c};
  return bounded(addNode(node, bounds[a] * bounds[b] + bounds[c]));
}

unsigned Generator::addBinary() {
  static const std::vector<BinaryOp> ops = {BinaryOp::Add,     BinaryOp::Sub, BinaryOp::Mul,
                                            BinaryOp::SafeDiv, BinaryOp::Max, BinaryOp::Min};
  static const std::vector<BinaryOp> withMath = {
      BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul,     BinaryOp::SafeDiv,
      BinaryOp::Max, BinaryOp::Min, BinaryOp::SafePow, BinaryOp::Select};
  static const std::vector<BinaryOp> integerOps = {BinaryOp::Add, BinaryOp::Sub,
                                                   BinaryOp::Mul, BinaryOp::Max,
                                                   BinaryOp::Min, BinaryOp::Select};
  Node node{NodeKind::Binary};
  node.binary = rng.pick(options.ints ? integerOps : options.math ? withMath : ops);
  if (node.binary == BinaryOp::Select) {
    static const std::vector<std::string> predicates = {"olt", "ole", "ogt",
                                                        "oge", "oeq", "une"};
    static const std::vector<std::string> integerPredicates = {"slt", "sle", "sgt",
                                                               "sge", "eq",  "ne"};
    node.predicate = rng.pick(options.ints ? integerPredicates : predicates);
  }
  node.namedOp = !options.ints && rng.chance(20);
  unsigned a = pickOperand();
  unsigned b;
  if (rng.chance(15)) {
    Node constant{NodeKind::Constant};
    // Integer constants reach past 2^16, so products wrap at 32 bits.
    constant.value = options.ints ? double(rng.range(-100000, 100000))
                                  : double(rng.range(-16, 16)) / 4.0; // exact in f16
    b = addNode(constant, std::fabs(constant.value));
  } else {
    b = pickOperand();
    if (b == a) // one retry: `x op x` is legal but usually trivial
      b = pickOperand();
  }
  if (rng.chance(50))
    std::swap(a, b);
  node.operands = {a, b};
  double bound = 0;
  switch (node.binary) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
    bound = bounds[a] + bounds[b];
    break;
  case BinaryOp::Mul:
    bound = bounds[a] * bounds[b];
    break;
  case BinaryOp::SafeDiv:
  case BinaryOp::Div: // not drawn: the bench's kernels divide by row sums
    bound = bounds[a];
    break;
  case BinaryOp::Max:
  case BinaryOp::Min:
  case BinaryOp::Select:
    bound = std::max(bounds[a], bounds[b]);
    break;
  case BinaryOp::SafePow:
    bound = std::pow(bounds[a] + 1, 2.0);
    break;
  }
  return bounded(addNode(node, bound));
}

bool Generator::variesAlongRow(unsigned i) const {
  const Node &n = spec.nodes[i];
  if (n.kind == NodeKind::Load)
    return true;
  if (n.kind == NodeKind::Broadcast)
    return spec.buffers[n.buffer].shape == BufferShape::Row;
  if (n.kind == NodeKind::RowReduce)
    return false;
  return llvm::any_of(n.operands, [&](unsigned op) { return variesAlongRow(op); });
}

KernelSpec Generator::runPhases() {
  spec.name = "kernel_s" + std::to_string(seed);
  spec.origin = "--random --phases --seed " + std::to_string(seed) + " --max-tiles " +
                std::to_string(options.maxTiles) + (options.math ? " --math" : "");
  // f16 data, f32 statistics: the outputs are f16, whose composite
  // tolerance (ktir.md 7.3) is the one the comparison has for bodies of
  // phases. It assumes the statistics' reordering error is small next to
  // an f16 output; statistics computed in f16 (or f32 outputs) can cancel
  // a reordered sum's last bits into a difference the rule does not bound,
  // so they are not drawn.
  ElemType storage = ElemType::F16;
  spec.computeType = ElemType::F32;
  spec.rank = 2;
  spec.rows = pickExtent(options.maxRows);
  // Rows of whole 64-element vectors most of the time (the transformer
  // rows these bodies model; rows of partial vectors hit the lowering's
  // masked-vector limit on most descriptions).
  spec.cols = options.maxCols >= 64 && rng.chance(60) ? 64 * rng.range(1, options.maxCols / 64)
                                                      : pickExtent(options.maxCols);
  pickGrid();
  spec.reduceDim = 1;
  spec.distribution = rng.chance(75) ? Distribution::RowBlocks : Distribution::RowLoop;
  spec.hoistInvariantLoads = rng.chance(70);

  addInputLeaves(unsigned(rng.range(1, 2)), storage);
  auto addBroadcast = [&](const char *name, BufferShape shape) {
    addBroadcastLeaf(name, shape, storage);
  };
  if (rng.chance(30))
    addBroadcast("rowv", BufferShape::Row);
  if (rng.chance(15))
    addBroadcast("scal", BufferShape::Scalar);
  auto growOps = [&](unsigned count) {
    for (unsigned i = 0; i < count; ++i) {
      if (options.math && rng.chance(10))
        addFma();
      else if (rng.chance(60))
        addBinary();
      else
        addUnary();
    }
  };
  // A value of the row: the newest if it varies along the row, else
  // combined with the first input.
  auto rowValue = [&]() {
    unsigned last = bounded(spec.nodes.size() - 1);
    if (variesAlongRow(last))
      return last;
    Node add{NodeKind::Binary};
    add.binary = BinaryOp::Add;
    add.operands = {0, last};
    return bounded(addNode(add, bounds[0] + bounds[last]));
  };
  unsigned numPhases = unsigned(rng.range(1, 3));
  unsigned perRow = 0;
  for (unsigned phase = 0; phase < numPhases; ++phase) {
    growOps(unsigned(rng.range(0, std::max(1u, options.maxOps / 2))));
    unsigned input = rowValue();
    Node reduce{NodeKind::RowReduce};
    // Maxima and minima fold exactly in any order; sums only within the
    // tolerance, so they stay non-negative (below).
    reduce.binary = rng.chance(55)   ? BinaryOp::Add
                    : rng.chance(70) ? BinaryOp::Max
                                     : BinaryOp::Min;
    // Sums of non-negative terms, as the fused kernels sum (exponentials,
    // squares): a sum that cancels has no relative bound for the later
    // phases that read it.
    auto nonNegative = [&](unsigned i) {
      const Node &n = spec.nodes[i];
      return n.kind == NodeKind::Unary &&
             (n.unary == UnaryOp::Abs || n.unary == UnaryOp::Relu || n.unary == UnaryOp::SafeExp ||
              n.unary == UnaryOp::SafeSqrt || n.unary == UnaryOp::SafeRsqrt);
    };
    if (reduce.binary == BinaryOp::Add && !nonNegative(input)) {
      Node square{NodeKind::Binary};
      square.binary = BinaryOp::Mul;
      square.operands = {input, input};
      Node abs{NodeKind::Unary};
      abs.unary = UnaryOp::Abs;
      abs.operands = {input};
      input = rng.chance(50) ? bounded(addNode(square, bounds[input] * bounds[input]))
                             : addNode(abs, bounds[input]); // a clamped square stays >= 0
    }
    if (reduce.binary == BinaryOp::Add && bounds[input] * double(spec.cols) > kSumBound) {
      Node clamp{NodeKind::Unary};
      clamp.unary = UnaryOp::Clamp;
      clamp.value = std::max(1.0, std::floor(kSumBound / double(spec.cols)));
      clamp.operands = {input};
      input = addNode(clamp, clamp.value);
    }
    reduce.operands = {input};
    double bound = reduce.binary == BinaryOp::Add ? bounds[input] * double(spec.cols)
                                                  : bounds[input];
    perRow = bounded(addNode(reduce, bound));
    // A per-row chain: a mean, an epsilon, a root or an exponential of the
    // per-row value, each op reading only per-row values and constants.
    unsigned chain = unsigned(rng.range(0, 2));
    for (unsigned i = 0; i < chain; ++i) {
      Node op{NodeKind::Binary};
      switch (rng.below(4)) {
      case 0: { // a mean: divided by the row length
        Node length{NodeKind::Constant};
        length.value = double(spec.cols);
        unsigned c = addNode(length, length.value);
        op.binary = BinaryOp::Div;
        op.operands = {perRow, c};
        perRow = addNode(op, bounds[perRow] / double(spec.cols));
        break;
      }
      case 1: { // plus an epsilon
        Node eps{NodeKind::Constant};
        eps.value = 0.25;
        unsigned c = addNode(eps, eps.value);
        op.binary = BinaryOp::Add;
        op.operands = {perRow, c};
        perRow = bounded(addNode(op, bounds[perRow] + eps.value));
        break;
      }
      case 2: { // rsqrt(abs(v) + 1)
        Node root{NodeKind::Unary};
        root.unary = UnaryOp::SafeRsqrt;
        root.operands = {perRow};
        perRow = addNode(root, 1.0);
        break;
      }
      default: { // exp(min(v, 2))
        Node e{NodeKind::Unary};
        e.unary = UnaryOp::SafeExp;
        e.operands = {perRow};
        perRow = addNode(e, std::exp(2.0));
        break;
      }
      }
    }
    // The next phase reads the per-row value along the row.
    Node combine{NodeKind::Binary};
    static const std::vector<BinaryOp> combiners = {BinaryOp::Sub, BinaryOp::Mul,
                                                    BinaryOp::SafeDiv, BinaryOp::Add};
    combine.binary = rng.pick(combiners);
    unsigned row = rowValue();
    combine.operands = {row, perRow};
    double combinedBound = combine.binary == BinaryOp::Mul ? bounds[row] * bounds[perRow]
                           : combine.binary == BinaryOp::SafeDiv ? bounds[row]
                                                                 : bounds[row] + bounds[perRow];
    unsigned combined = bounded(addNode(combine, combinedBound));
    if (rng.chance(40)) {
      Node e{NodeKind::Unary};
      e.unary = options.math && rng.chance(50) ? UnaryOp::Tanh : UnaryOp::SafeExp;
      e.operands = {combined};
      addNode(e, e.unary == UnaryOp::Tanh ? 1.0 : std::exp(2.0));
    }
  }
  growOps(unsigned(rng.range(0, 2)));
  unsigned result = rowValue();
  // Every operand loaded is read: unused leaves are added in.
  for (unsigned i = 0; i < spec.nodes.size(); ++i) {
    NodeKind kind = spec.nodes[i].kind;
    if (used[i] || i == result || (kind != NodeKind::Load && kind != NodeKind::Broadcast))
      continue;
    Node add{NodeKind::Binary};
    add.binary = BinaryOp::Add;
    add.operands = {result, i};
    result = bounded(addNode(add, bounds[result] + bounds[i]));
  }
  unsigned out = addBuffer("out0", storage, BufferShape::Full, true);
  spec.outputs.push_back({OutputKind::Store, result, out});
  return std::move(spec);
}

KernelSpec Generator::run() {
  if (options.phases && !options.ints)
    return runPhases();
  spec.name = "kernel_s" + std::to_string(seed);
  spec.origin = "--random --seed " + std::to_string(seed) + " --max-tiles " +
                std::to_string(options.maxTiles) + (options.math ? " --math" : "") +
                (options.loops ? " --loops" : "");
  if (options.ints) {
    spec.origin = "--random --ints --seed " + std::to_string(seed) + " --max-tiles " +
                  std::to_string(options.maxTiles);
    options.math = options.loops = options.phases = false;
  }
  ElemType storage = rng.chance(60) ? ElemType::F16 : ElemType::F32;
  ElemType other = storage == ElemType::F16 ? ElemType::F32 : ElemType::F16;
  spec.computeType = rng.chance(75) ? storage : other;
  if (options.ints)
    storage = spec.computeType = ElemType::I32;

  spec.rank = rng.chance(80) ? 2 : 1;
  if (spec.rank == 2) {
    spec.rows = pickExtent(options.maxRows);
    spec.cols = pickExtent(options.maxCols);
  } else {
    spec.rows = 1;
    spec.cols = pickExtent(options.maxRows * 8);
  }
  pickGrid();

  // Reductions and the distribution that keeps the reduced dimension whole.
  bool reduce = spec.rank == 2 && rng.chance(40) && !options.ints;
  if (reduce) {
    spec.reduceDim = rng.chance(65) ? 1 : 0;
    if (spec.reduceDim == 1)
      spec.distribution = rng.chance(50) ? Distribution::RowBlocks : Distribution::RowLoop;
    else
      spec.distribution = Distribution::ColBlocks;
  } else if (spec.rank == 1) {
    spec.distribution = Distribution::RowBlocks;
  } else {
    std::vector<Distribution> choices = {Distribution::RowBlocks, Distribution::ColBlocks,
                                         Distribution::RowLoop};
    if (spec.grid.size() == 2)
      choices.insert(choices.end(), 3, Distribution::Blocks2D);
    spec.distribution = rng.pick(choices);
  }
  spec.hoistInvariantLoads = rng.chance(70);

  // Leaves: full inputs, then broadcast operands.
  addInputLeaves(unsigned(rng.range(1, 3)), storage);
  auto addBroadcast = [&](const char *name, BufferShape shape) {
    addBroadcastLeaf(name, shape, storage);
  };
  if (spec.rank == 2 && rng.chance(25))
    addBroadcast("rowv", BufferShape::Row);
  if (spec.rank == 2 && rng.chance(25))
    addBroadcast("colv", BufferShape::Column);
  if (rng.chance(20))
    addBroadcast("scal", BufferShape::Scalar);

  // The expression.
  unsigned numOps = rng.chance(10) ? 0 : unsigned(rng.range(1, std::max(1u, options.maxOps)));
  for (unsigned i = 0; i < numOps; ++i) {
    if (options.math && rng.chance(10))
      addFma();
    else if (rng.chance(65))
      addBinary();
    else
      addUnary();
  }
  unsigned result = bounded(spec.nodes.size() - 1);
  // Fold leftovers in, so nothing is loaded or computed for nothing.
  for (unsigned i = 0; i < spec.nodes.size(); ++i) {
    if (used[i] || i == result || bounds[i] > kOperandBound)
      continue;
    Node fold{NodeKind::Binary};
    fold.binary = rng.chance(50) ? BinaryOp::Add : BinaryOp::Max;
    fold.operands = {result, i};
    result = bounded(addNode(fold, fold.binary == BinaryOp::Add ? bounds[result] + bounds[i]
                                                                : std::max(bounds[result], bounds[i])));
  }

  // Outputs.
  if (reduce) {
    static const std::vector<OutputKind> kinds = {OutputKind::ReduceSum, OutputKind::ReduceMax,
                                                  OutputKind::ReduceMin};
    OutputKind kind = rng.pick(kinds);
    unsigned input = result;
    int64_t length = spec.reduceDim == 1 ? spec.cols : spec.rows;
    if (kind == OutputKind::ReduceSum && bounds[input] * double(length) > kSumBound) {
      Node clamp{NodeKind::Unary};
      clamp.unary = UnaryOp::Clamp;
      clamp.value = std::max(1.0, std::floor(kSumBound / double(length)));
      clamp.operands = {input};
      input = addNode(clamp, clamp.value);
    }
    unsigned buffer = addBuffer("red", spec.computeType,
                                spec.reduceDim == 1 ? BufferShape::Column : BufferShape::Row, true);
    spec.outputs.push_back({kind, input, buffer, rng.chance(40)});
    if (rng.chance(40)) {
      unsigned out = addBuffer("out0", storage, BufferShape::Full, true);
      spec.outputs.push_back({OutputKind::Store, result, out});
    }
  } else {
    unsigned out = addBuffer("out0", storage, BufferShape::Full, true);
    spec.outputs.push_back({OutputKind::Store, result, out});
    if (spec.nodes.size() > 1 && rng.chance(30)) {
      unsigned extra = unsigned(rng.below(spec.nodes.size() - 1));
      unsigned out1 = addBuffer("out1", storage, BufferShape::Full, true);
      spec.outputs.push_back({OutputKind::Store, extra, out1});
    }
  }
  if (options.loops)
    drawLoops();
  return std::move(spec);
}

void Generator::drawLoops() {
  // A stream of its own: the kernel drawn above is the seed's without loops.
  Rng loops(seed ^ 0x6c6f6f7073ull);
  spec.launchValues = loops.chance(70);
  if (spec.rank != 2)
    return;
  bool reduces = llvm::any_of(spec.outputs, [](const Output &o) { return o.kind != OutputKind::Store; });
  bool onlyReductions = llvm::all_of(spec.outputs, [](const Output &o) { return o.kind != OutputKind::Store; });
  bool fullOperands = llvm::none_of(spec.nodes, [](const Node &n) { return n.kind == NodeKind::Broadcast; });
  // A row loop over each tile's chunk, with the chunk's end clamped to the
  // rows (the last tiles run fewer iterations, or none).
  if (spec.distribution == Distribution::RowBlocks && (!reduces || spec.reduceDim == 1) &&
      loops.chance(35))
    spec.distribution = Distribution::ClampedRowLoop;
  if (!fullOperands || !loops.chance(60))
    return;
  bool rowLoop = spec.distribution == Distribution::RowLoop ||
                 spec.distribution == Distribution::ClampedRowLoop;
  // An inner loop: accumulating over the reduced dimension, or over column
  // blocks nested in a row loop.
  if (reduces ? !onlyReductions : !rowLoop)
    return;
  // Triton's per-row programs: one row per tile, its row sums carried as
  // scalars (below).
  if (reduces && spec.reduceDim == 1 && spec.distribution == Distribution::RowBlocks &&
      spec.tileRows() > 1 && loops.chance(25))
    spec.rows = spec.numTiles();
  int64_t extent = spec.walkedDim() == 0 ? spec.rows : spec.cols;
  // An accumulation's blocks end where the data does, or now and then pass
  // it: KTIR folds the masked points in as zeros (through the ops before
  // the reduction), which the schedule absorbs where that is a constant
  // the init can take, and diagnoses otherwise.
  bool overhang = reduces && loops.chance(30);
  std::vector<int64_t> blocks;
  for (int64_t b : {8, 16, 32, 64, 128})
    if (b < extent && (!reduces || overhang || extent % b == 0))
      blocks.push_back(b);
  if (blocks.empty())
    return;
  int64_t block = loops.pick(blocks);
  spec.innerBlock = block;
  // One-element reductions: carried as scalars most of the time.
  if (reduces && spec.reducedLength() == 1)
    spec.scalarAccumulator = loops.chance(70);
}

} // namespace

KernelSpec gen::randomKernel(uint64_t seed, const RandomKernelOptions &options) {
  return Generator(seed, options).run();
}
