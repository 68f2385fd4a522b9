//===- KTArchOps.h - ktarch attributes and operations -----------*- C++ -*-===//
#ifndef KTFLOW_ARCH_KTARCHOPS_H
#define KTFLOW_ARCH_KTARCHOPS_H

#include "ktflow/Arch/KTArchDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Arch/KTArchAttrs.h.inc"

#define GET_OP_CLASSES
#include "ktflow/Arch/KTArchOps.h.inc"

#endif // KTFLOW_ARCH_KTARCHOPS_H
