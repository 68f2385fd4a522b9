//===- KTDPDialect.cpp - the KTIR input dialect ---------------------------===//
//
// Registers the ktdp types, attributes and operations. Each lives in its own
// file: KTDPTypes.cpp, KTDPAttrs.cpp, and the op files.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/KTDPDialect.h"
#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow::ktdp;

#include "ktflow/KTDP/KTDPDialect.cpp.inc"

void KTDPDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "ktflow/KTDP/KTDPOps.cpp.inc"
      >();
}
