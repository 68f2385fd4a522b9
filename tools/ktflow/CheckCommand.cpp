//===- CheckCommand.cpp - `ktflow check KERNEL.mlir` ----------------------===//
//
// Parses and verifies a KTIR file; diagnostics go to stderr with locations,
// and the exit status is 1 on any error.
//
//===----------------------------------------------------------------------===//
#include "Command.h"
#include "KernelSource.h"

#include "ktflow/InitAll.h"
#include "ktflow/KTDP/KTDPOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Diagnostics.h"

namespace cl = llvm::cl;

static cl::SubCommand checkCmd("check", "Parse and verify a KTIR kernel");
static cl::opt<std::string> checkInput(cl::Positional, cl::Required,
                                       cl::desc("<kernel.mlir>"),
                                       cl::sub(checkCmd));
static cl::opt<bool> checkPrint("print",
                                cl::desc("Print the verified module"),
                                cl::sub(checkCmd));

static int runCheck() {
  mlir::DialectRegistry registry;
  ktflow::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  // The diagnostic's own location and text say what is wrong; the generic
  // dump of the offending op would only repeat it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ktflow::tool::openKernelSource(sourceMgr, context, checkInput, "check");
  if (!module)
    return 1;
  // The op verifiers read `grid` where they need it; a malformed grid on a
  // kernel with no such op is still an error of the kernel.
  bool gridOk = true;
  module->walk([&](mlir::FunctionOpInterface func) {
    gridOk &= mlir::succeeded(ktflow::ktdp::verifyKernelGrid(func));
  });
  if (!gridOk)
    return 1;
  if (checkPrint)
    module->print(llvm::outs());
  else
    llvm::outs() << checkInput << ": ok\n";
  return 0;
}

static ktflow::tool::CommandRegistration checkRegistration(checkCmd, runCheck);
