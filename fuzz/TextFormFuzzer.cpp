//===- TextFormFuzzer.cpp - libFuzzer target: device code as text ---------===//
//
// Input: any bytes, read as the device code's text form (.kasm,
// lib/DeviceCode/TextForm.cpp) as `ktflow asm` and `ktflow sim K.kasm` read
// it: parsed and verified. An accepted bundle must survive the binary
// encoding (encode, decode) and print back to text that parses to the same
// bundle; a difference aborts, so it is a finding. When it names a shipped
// device it is then checked and simulated there under a small budget.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<ktflow::dc::Bundle> bundle = ktflow::dc::parseBundleText(text, "fuzz.kasm");
  if (!bundle) {
    llvm::consumeError(bundle.takeError());
    return 0;
  }
  llvm::Expected<ktflow::dc::Bundle> decoded =
      ktflow::dc::decodeBundle(ktflow::dc::encodeBundle(*bundle), "fuzz.kbin");
  if (!decoded) {
    llvm::errs() << "kasm-fuzzer: an assembled bundle does not decode: "
                 << llvm::toString(decoded.takeError()) << "\n";
    std::abort();
  }
  ktflow::fuzz::checkTextRoundTrip(*decoded);
  ktflow::fuzz::simulateOnNamedDevice(*decoded);
  return 0;
}
