//===- KTDPOps.h - ktdp operations ------------------------------*- C++ -*-===//
#ifndef KTFLOW_KTDP_KTDPOPS_H
#define KTFLOW_KTDP_KTDPOPS_H

#include "ktflow/KTDP/KTDPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ktflow/KTDP/KTDPOps.h.inc"

#endif // KTFLOW_KTDP_KTDPOPS_H
