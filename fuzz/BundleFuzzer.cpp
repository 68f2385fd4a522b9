//===- BundleFuzzer.cpp - libFuzzer target: binary device-code bundles ----===//
//
// Input: any bytes, read as a binary bundle (.kbin, lib/DeviceCode/
// Encoding.cpp) as `ktflow sim K.kbin` loads it: decoded and verified. A
// bundle that loads is disassembled (`ktflow disasm`), and the text must
// assemble back to the same encoding (the round trip TextForm.h promises;
// a difference aborts, so it is a finding). When it names a shipped
// device it is then checked and simulated there under a small budget.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "ktflow/DeviceCode/Encoding.h"
#include "ktflow/DeviceCode/TextForm.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<ktflow::dc::Bundle> bundle =
      ktflow::dc::decodeBundle(llvm::ArrayRef<uint8_t>(data, size), "fuzz.kbin");
  if (!bundle) {
    llvm::consumeError(bundle.takeError());
    return 0;
  }
  ktflow::fuzz::checkTextRoundTrip(*bundle);
  ktflow::fuzz::simulateOnNamedDevice(*bundle);
  return 0;
}
