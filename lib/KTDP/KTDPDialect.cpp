//===- KTDPDialect.cpp - the KTIR input dialect ---------------------------===//
#include "ktflow/KTDP/KTDPDialect.h"
#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow::ktdp;

#include "ktflow/KTDP/KTDPDialect.cpp.inc"

void KTDPDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "ktflow/KTDP/KTDPOps.cpp.inc"
      >();
}
