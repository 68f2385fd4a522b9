//===- AsmCommand.cpp - `ktflow asm K.kasm -o K.kbin` ---------------------===//
//
// Assembles the text form of device code into a binary bundle, so test
// programs can be written by hand. Syntax errors are reported as
// FILE:LINE:COL with exit status 1.
//
//===----------------------------------------------------------------------===//
#include "Command.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace cl = llvm::cl;

static cl::SubCommand asmCmd("asm", "Assemble device-code text into a .kbin bundle");
static cl::opt<std::string> asmInput(cl::Positional, cl::Required, cl::desc("<code.kasm>"),
                                     cl::sub(asmCmd));
static cl::opt<std::string> asmOutput("o", cl::Required, cl::desc("Output bundle"),
                                      cl::value_desc("K.kbin"), cl::sub(asmCmd));

static int runAsm() {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(asmInput, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << "ktflow asm: " << asmInput << ": " << buffer.getError().message() << "\n";
    return 1;
  }
  llvm::Expected<ktflow::dc::Bundle> bundle =
      ktflow::dc::parseBundleText((*buffer)->getBuffer(), asmInput);
  if (!bundle) {
    llvm::errs() << llvm::toString(bundle.takeError()) << "\n";
    return 1;
  }
  if (llvm::Error e = ktflow::dc::writeBundleFile(asmOutput, *bundle)) {
    llvm::errs() << "ktflow asm: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  return 0;
}

static ktflow::tool::CommandRegistration asmRegistration(asmCmd, runAsm);
