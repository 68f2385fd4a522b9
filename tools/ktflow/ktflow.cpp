//===- ktflow.cpp - the ktflow driver -------------------------------------===//
//
// `ktflow <subcommand> ...`. Subcommands register themselves (Command.h); this
// file parses the command line and dispatches to the one the user named.
// Linking libLLVM registers hundreds of LLVM's own options (--aarch64-...,
// --amdgpu-...) at the top level; none of them means anything to ktflow, so
// --help hides every top-level option outside ktflow's category and LLVM's
// generic ones (--help, --version). --version prints the project's version
// (CMake's project(VERSION)).
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace ktflow::tool;

namespace {
struct Entry {
  llvm::cl::SubCommand *sub;
  RunFn run;
};
std::vector<Entry> &registry() {
  static std::vector<Entry> entries;
  return entries;
}
} // namespace

llvm::cl::OptionCategory &ktflow::tool::inputCategory() {
  static llvm::cl::OptionCategory category("Input options");
  return category;
}
llvm::cl::OptionCategory &ktflow::tool::outputCategory() {
  static llvm::cl::OptionCategory category("Output options");
  return category;
}
llvm::cl::OptionCategory &ktflow::tool::scheduleCategory() {
  static llvm::cl::OptionCategory category("Schedule options");
  return category;
}
llvm::cl::OptionCategory &ktflow::tool::limitsCategory() {
  static llvm::cl::OptionCategory category("Testing and limit options");
  return category;
}

/// The overview `ktflow --help` prints above the subcommand list: the
/// subcommands by what a user wants to do, then a first command to try. A
/// subcommand's --help gets the first line only (LLVM prints the overview
/// there too).
static const char *const toolLine =
    "ktflow: compile KTIR kernels for scratchpad dataflow accelerators\n";
static const char *const overview =
    "ktflow: compile KTIR kernels for scratchpad dataflow accelerators\n"
    "\n"
    "  compile and check end to end: run, bench, fuzz\n"
    "  compile only:                 check, compile (schedule, plan, code), cost\n"
    "  execute:                      interp (reference), sim (device code)\n"
    "  device code text:             asm, disasm\n"
    "  architectures and kernels:    arch (show, check), gen (generate kernels)\n"
    "  first try: ktflow run examples/demo_fma_4096x1024_f16.mlir --arch spyre\n";

CommandRegistration::CommandRegistration(llvm::cl::SubCommand &sub, RunFn run) {
  registry().push_back({&sub, run});
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // Lets every parse of a user's file survive a crash inside MLIR's own
  // parsers (ktflow/Support/ParseGuard.h). A crash anywhere else still ends
  // the process with LLVM's stack dump: outside a recovery context the
  // handler gives the signal back to the handlers InitLLVM installed.
  llvm::CrashRecoveryContext::Enable();
  llvm::cl::HideUnrelatedOptions(
      {&inputCategory(), &outputCategory(), &scheduleCategory(), &limitsCategory()});
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "ktflow " KTFLOW_VERSION " (LLVM/MLIR " LLVM_VERSION_STRING ")\n";
  });
  bool subcommandNamed = argc > 1 && argv[1][0] != '-';
  llvm::cl::ParseCommandLineOptions(argc, argv, subcommandNamed ? toolLine : overview);
  for (Entry &entry : registry())
    if (*entry.sub)
      return entry.run();
  llvm::errs() << "ktflow: no subcommand given; see `ktflow --help`\n";
  return 2;
}
