//===- GenCommand.cpp - `ktflow gen --random | --kernel KIND` -------------===//
//
// Writes a generated KTIR kernel: a random one drawn from a seed (for
// differential testing and fuzzing) or one of the benchmark suite's kernels.
// `--count N` draws seeds S..S+N-1 in one process (into a directory, or
// concatenated on stdout), and `--verify` parses and verifies each kernel
// in-process exactly as `ktflow check` does, so a test can check hundreds of
// kernels without paying a process start per kernel. Bad option values and
// rejected kernels are reported on stderr with exit status 1.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/Gen/BenchKernel.h"
#include "ktflow/Gen/MatmulKernel.h"
#include "ktflow/Gen/GatherKernel.h"
#include "ktflow/Gen/TransposeKernel.h"
#include "ktflow/Gen/KernelPrinter.h"
#include "ktflow/Gen/RandomKernel.h"
#include "ktflow/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;
using namespace ktflow::gen;

static cl::SubCommand genCmd("gen", "Generate a KTIR kernel (random or benchmark)");
static cl::opt<bool> genRandom("random", cl::desc("Generate a random kernel from --seed"),
                               cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<uint64_t> genSeed("seed", cl::desc("Seed of the random kernel"), cl::init(0),
                                 cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<int64_t> genMaxTiles("max-tiles",
                                    cl::desc("Largest grid (number of tiles) of a random kernel"),
                                    cl::init(RandomKernelOptions().maxTiles),
                                    cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<bool> genMath("math",
                             cl::desc("Let a random kernel use the math ops too (sqrt, rsqrt, "
                                      "log, tanh, erf, pow, fma, cmpf + select)"),
                             cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<bool> genLoops("loops",
                              cl::desc("Let a random kernel take launch values and grow loops "
                                       "(inner accumulating or nested loops, clamped bounds)"),
                              cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<bool> genPhases("phases",
                               cl::desc("Let a random kernel be a fused multi-phase body (row "
                                        "reductions feeding later phases, per-row chains, "
                                        "transcendental ops, f16 data with f32 statistics)"),
                               cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<bool> genInts("ints",
                             cl::desc("Let a random kernel compute on i32 data (wrapping add, "
                                      "sub, mul, max, min, signed cmpi + select; no reductions)"),
                             cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<std::string>
    genKernel("kernel",
              cl::desc("Benchmark kernel: add, mul, fma, relu, "
                       "bcast-row, bcast-col, bcast-scalar, rowsum, rowmax, colsum, rowloop, softmax, "
                       "layernorm, rmsnorm, rope, swiglu, fill, matmul, matmul-bias-gelu, "
                       "matmul-silu-mul (--shape MxNxK), transpose, "
                       "gather (--shape NxD: N rows of D from an N x D table), scatter (--shape "
                       "NxD: N rows of D into an N x D table), scatter-add (--shape NxD: N rows "
                       "of D added into the N x D table's rows)"),
              cl::value_desc("KIND"), cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<std::string> genShape("shape", cl::desc("Benchmark tensor shape ROWSxCOLS"),
                                     cl::value_desc("RxC"), cl::init("64x256"),
                                     cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<std::string> genDtype("dtype", cl::desc("Benchmark element type: f16 or f32"),
                                     cl::init("f16"), cl::cat(ktflow::tool::inputCategory()),
                                     cl::sub(genCmd));
static cl::opt<int64_t> genGrid("grid", cl::desc("Benchmark grid (number of tiles)"), cl::init(1),
                                cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<int64_t> genKBlock("k-block",
                                  cl::desc("The K extent of one loop iteration of a matmul "
                                           "kernel (default 64)"),
                                  cl::init(kMatmulKBlock), cl::cat(ktflow::tool::inputCategory()),
                                  cl::sub(genCmd));
static cl::opt<double> genInit("init",
                              cl::desc("The accumulator's initial value of a matmul kernel "
                                       "(default 0)"),
                              cl::init(0.0), cl::cat(ktflow::tool::inputCategory()),
                              cl::sub(genCmd));
static cl::opt<bool> genMatmul("matmul",
                               cl::desc("With --random: a random matmul (small M, N, K, K "
                                        "loops, epilogues), as `ktflow fuzz --matmul` draws"),
                               cl::cat(ktflow::tool::inputCategory()), cl::sub(genCmd));
static cl::opt<unsigned> genCount("count",
                                  cl::desc("Random kernels of seeds S..S+N-1; with -o DIR, "
                                           "one file DIR/seed-S.mlir each"),
                                  cl::init(1), cl::cat(ktflow::tool::outputCategory()),
                                  cl::sub(genCmd));
static cl::opt<bool> genVerify("verify",
                               cl::desc("Parse and verify each kernel as `ktflow check` does"),
                               cl::cat(ktflow::tool::limitsCategory()), cl::sub(genCmd));
static cl::opt<std::string> genOutput("o",
                                      cl::desc("Output file, or directory with --count "
                                               "(default: stdout)"),
                                      cl::value_desc("FILE|DIR"), cl::init("-"),
                                      cl::cat(ktflow::tool::outputCategory()), cl::sub(genCmd));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "ktflow gen: " << message << "\n";
  return 1;
}

/// Parses and verifies `text` (named `name` in diagnostics); diagnostics go
/// to stderr with locations in the generated text.
static bool verifyKernel(mlir::MLIRContext &context, const std::string &text,
                         llvm::StringRef name) {
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
  return static_cast<bool>(ktflow::tool::parseKernelSource(sourceMgr, context, name));
}

static int writeText(const std::string &path, const std::string &text) {
  std::string error;
  auto output = mlir::openOutputFile(path, &error);
  if (!output)
    return fail(error);
  output->os() << text;
  output->keep();
  return 0;
}

/// A generated kernel's text, verified on request, written to --output.
static int writeKernel(const std::string &text) {
  if (genVerify) {
    mlir::DialectRegistry registry;
    ktflow::registerAllDialects(registry);
    mlir::MLIRContext context(registry);
    if (!verifyKernel(context, text, genOutput == "-" ? "<generated>" : genOutput.getValue()))
      return fail("the generated kernel does not verify");
  }
  return writeText(genOutput, text);
}

/// A matmul kernel's text, verified on request.
static int writeMatmul(const MatmulSpec &mm) { return writeKernel(matmulKernel(mm)); }

/// `--random --count N`: seeds S..S+N-1, each verified on request.
static int runRandomSeeds(const RandomKernelOptions &options) {
  RandomMatmulOptions matmulOptions;
  matmulOptions.maxTiles = options.maxTiles;
  bool toDirectory = genOutput != "-";
  if (toDirectory)
    if (std::error_code ec = llvm::sys::fs::create_directories(genOutput))
      return fail("cannot create directory '" + genOutput + "': " + ec.message());
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  std::string all;
  unsigned failures = 0;
  for (uint64_t seed = genSeed; seed < genSeed + genCount; ++seed) {
    std::string text;
    if (genMatmul) {
      MatmulSpec mm = randomMatmul(seed, matmulOptions);
      if (std::optional<std::string> problem = matmulProblem(mm))
        return fail("internal error: seed " + std::to_string(seed) +
                    " gave an invalid matmul: " + *problem);
      text = matmulKernel(mm);
    } else {
      KernelSpec spec = randomKernel(seed, options);
      if (std::optional<std::string> problem = spec.validate())
        return fail("internal error: seed " + std::to_string(seed) +
                    " gave an invalid kernel spec: " + *problem);
      text = printKernel(spec);
    }
    std::string name = "seed-" + std::to_string(seed) + ".mlir";
    llvm::SmallString<256> path(genOutput.getValue());
    llvm::sys::path::append(path, name);
    if (genVerify && !verifyKernel(context, text, toDirectory ? path.str() : name)) {
      llvm::errs() << "ktflow gen: seed " << seed << " generated a kernel that does not verify\n";
      ++failures;
    }
    if (!toDirectory)
      all += text;
    else if (writeText(std::string(path), text))
      return 1;
  }
  if (!toDirectory && writeText("-", all))
    return 1;
  return failures ? 1 : 0;
}

static int runGen() {
  if (genRandom == !genKernel.empty())
    return fail("give exactly one of --random and --kernel KIND");
  if (genCount < 1)
    return fail("--count must be at least 1");
  if (genCount > 1 && !genRandom)
    return fail("--count applies to --random only");
  KernelSpec spec;
  if (genRandom) {
    if (genMaxTiles < 1)
      return fail("--max-tiles must be at least 1");
    RandomKernelOptions options;
    options.maxTiles = genMaxTiles;
    options.math = genMath;
    options.loops = genLoops;
    options.phases = genPhases;
    options.ints = genInts;
    if (genMatmul && (genMath || genLoops || genPhases || genInts))
      return fail("--matmul excludes --math, --loops, --phases and --ints");
    if (genMatmul && genCount == 1) {
      RandomMatmulOptions matmulOptions;
      matmulOptions.maxTiles = genMaxTiles;
      return writeMatmul(randomMatmul(genSeed, matmulOptions));
    }
    if (genCount > 1)
      return runRandomSeeds(options);
    spec = randomKernel(genSeed, options);
  } else if (std::optional<MatmulEpilogue> epilogue = parseMatmulKind(genKernel)) {
    // Example 10's form, or 20's with an epilogue (MatmulKernel.h):
    // --shape MxNxK, f16 operands and f32 sums from --init, the result f16
    // or f32.
    MatmulSpec mm;
    mm.epilogue = *epilogue;
    if (genDtype == "f32")
      mm.storeF32 = true;
    else if (genDtype != "f16")
      return fail("--kernel " + genKernel +
                  " has f16 operands (products summed in f32) and an f16 or f32 result, got "
                  "--dtype " + genDtype);
    mm.init = genInit;
    llvm::SmallVector<llvm::StringRef, 3> parts;
    llvm::StringRef(genShape).split(parts, 'x');
    if (parts.size() != 3 || parts[0].getAsInteger(10, mm.m) ||
        parts[1].getAsInteger(10, mm.n) || parts[2].getAsInteger(10, mm.k))
      return fail("--kernel " + genKernel + " takes --shape MxNxK, got '" + genShape + "'");
    mm.tiles = genGrid;
    mm.kBlock = genKBlock;
    if (std::optional<std::string> problem = matmulProblem(mm))
      return fail("--kernel " + genKernel + ": " + *problem);
    return writeMatmul(mm);
  } else if (genKernel == "gather" || genKernel == "scatter" || genKernel == "scatter-add") {
    // Example 16's form and its inverse (GatherKernel.h): --shape NxD, f16
    // or f32.
    if (genDtype != "f16" && genDtype != "f32")
      return fail("--kernel " + genKernel + " is f16 or f32, got --dtype " + genDtype);
    auto [rowsText, colsText] = llvm::StringRef(genShape).split('x');
    int64_t n = 0, d = 0;
    if (rowsText.getAsInteger(10, n) || colsText.getAsInteger(10, d))
      return fail("--kernel " + genKernel + " takes --shape NxD, got '" + genShape + "'");
    if (std::optional<std::string> problem = gatherProblem(n, d, genGrid))
      return fail("--kernel " + genKernel + ": " + *problem);
    std::string text = genKernel == "gather"    ? gatherKernel(n, d, genDtype, genGrid)
                       : genKernel == "scatter" ? scatterKernel(n, d, genDtype, genGrid)
                                                : scatterAddKernel(n, d, genDtype, genGrid);
    return writeKernel(text);
  } else if (genKernel == "transpose") {
    // Example 14's form (TransposeKernel.h): --shape MxN, f16 or f32.
    if (genDtype != "f16" && genDtype != "f32")
      return fail("--kernel transpose is f16 or f32, got --dtype " + genDtype);
    auto [rowsText, colsText] = llvm::StringRef(genShape).split('x');
    int64_t m = 0, n = 0;
    if (rowsText.getAsInteger(10, m) || colsText.getAsInteger(10, n))
      return fail("--kernel transpose takes --shape MxN, got '" + genShape + "'");
    if (std::optional<std::string> problem = transposeProblem(m, n, genGrid))
      return fail("--kernel transpose: " + *problem);
    std::string text = transposeKernel(m, n, genDtype, genGrid);
    return writeKernel(text);
  } else {
    std::optional<BenchKind> kind = parseBenchKind(genKernel);
    if (!kind)
      return fail("unknown kernel '" + genKernel + "'");
    std::optional<ElemType> type = parseElemType(genDtype);
    if (!type)
      return fail("unknown --dtype '" + genDtype + "' (expected f16 or f32)");
    auto [rowsText, colsText] = llvm::StringRef(genShape).split('x');
    int64_t rows = 0, cols = 0;
    if (rowsText.getAsInteger(10, rows) || colsText.getAsInteger(10, cols) || rows < 1 ||
        cols < 1)
      return fail("--shape must be ROWSxCOLS with positive sizes, got '" + genShape + "'");
    if (genGrid < 1)
      return fail("--grid must be at least 1");
    if (*kind == BenchKind::Rope && cols % 2 != 0)
      return fail("--kernel rope rotates the halves of its rows: --shape needs an even row "
                  "length, got " + std::to_string(cols));
    spec = benchKernel(*kind, rows, cols, *type, genGrid);
  }
  if (std::optional<std::string> problem = spec.validate())
    return fail("internal error: generated an invalid kernel spec: " + *problem);

  std::string text = printKernel(spec);
  return writeKernel(text);
}

static ktflow::tool::CommandRegistration genRegistration(genCmd, runGen);
