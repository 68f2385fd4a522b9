//===- TextForm.h - device code as text (disassembly / assembly) -*- C++ -*-===//
//
// The text form of a bundle (docs/devicecode.md, "Text form"): what
// `ktflow disasm` prints and `ktflow asm` reads. Printing then parsing gives
// back the same bundle, so hand-written test programs and saved device code
// are interchangeable.
//
//===----------------------------------------------------------------------===//
#ifndef KTFLOW_DEVICECODE_TEXTFORM_H
#define KTFLOW_DEVICECODE_TEXTFORM_H

#include "ktflow/DeviceCode/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace ktflow::dc {

/// The version in the text form's first line, `ktdc 1`.
constexpr int64_t kTextVersion = 1;

void printBundle(const Bundle &bundle, llvm::raw_ostream &os);
std::string printAddress(const Address &address, const Bundle &bundle);
std::string printNodeRef(const NodeRef &ref);
void printInstruction(const Instruction &inst, const Bundle &bundle, llvm::raw_ostream &os);

/// Parses the text form; errors read "FILE:LINE:COL: message". The result
/// is verified (verifyBundle).
llvm::Expected<Bundle> parseBundleText(llvm::StringRef text, llvm::StringRef fileName);

/// Reads a bundle file: the binary encoding when it starts with the bundle
/// magic, the text form otherwise (so hand-written programs run directly).
llvm::Expected<Bundle> loadBundleFile(llvm::StringRef path);

} // namespace ktflow::dc

#endif // KTFLOW_DEVICECODE_TEXTFORM_H
