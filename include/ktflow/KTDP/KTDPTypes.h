//===- KTDPTypes.h - ktdp types ---------------------------------*- C++ -*-===//
#ifndef KTFLOW_KTDP_KTDPTYPES_H
#define KTFLOW_KTDP_KTDPTYPES_H

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "ktflow/KTDP/KTDPTypes.h.inc"

#endif // KTFLOW_KTDP_KTDPTYPES_H
