//===- ktflow.cpp - the ktflow driver -------------------------------------===//
//
// `ktflow <subcommand> ...`. Subcommands register themselves (Command.h); this
// file parses the command line and dispatches to the one the user named.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

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
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "ktflow: compile KTIR kernels for scratchpad dataflow accelerators\n");
  for (Entry &entry : registry())
    if (*entry.sub)
      return entry.run();
  llvm::errs() << "ktflow: no subcommand given; see `ktflow --help`\n";
  return 2;
}
