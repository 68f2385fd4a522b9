//===- KTArchDialect.h - the architecture description dialect --*- C++ -*-===//
#ifndef KTFLOW_ARCH_KTARCHDIALECT_H
#define KTFLOW_ARCH_KTARCHDIALECT_H

#include "mlir/IR/Dialect.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

namespace ktflow::arch {
class ArchModel;
} // namespace ktflow::arch

#include "ktflow/Arch/KTArchDialect.h.inc"

#endif // KTFLOW_ARCH_KTARCHDIALECT_H
