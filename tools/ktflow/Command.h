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

/// The groups a subcommand's --help lists its options in (LLVM prints the
/// categories by name; LLVM's own options are hidden, see ktflow.cpp).
llvm::cl::OptionCategory &inputCategory();    ///< kernel, architecture, bindings
llvm::cl::OptionCategory &outputCategory();   ///< files written, what is printed
llvm::cl::OptionCategory &scheduleCategory(); ///< scheduling decisions, plans
llvm::cl::OptionCategory &limitsCategory();   ///< checks, limits, testing aids

/// Registers `run` as the body of subcommand `sub`. Used via a static
/// CommandRegistration in each subcommand file.
struct CommandRegistration {
  CommandRegistration(llvm::cl::SubCommand &sub, RunFn run);
};

/// `ktflow cost eval` (CostEvalCommand.cpp): the cost model's error against
/// the simulator over a suite of kernels and random plans; `archs` is a
/// comma-separated list of descriptions (default spyre,sample); `filter`, a
/// regular expression, keeps the kernels whose name it matches.
int runCostEval(llvm::StringRef archs, unsigned plans, uint64_t seed, llvm::StringRef csvPath,
                llvm::StringRef filter);

} // namespace ktflow::tool

#endif // KTFLOW_TOOLS_KTFLOW_COMMAND_H
