//===- KTDPDialect.h - the KTIR input dialect -------------------*- C++ -*-===//
#ifndef KTFLOW_KTDP_KTDPDIALECT_H
#define KTFLOW_KTDP_KTDPDIALECT_H

#include "mlir/IR/Dialect.h"

#include "ktflow/KTDP/KTDPDialect.h.inc"

#endif // KTFLOW_KTDP_KTDPDIALECT_H
