//===- Command.h - subcommand registry of the ktflow driver -----*- C++ -*-===//
//
// Each subcommand lives in its own file: it declares an llvm::cl::SubCommand
// with its options and registers a run function with a static Registration.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_TOOLS_KTFLOW_COMMAND_H
#define KTFLOW_TOOLS_KTFLOW_COMMAND_H

#include "llvm/Support/CommandLine.h"

namespace ktflow::tool {

using RunFn = int (*)();

/// Registers `run` as the body of subcommand `sub`. Used via a static
/// CommandRegistration in each subcommand file.
struct CommandRegistration {
  CommandRegistration(llvm::cl::SubCommand &sub, RunFn run);
};

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_COMMAND_H
