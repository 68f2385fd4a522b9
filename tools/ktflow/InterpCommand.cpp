//===- InterpCommand.cpp - `ktflow interp KERNEL.mlir` --------------------===//
//
// Runs a KTIR kernel in the reference interpreter. Parses with an
// AsmParserState so that --arg can name arguments as written in the source,
// launches the kernel, prints a short summary and, with --out, writes every
// buffer as DIR/NAME.npy. With --arch the scratchpad is the description's
// (as in `ktflow run`); without, 2 MiB or --scratchpad-bytes. Exit status 1
// on any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/InitAll.h"
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Interp/Interpreter.h"
#include "ktflow/Run/RunKernel.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::SubCommand interpCmd("interp", "Run a KTIR kernel in the reference interpreter");
static cl::opt<std::string> interpInput(cl::Positional, cl::Required,
                                        cl::desc("<kernel.mlir>"), cl::sub(interpCmd));
static cl::opt<std::string> interpFunc("func", cl::desc("Kernel function to launch"),
                                       cl::value_desc("NAME"),
                                       cl::cat(ktflow::tool::inputCategory()), cl::sub(interpCmd));
static cl::list<std::string> interpArgs("arg",
                                        cl::desc("Bind an argument: NAME=FILE.npy or NAME=VALUE"),
                                        cl::value_desc("NAME=FILE.npy|NAME=VALUE"),
                                        cl::cat(ktflow::tool::inputCategory()), cl::sub(interpCmd));
static cl::opt<uint64_t> interpSeed("seed", cl::desc("Seed for random buffer contents"),
                                    cl::init(0), cl::cat(ktflow::tool::inputCategory()),
                                    cl::sub(interpCmd));
static cl::opt<std::string> interpOut("out", cl::desc("Write every buffer as DIR/NAME.npy"),
                                      cl::value_desc("DIR"),
                                      cl::cat(ktflow::tool::outputCategory()), cl::sub(interpCmd));
static cl::opt<int64_t>
    interpScratchpad("scratchpad-bytes",
                     cl::desc("Capacity of each tile's scratchpad without --arch "
                              "(default 2 MiB)"),
                     cl::init(2 << 20), cl::cat(ktflow::tool::limitsCategory()),
                     cl::sub(interpCmd));
static cl::opt<std::string>
    interpArch("arch",
               cl::desc("Architecture (name or file) whose ct_local memory is the "
                        "scratchpad: its usable bytes are the capacity"),
               cl::cat(ktflow::tool::inputCategory()), cl::sub(interpCmd));
static cl::list<int64_t>
    interpGrid("grid", cl::desc("Grid for a kernel without a 'grid' attribute"),
               cl::CommaSeparated, cl::cat(ktflow::tool::inputCategory()),
               cl::sub(interpCmd));
static cl::list<std::string>
    interpPrint("print", cl::desc("Print a buffer's values after the run"),
                cl::value_desc("NAME"), cl::cat(ktflow::tool::outputCategory()),
                cl::sub(interpCmd));
static cl::opt<bool>
    interpCheckRaces("check-races",
                     cl::desc("Report global bytes touched by two tiles when one writes"),
                     cl::cat(ktflow::tool::limitsCategory()), cl::sub(interpCmd));
static cl::opt<bool> interpQuiet("quiet", cl::desc("Do not print the summary"),
                                 cl::cat(ktflow::tool::outputCategory()), cl::sub(interpCmd));

static int runInterp() {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto file = mlir::openInputFile(interpInput, &error);
  if (!file) {
    llvm::errs() << "ktflow interp: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());

  mlir::AsmParserState asmState;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::parseKernelSource(sourceMgr, context, asmState, interpInput);
  if (!module)
    return 1;

  ktflow::interp::InterpOptions options;
  options.funcName = interpFunc;
  options.args.assign(interpArgs.begin(), interpArgs.end());
  options.seed = interpSeed;
  options.checkRaces = interpCheckRaces;
  if (interpScratchpad <= 0) {
    llvm::errs() << "ktflow interp: --scratchpad-bytes must be positive\n";
    return 1;
  }
  options.scratchpadCapacity = ktflow::Bytes(interpScratchpad);
  if (interpScratchpad.getNumOccurrences())
    options.scratchpadSource = "--scratchpad-bytes";
  if (!interpArch.empty()) {
    if (interpScratchpad.getNumOccurrences()) {
      llvm::errs() << "ktflow interp: give --arch or --scratchpad-bytes, not both\n";
      return 1;
    }
    std::shared_ptr<const ktflow::arch::ArchModel> model =
        ktflow::arch::ArchModel::load(context, interpArch, error);
    if (!model) {
      if (!error.empty())
        llvm::errs() << "ktflow interp: " << error << "\n";
      return 1;
    }
    ktflow::run::useDescriptionScratchpad(options, *model);
  }
  if (!interpGrid.empty())
    options.grid = std::vector<int64_t>(interpGrid.begin(), interpGrid.end());

  ktflow::interp::Interpreter interpreter(*module, options,
                                          ktflow::interp::collectSourceNames(asmState));
  if (mlir::failed(interpreter.run()))
    return 1;
  if (!interpOut.empty() && mlir::failed(interpreter.writeBuffers(interpOut)))
    return 1;
  if (!interpQuiet)
    interpreter.printSummary(llvm::outs());
  for (const std::string &name : interpPrint)
    if (mlir::failed(interpreter.printBuffer(name, llvm::outs())))
      return 1;
  return 0;
}

static ktflow::tool::CommandRegistration interpRegistration(interpCmd, runInterp);
