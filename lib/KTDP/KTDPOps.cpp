//===- KTDPOps.cpp - ktdp operations --------------------------------------===//
#include "ktflow/KTDP/KTDPOps.h"

using namespace mlir;
using namespace ktflow::ktdp;

#define GET_OP_CLASSES
#include "ktflow/KTDP/KTDPOps.cpp.inc"
