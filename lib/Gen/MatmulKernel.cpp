//===- MatmulKernel.cpp - the benchmark suite's matmul kernels ------------===//
//
// Example 10's form at any size: grid tile (gm, gn) computes the output
// block C[bm * gm : +bm, bn * gn : +bn] over a K loop of kBlock-wide blocks
// whose iter_arg accumulates the f32 products; the result is cast to f16
// (or stored in f32) and stored. With an epilogue, example 20's form: the
// tile's 1 x bn slice of a row argument is loaded, extended to f32,
// collapsed and broadcast along M, and combined element-wise with the sums
// before the cast, all between the K loop and the store.
//
// The random matmuls of `ktflow fuzz --matmul` are this form at small
// sizes; the sizes are drawn from lists whose operand and result rows are
// whole accesses on the shipped descriptions (a row no access moves is a
// located error of the schedule, not a failure the fuzzer looks for).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Gen/MatmulKernel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace ktflow;

llvm::StringRef gen::matmulKindName(MatmulEpilogue epilogue) {
  switch (epilogue) {
  case MatmulEpilogue::None:
    return "matmul";
  case MatmulEpilogue::BiasGelu:
    return "matmul-bias-gelu";
  case MatmulEpilogue::SiluMul:
    return "matmul-silu-mul";
  case MatmulEpilogue::Random:
    return "matmul-random-epilogue";
  }
  return "matmul";
}

std::optional<gen::MatmulEpilogue> gen::parseMatmulKind(llvm::StringRef name) {
  for (MatmulEpilogue e : {MatmulEpilogue::None, MatmulEpilogue::BiasGelu, MatmulEpilogue::SiluMul})
    if (name == matmulKindName(e))
      return e;
  return std::nullopt;
}

std::array<int64_t, 2> gen::matmulGrid(int64_t tiles) {
  int64_t cols = 1;
  while (cols * cols * 2 <= tiles && tiles % (cols * 2) == 0)
    cols *= 2;
  return {tiles / cols, cols};
}

std::optional<std::string> gen::matmulProblem(const MatmulSpec &spec) {
  if (spec.m < 1 || spec.n < 1 || spec.k < 1 || spec.tiles < 1 || spec.kBlock < 1)
    return std::string("sizes, K block and grid must be positive");
  auto [gm, gn] = matmulGrid(spec.tiles);
  if (spec.m % gm || spec.n % gn)
    return llvm::formatv("a {0}x{1} grid of output blocks does not divide {2}x{3}", gm, gn,
                         spec.m, spec.n)
        .str();
  if (spec.k % spec.kBlock)
    return llvm::formatv("K = {0} is not a multiple of the K block {1}", spec.k, spec.kBlock)
        .str();
  return std::nullopt;
}

/// `v` in as few digits as read back exactly ("1.5", "-0.25").
static std::string shortest(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.17g", v);
  for (int digits = 1; digits <= 17; ++digits) {
    char candidate[32];
    std::snprintf(candidate, sizeof(candidate), "%.*g", digits, v);
    if (std::strtod(candidate, nullptr) == v)
      return llvm::StringRef(candidate).contains_insensitive("e") ||
                     llvm::StringRef(candidate).contains('.')
                 ? std::string(candidate)
                 : std::string(candidate) + ".0";
  }
  return text;
}

std::string gen::matmulCommand(const MatmulSpec &spec) {
  bool random = spec.epilogue == MatmulEpilogue::Random;
  std::string s = llvm::formatv("ktflow gen --kernel {0} --shape {1}x{2}x{3} --grid {4}",
                                matmulKindName(random ? MatmulEpilogue::None : spec.epilogue),
                                spec.m, spec.n, spec.k, spec.tiles)
                      .str();
  if (spec.kBlock != kMatmulKBlock)
    s += " --k-block " + std::to_string(spec.kBlock);
  if (spec.storeF32)
    s += " --dtype f32";
  if (spec.init != 0.0)
    s += " --init " + shortest(spec.init);
  if (random)
    s += ", and an epilogue of " + std::to_string(spec.steps.size()) + " random steps";
  return s;
}

/// `affine_set` of the box [0, rows) x [0, cols).
static std::string box(int64_t rows, int64_t cols) {
  return llvm::formatv("affine_set<(d0, d1) : (d0 >= 0, -d0 + {0} >= 0, d1 >= 0, -d1 + {1} >= 0)>",
                       rows - 1, cols - 1)
      .str();
}

/// The 1 x cols row set (d0 == 0).
static std::string rowSet(int64_t cols) {
  return llvm::formatv("affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + {0} >= 0)>", cols - 1)
      .str();
}

std::string gen::matmulKernel(const MatmulSpec &spec) {
  int64_t m = spec.m, n = spec.n, k = spec.k;
  auto [gm, gn] = matmulGrid(spec.tiles);
  int64_t bm = m / gm, bn = n / gn, bk = spec.kBlock;
  bool epilogue = spec.epilogue != MatmulEpilogue::None;
  llvm::StringRef outType = spec.storeF32 ? "f32" : "f16";
  const char *rowArg = spec.epilogue == MatmulEpilogue::SiluMul  ? "G"
                       : spec.epilogue == MatmulEpilogue::Random ? "R"
                                                                 : "bias";
  bool random = spec.epilogue == MatmulEpilogue::Random;
  // A random epilogue takes the row only where a step reads it.
  if (random)
    epilogue = llvm::any_of(spec.steps, [](const MatmulEpilogueStep &st) { return st.other == 'r'; });
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "// " << (spec.origin.empty() ? matmulCommand(spec) : spec.origin) << "\n";
  os << llvm::formatv("// C = {0}: f16 A {1}x{3}, B {3}x{2}, products summed in f32, C {4};\n"
                      "// grid {5}x{6} of {7}x{8} output blocks, K loop of {9}-wide blocks.\n",
                      spec.epilogue == MatmulEpilogue::BiasGelu  ? "gelu(A @ B + bias) (tanh form)"
                      : spec.epilogue == MatmulEpilogue::SiluMul ? "silu(A @ B) * G"
                      : random                                   ? "steps(A @ B) (a random epilogue)"
                                                                 : "A @ B",
                      m, n, k, outType, gm, gn, bm, bn, bk);
  if (epilogue)
    os << llvm::formatv("// {0}: f16 1x{1}, broadcast along M.\n", rowArg, n);
  os << "#lex = affine_map<(d0, d1) -> (d0, d1)>\n";
  os << "module {\n";
  std::string fn = matmulKindName(spec.epilogue).str();
  for (char &c : fn)
    if (c == '-')
      c = '_';
  os << llvm::formatv("  func.func @{0}_{1}x{2}x{3}(%A: index, %B: index, ", fn, m, n, k);
  if (epilogue)
    os << "%" << rowArg << ": index, ";
  os << llvm::formatv("%C: index) attributes {{grid = [{0}, {1}]} {{\n", gm, gn);
  os << "    %c0 = arith.constant 0 : index\n";
  os << llvm::formatv("    %cbm = arith.constant {0} : index\n", bm);
  os << llvm::formatv("    %cbn = arith.constant {0} : index\n", bn);
  os << llvm::formatv("    %cbk = arith.constant {0} : index\n", bk);
  os << llvm::formatv("    %ck = arith.constant {0} : index\n", k);
  os << "    %gm, %gn = ktdp.get_compute_tile_id : index, index\n";
  os << "    %i0 = arith.muli %gm, %cbm : index\n";
  os << "    %j0 = arith.muli %gn, %cbn : index\n";
  auto view = [&](const char *name, const char *arg, int64_t rows, int64_t cols,
                  llvm::StringRef type, const std::string &set) {
    os << llvm::formatv("    %{0} = ktdp.construct_memory_view %{1}, sizes: [{2}, {3}], strides: "
                        "[{3}, 1] {{\n"
                        "        coordinate_set = {4}, memory_space = "
                        "#ktdp.memory_space<global>\n"
                        "    } : memref<{2}x{3}x{5}>\n",
                        name, arg, rows, cols, set, type);
  };
  view("a_mem", "A", m, k, "f16", box(m, k));
  view("b_mem", "B", k, n, "f16", box(k, n));
  if (epilogue)
    view("r_mem", rowArg, 1, n, "f16", rowSet(n));
  view("c_mem", "C", m, n, outType, box(m, n));
  os << llvm::formatv("    %acc0 = arith.constant dense<{2}> : tensor<{0}x{1}xf32>\n", bm, bn,
                      spec.init == 0.0 ? std::string("0.0") : shortest(spec.init));
  os << llvm::formatv("    %acc = scf.for %k0 = %c0 to %ck step %cbk\n"
                      "        iter_args(%part = %acc0) -> (tensor<{0}x{1}xf32>) {{\n",
                      bm, bn);
  auto tile = [&](const char *name, const char *mem, const char *at, const std::string &set,
                  int64_t rows, int64_t cols, int64_t vr, int64_t vc, llvm::StringRef type,
                  llvm::StringRef indent) {
    os << llvm::formatv("{8}%{0} = ktdp.construct_access_tile %{1}[{2}] {{\n"
                        "{8}    access_tile_set = {3}, access_tile_order = #lex\n"
                        "{8}} : memref<{4}x{5}x{9}> -> !ktdp.access_tile<{6}x{7}xindex>\n",
                        name, mem, at, set, vr, vc, rows, cols, indent, type);
  };
  tile("a_at", "a_mem", "%i0, %k0", box(bm, bk), bm, bk, m, k, "f16", "      ");
  tile("b_at", "b_mem", "%k0, %j0", box(bk, bn), bk, bn, k, n, "f16", "      ");
  os << llvm::formatv("      %a_t = ktdp.load %a_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}xf16>\n",
                      bm, bk);
  os << llvm::formatv("      %b_t = ktdp.load %b_at : !ktdp.access_tile<{0}x{1}xindex> -> "
                      "tensor<{0}x{1}xf16>\n",
                      bk, bn);
  os << llvm::formatv("      %upd = linalg.matmul ins(%a_t, %b_t : tensor<{0}x{2}xf16>, "
                      "tensor<{2}x{1}xf16>)\n"
                      "                           outs(%part : tensor<{0}x{1}xf32>) -> "
                      "tensor<{0}x{1}xf32>\n"
                      "      scf.yield %upd : tensor<{0}x{1}xf32>\n"
                      "    }\n",
                      bm, bn, bk);
  std::string t = llvm::formatv("tensor<{0}x{1}xf32>", bm, bn).str();
  std::string result = "%acc";
  if (epilogue) {
    // The tile's slice of the row, broadcast over its bm rows.
    tile("r_at", "r_mem", "%c0, %j0", rowSet(bn), 1, bn, 1, n, "f16", "    ");
    os << llvm::formatv("    %r16 = ktdp.load %r_at : !ktdp.access_tile<1x{0}xindex> -> "
                        "tensor<1x{0}xf16>\n"
                        "    %r32 = arith.extf %r16 : tensor<1x{0}xf16> to tensor<1x{0}xf32>\n"
                        "    %r_row = tensor.collapse_shape %r32 [[0, 1]] : tensor<1x{0}xf32> "
                        "into tensor<{0}xf32>\n"
                        "    %r_init = tensor.empty() : {1}\n"
                        "    %r_full = linalg.broadcast ins(%r_row : tensor<{0}xf32>) "
                        "outs(%r_init : {1}) dimensions = [0]\n",
                        bn, t);
    auto line = [&](const char *text) { os << "    " << llvm::formatv(text, t) << "\n"; };
    if (random) {
      // The steps follow, below.
    } else if (spec.epilogue == MatmulEpilogue::BiasGelu) {
      line("%one = arith.constant dense<1.0> : {0}");
      line("%half = arith.constant dense<0.5> : {0}");
      line("%k1 = arith.constant dense<0.7978845608> : {0}");
      line("%k3 = arith.constant dense<0.044715> : {0}");
      line("%x = arith.addf %acc, %r_full : {0}");
      line("%x2 = arith.mulf %x, %x : {0}");
      line("%x3 = arith.mulf %x2, %x : {0}");
      line("%t0 = arith.mulf %k3, %x3 : {0}");
      line("%t1 = arith.addf %x, %t0 : {0}");
      line("%t2 = arith.mulf %k1, %t1 : {0}");
      line("%t3 = math.tanh %t2 : {0}");
      line("%t4 = arith.addf %one, %t3 : {0}");
      line("%t5 = arith.mulf %x, %t4 : {0}");
      line("%y = arith.mulf %half, %t5 : {0}");
    } else if (spec.epilogue == MatmulEpilogue::SiluMul) {
      // silu(h) = h / (1 + exp(-h)), as the swiglu bench kernel.
      line("%one = arith.constant dense<1.0> : {0}");
      line("%n = arith.negf %acc : {0}");
      line("%e = math.exp %n : {0}");
      line("%d = arith.addf %one, %e : {0}");
      line("%s = arith.divf %acc, %d : {0}");
      line("%y = arith.mulf %s, %r_full : {0}");
    }
    if (!random)
      result = "%y";
  }
  if (random) {
    std::string v = "%acc";
    for (size_t i = 0; i < spec.steps.size(); ++i) {
      const MatmulEpilogueStep &st = spec.steps[i];
      std::string out = "%e" + std::to_string(i);
      if (st.op == "round-f16") {
        os << llvm::formatv("    {0}h = arith.truncf {1} : {2} to tensor<{3}x{4}xf16>\n"
                            "    {0} = arith.extf {0}h : tensor<{3}x{4}xf16> to {2}\n",
                            out, v, t, bm, bn);
      } else if (st.op == "math.sqrt") {
        os << llvm::formatv("    {0}a = math.absf {1} : {2}\n"
                            "    {0} = math.sqrt {0}a : {2}\n",
                            out, v, t);
      } else if (!st.other) {
        os << llvm::formatv("    {0} = {1} {2} : {3}\n", out, st.op, v, t);
      } else {
        std::string other = st.other == 'a'   ? std::string("%acc")
                            : st.other == 'r' ? std::string("%r_full")
                            : st.other == 'v' ? v
                                              : out + "c";
        if (st.other == 'c')
          os << llvm::formatv("    {0}c = arith.constant dense<{1}> : {2}\n", out,
                              shortest(st.constant), t);
        os << llvm::formatv("    {0} = {1} {2}, {3} : {4}\n", out, st.op, v, other, t);
      }
      v = out;
    }
    result = v;
  }
  if (!spec.storeF32) {
    os << llvm::formatv("    %h = arith.truncf {2} : tensor<{0}x{1}xf32> to "
                        "tensor<{0}x{1}xf16>\n",
                        bm, bn, result);
    result = "%h";
  }
  tile("c_at", "c_mem", "%i0, %j0", box(bm, bn), bm, bn, m, n, outType, "    ");
  os << llvm::formatv("    ktdp.store {3}, %c_at : tensor<{0}x{1}x{2}>, "
                      "!ktdp.access_tile<{0}x{1}xindex>\n",
                      bm, bn, outType, result);
  os << "    return\n  }\n}\n";
  return s;
}

namespace {
/// splitmix64, as the random KernelSpec generator's (RandomKernel.cpp).
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed ^ 0x6d6d76656373ull) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n <= 1 ? 0 : next() % n; }
  template <typename T, size_t N>
  T pick(const T (&items)[N]) {
    return items[below(N)];
  }

private:
  uint64_t state;
};
} // namespace

/// One to five epilogue steps. The inputs are standard normal, so the sums
/// are about 4 sqrt(K) at most; a value's likely magnitude is tracked and
/// squashed (tanh, erf, a division) before it would pass f16's range, exp
/// takes only values of magnitude 8 or less, and nothing divides by a
/// value that can be zero.
static std::vector<gen::MatmulEpilogueStep> randomSteps(Rng &rng, const gen::MatmulSpec &spec) {
  using Step = gen::MatmulEpilogueStep;
  double sums = 4.0 * std::sqrt(double(spec.k)) + std::abs(spec.init), bound = sums;
  std::vector<Step> steps;
  int64_t count = 1 + int64_t(rng.below(5));
  const double constants[] = {0.5, -1.25, 3.0, 0.125};
  for (int64_t i = 0; i < count; ++i) {
    Step st;
    if (bound > 50) {
      const Step squash[] = {{"math.tanh"}, {"math.erf"}, {"arith.divf", 'c', 16.0}};
      st = rng.pick(squash);
      bound = st.op == "arith.divf" ? bound / 16 : 1;
      steps.push_back(st);
      continue;
    }
    switch (rng.below(12)) {
    case 0:
    case 1: {
      const char *ops[] = {"arith.addf", "arith.subf", "arith.maximumf", "arith.minimumf"};
      const char others[] = {'a', 'r', 'c', 'v'};
      st = {rng.pick(ops), rng.pick(others)};
      st.constant = rng.pick(constants);
      bound += st.other == 'a' ? sums : st.other == 'r' ? 4 : st.other == 'v' ? bound : 3;
      break;
    }
    case 2:
    case 3: {
      const char others[] = {'r', 'c', 'v', 'a'};
      st = {"arith.mulf", rng.pick(others)};
      st.constant = rng.pick(constants);
      bound *= st.other == 'r' ? 4 : st.other == 'c' ? 3 : st.other == 'v' ? bound : sums;
      break;
    }
    case 4: {
      const double divisors[] = {2.0, -4.0, 0.75};
      st = {"arith.divf", 'c', rng.pick(divisors)};
      bound /= 0.75;
      break;
    }
    case 5:
      st = {rng.below(2) ? "arith.negf" : "math.absf"};
      break;
    case 6:
      if (bound <= 8) {
        st = {"math.exp"};
        bound = std::exp(bound);
      } else {
        st = {"math.tanh"};
        bound = 1;
      }
      break;
    case 7:
      st = {"math.tanh"};
      bound = 1;
      break;
    case 8:
      st = {"math.erf"};
      bound = 1;
      break;
    case 9:
      st = {"math.sqrt"};
      bound = std::sqrt(bound);
      break;
    default:
      st = {"round-f16"};
      break;
    }
    steps.push_back(st);
  }
  return steps;
}

gen::MatmulSpec gen::randomMatmul(uint64_t seed, const RandomMatmulOptions &options) {
  Rng rng(seed);
  MatmulSpec spec;
  // Tiles: 1, 2, 4, ... up to the bound.
  int64_t tiles = 1;
  while (tiles * 2 <= options.maxTiles && rng.below(2))
    tiles *= 2;
  spec.tiles = tiles;
  auto [gm, gn] = matmulGrid(tiles);
  const MatmulEpilogue epilogues[] = {MatmulEpilogue::None, MatmulEpilogue::None,
                                      MatmulEpilogue::BiasGelu, MatmulEpilogue::SiluMul,
                                      MatmulEpilogue::Random, MatmulEpilogue::Random};
  spec.epilogue = rng.pick(epilogues);
  // Per grid tile: rows of whole 8-row blocks; columns and K blocks of
  // whole 128-byte rows (64 f16: spyre's stick, two of sample's and deep's
  // accesses), or 32 columns where two column tiles merge into such a row
  // (an even number of them); one to four K steps (one or two of 128).
  const int64_t rows[] = {8, 8, 16, 32};
  const int64_t cols[] = {32, 64, 64, 128};
  const int64_t kBlocks[] = {64, 64, 128};
  spec.m = rng.pick(rows) * gm;
  int64_t bn = rng.pick(cols);
  if (bn == 32 && gn % 2)
    bn = 64;
  spec.n = bn * gn;
  spec.kBlock = rng.pick(kBlocks);
  spec.k = spec.kBlock * int64_t(1 + rng.below(spec.kBlock == 128 ? 2 : 4));
  spec.storeF32 = rng.below(3) == 0;
  // The sums start from zero, or from a splat constant (C + A @ B).
  const double inits[] = {0.0, 0.0, 0.0, 1.5, -0.25};
  spec.init = rng.pick(inits);
  if (spec.epilogue == MatmulEpilogue::Random)
    spec.steps = randomSteps(rng, spec);
  spec.origin = "ktflow fuzz --matmul --seed " + std::to_string(seed) + " (" +
                matmulCommand(spec) + ")";
  return spec;
}

std::vector<gen::MatmulSpec> gen::shrinkMatmul(const MatmulSpec &spec) {
  std::vector<MatmulSpec> out;
  auto add = [&](MatmulSpec s) {
    s.origin = matmulCommand(s) + ", reduced from " + matmulCommand(spec);
    if (!matmulProblem(s))
      out.push_back(std::move(s));
  };
  if (spec.tiles > 1) {
    // Half the tiles over the part of C they computed.
    auto [gm, gn] = matmulGrid(spec.tiles);
    auto [hm, hn] = matmulGrid(spec.tiles / 2);
    MatmulSpec s = spec;
    s.tiles /= 2;
    s.m = spec.m / gm * hm;
    s.n = spec.n / gn * hn;
    add(s);
  }
  if (spec.epilogue != MatmulEpilogue::None) {
    MatmulSpec s = spec;
    s.epilogue = MatmulEpilogue::None;
    s.steps.clear();
    add(s);
  }
  // A random epilogue without one of its steps (the first step that reads
  // the value it replaces still reads a value).
  for (size_t i = 0; spec.steps.size() > 1 && i < spec.steps.size(); ++i) {
    MatmulSpec s = spec;
    s.steps.erase(s.steps.begin() + i);
    add(s);
  }
  if (spec.k > spec.kBlock) {
    MatmulSpec s = spec;
    s.k -= spec.kBlock;
    add(s);
  }
  if (spec.storeF32) {
    MatmulSpec s = spec;
    s.storeF32 = false;
    add(s);
  }
  if (spec.init != 0.0) {
    MatmulSpec s = spec;
    s.init = 0.0;
    add(s);
  }
  auto [gm, gn] = matmulGrid(spec.tiles);
  if (spec.m / gm > 8 && (spec.m / 2) % gm == 0) {
    MatmulSpec s = spec;
    s.m /= 2;
    add(s);
  }
  if (spec.n / gn > 32 && (spec.n / 2) % gn == 0) {
    MatmulSpec s = spec;
    s.n /= 2;
    add(s);
  }
  return out;
}
