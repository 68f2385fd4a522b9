//===- SimCommand.cpp - `ktflow sim K.kbin --arch A` ----------------------===//
//
// Simulates saved or hand-written device code (a .kbin bundle, or its text
// form) on an architecture description: binds input symbols to .npy files
// (--arg NAME=FILE.npy, the conventions of `ktflow interp`), fills every
// other symbol with the interpreter's seeded random contents (--seed), runs the
// static checks (capacity, deadlock) unless --no-check, simulates, prints
// the report, writes every output symbol as DIR/NAME.npy with --out and a
// Chrome trace with --trace. --max-instructions / --max-cycles bound a run
// (sim::SimLimits), so code that loops practically forever stops with an
// error. Exit status 1 on any error, deadlock or run past a limit.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "ktflow/Arch/ArchModel.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "ktflow/InitAll.h"
#include "ktflow/Interp/Npy.h"
#include "ktflow/Interp/RandomContents.h"
#include "ktflow/Interp/Value.h"
#include "ktflow/Run/LaunchValues.h"
#include "ktflow/Run/SymbolFiles.h"
#include "ktflow/Sim/Simulator.h"
#include "ktflow/Sim/StaticChecks.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ktflow;
namespace cl = llvm::cl;

static cl::SubCommand simCmd("sim", "Simulate device code on an architecture");
static cl::opt<std::string> simInput(cl::Positional, cl::Required,
                                     cl::desc("<bundle.kbin|code.kasm>"), cl::sub(simCmd));
static cl::opt<std::string> simArch("arch", cl::Required,
                                    cl::desc("Architecture description (name or file)"),
                                    cl::value_desc("NAME|FILE"),
                                    cl::cat(ktflow::tool::inputCategory()), cl::sub(simCmd));
static cl::list<std::string> simArgs("arg",
                                     cl::desc("Bind an input symbol: NAME=FILE.npy; or check a "
                                              "launch value: NAME=VALUE must be the one the "
                                              "code was compiled for"),
                                     cl::value_desc("NAME=FILE.npy|NAME=VALUE"),
                                     cl::cat(ktflow::tool::inputCategory()), cl::sub(simCmd));
static cl::opt<uint64_t> simSeed("seed",
                                 cl::desc("Seed for the contents of symbols no --arg binds "
                                          "(the values of `ktflow interp --seed`)"),
                                 cl::init(0), cl::value_desc("N"),
                                 cl::cat(ktflow::tool::inputCategory()), cl::sub(simCmd));
static cl::opt<std::string> simOut("out", cl::desc("Write every output symbol as DIR/NAME.npy"),
                                   cl::value_desc("DIR"), cl::cat(ktflow::tool::outputCategory()),
                                   cl::sub(simCmd));
static cl::opt<std::string> simTrace("trace", cl::desc("Write a Chrome trace JSON"),
                                     cl::value_desc("FILE"),
                                     cl::cat(ktflow::tool::outputCategory()), cl::sub(simCmd));
static cl::opt<uint64_t> simMaxInstructions(
    "max-instructions",
    cl::desc("Stop with an error after N instructions, all units together (0: no limit)"),
    cl::init(sim::SimLimits().maxInstructions), cl::value_desc("N"),
    cl::cat(ktflow::tool::limitsCategory()), cl::sub(simCmd));
static cl::opt<uint64_t>
    simMaxCycles("max-cycles", cl::desc("Stop with an error past N simulated cycles (0: no limit)"),
                 cl::init(uint64_t(sim::SimLimits().maxCycles.count())), cl::value_desc("N"),
                 cl::cat(ktflow::tool::limitsCategory()), cl::sub(simCmd));
static cl::opt<bool> simNoCheck("no-check",
                                cl::desc("Skip the static capacity and deadlock checks"),
                                cl::cat(ktflow::tool::limitsCategory()), cl::sub(simCmd));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "ktflow sim: " << message << "\n";
  return 1;
}

/// The kernel argument a symbol stands for: the lowering names the symbol
/// of argument N `argN` (lib/Lower, symbolOf).
static std::optional<unsigned> argumentIndex(llvm::StringRef name) {
  unsigned index;
  if (!name.consume_front("arg") || name.getAsInteger(10, index))
    return std::nullopt;
  return index;
}

/// Gives every symbol no --arg bound the contents the interpreter gives an
/// unbound buffer: one RandomContents stream for the launch, drawn in
/// kernel-argument order, outputs included (the interpreter fills output
/// buffers too, so they consume the stream and elements a kernel leaves
/// unwritten keep the same values). Symbols that are not `argN` follow, in
/// bundle order.
static llvm::Error fillUnbound(mlir::MLIRContext &context, const dc::Bundle &bundle,
                               sim::SymbolData &inputs) {
  std::vector<const dc::Symbol *> unbound;
  for (const dc::Symbol &s : bundle.symbols)
    if (!inputs.count(s.name))
      unbound.push_back(&s);
  std::stable_sort(unbound.begin(), unbound.end(), [](const dc::Symbol *a, const dc::Symbol *b) {
    std::optional<unsigned> x = argumentIndex(a->name), y = argumentIndex(b->name);
    return x && (!y || *x < *y);
  });
  interp::RandomContents rng(simSeed);
  for (const dc::Symbol *s : unbound) {
    std::optional<interp::ElemKind> kind = run::symbolKind(context, s->elementType);
    if (!kind)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "symbol $" + s->name + " has element type '" + s->elementType +
                                         "', which has no random contents: pass --arg " + s->name +
                                         "=FILE.npy");
    int64_t elements = s->size.count() / interp::elementSize(*kind).bytes.count();
    std::vector<uint8_t> data(s->size.count(), 0);
    rng.fill(*kind, elements, data.data());
    llvm::errs() << "ktflow sim: filled $" << s->name << " (" << s->elementType << ", " << elements
                 << " elements) from seed " << simSeed << "\n";
    inputs[s->name] = std::move(data);
  }
  return llvm::Error::success();
}

static int runSim() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  std::shared_ptr<const arch::ArchModel> model = arch::ArchModel::load(context, simArch, error);
  if (!model)
    return error.empty() ? 1 : failWith(error);

  llvm::Expected<dc::Bundle> bundle = dc::loadBundleFile(simInput);
  if (!bundle)
    return failWith(llvm::toString(bundle.takeError()));

  if (!bundle->device.empty() && bundle->device != model->name())
    llvm::errs() << "ktflow sim: warning: " << simInput << " was built for '"
                 << bundle->device << "', simulating on '" << model->name() << "'\n";

  sim::SymbolData inputs;
  for (const std::string &arg : simArgs) {
    auto [nameRef, fileRef] = llvm::StringRef(arg).split('=');
    llvm::StringRef name = nameRef, file = fileRef;
    if (const dc::LaunchValue *launch = run::findLaunchValue(*bundle, name)) {
      if (llvm::Error e = run::checkLaunchValue(*launch, file))
        return failWith(llvm::toString(std::move(e)));
      continue;
    }
    auto symbol = llvm::find_if(bundle->symbols,
                                [&](const dc::Symbol &s) { return s.name == name; });
    if (file.empty() || symbol == bundle->symbols.end())
      return failWith("--arg " + arg + ": expected NAME=FILE.npy naming a symbol of " +
                      simInput + ", or NAME=VALUE naming a launch value it was compiled for");
    llvm::Expected<interp::NpyArray> array = interp::readNpy(file);
    if (!array)
      return failWith(llvm::toString(array.takeError()));
    std::optional<std::string> dtype = run::symbolNpyDtype(context, symbol->elementType);
    if (!dtype || array->dtype != *dtype)
      return failWith(file + ": dtype '" + array->dtype + "' does not match $" + name + " (" +
                      symbol->elementType + ", dtype '" + dtype.value_or("?") + "')");
    if (int64_t(array->data.size()) != symbol->size.count())
      return failWith(file + ": " + llvm::Twine(array->data.size()) + " bytes, $" + name +
                      " has " + llvm::Twine(symbol->size.count()));
    inputs[name.str()] = std::move(array->data);
  }
  if (llvm::Error e = run::bindRunTimeLaunchValues(*bundle, simArgs))
    return failWith(llvm::toString(std::move(e)));
  if (llvm::Error e = fillUnbound(context, *bundle, inputs))
    return failWith(llvm::toString(std::move(e)));

  sim::SimLimits limits;
  limits.maxInstructions = simMaxInstructions;
  limits.maxCycles = Cycles(int64_t(std::min<uint64_t>(simMaxCycles, INT64_MAX)));
  if (!simNoCheck) {
    if (llvm::Error e = sim::checkCapacity(*bundle, *model))
      return failWith(llvm::toString(std::move(e)));
    if (llvm::Error e = sim::checkDeadlockFree(*bundle, *model, limits))
      return failWith("static check: " + llvm::toString(std::move(e)));
  }

  sim::SimOptions options;
  options.trace = !simTrace.empty();
  options.limits = limits;
  llvm::Expected<sim::SimResult> result = sim::simulate(*bundle, *model, inputs, options);
  if (!result)
    return failWith(llvm::toString(result.takeError()));
  sim::printReport(*result, *model, llvm::outs());
  if (!simTrace.empty())
    if (llvm::Error e = sim::writeChromeTrace(*result, simTrace))
      return failWith(llvm::toString(std::move(e)));
  if (result->deadlock) {
    llvm::errs() << *result->deadlock;
    return 1;
  }
  if (!simOut.empty())
    if (llvm::Error e = run::writeOutputSymbols(context, *bundle, *result, simOut))
      return failWith(llvm::toString(std::move(e)));
  return 0;
}

static ktflow::tool::CommandRegistration simRegistration(simCmd, runSim);
