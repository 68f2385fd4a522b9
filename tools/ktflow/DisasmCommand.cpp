//===- DisasmCommand.cpp - `ktflow disasm K.kbin` -------------------------===//
//
// Prints a device-code bundle in its text form (docs/devicecode.md). A
// corrupt or truncated bundle is reported with the byte offset of the
// problem and exit status 1.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::SubCommand disasmCmd("disasm", "Print device code (a .kbin bundle) as text");
static cl::opt<std::string> disasmInput(cl::Positional, cl::Required,
                                        cl::desc("<bundle.kbin>"), cl::sub(disasmCmd));

static int runDisasm() {
  llvm::Expected<ktflow::dc::Bundle> bundle = ktflow::dc::readBundleFile(disasmInput);
  if (!bundle) {
    llvm::errs() << "ktflow disasm: " << llvm::toString(bundle.takeError()) << "\n";
    return 1;
  }
  ktflow::dc::printBundle(*bundle, llvm::outs());
  return 0;
}

static ktflow::tool::CommandRegistration disasmRegistration(disasmCmd, runDisasm);
