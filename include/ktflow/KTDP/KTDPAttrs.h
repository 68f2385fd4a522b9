//===- KTDPAttrs.h - ktdp attributes and enums ------------------*- C++ -*-===//
#ifndef KTFLOW_KTDP_KTDPATTRS_H
#define KTFLOW_KTDP_KTDPATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "ktflow/KTDP/KTDPEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/KTDP/KTDPAttrs.h.inc"

#endif // KTFLOW_KTDP_KTDPATTRS_H
