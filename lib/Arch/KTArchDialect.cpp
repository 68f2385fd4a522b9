//===- KTArchDialect.cpp - the architecture description dialect -----------===//
//
// Registers the ktarch ops and the #ktarch.access attribute. The dialect also
// owns the per-context cache of architecture models (see ArchModel::load).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Arch/KTArchDialect.h"
#include "ktflow/Arch/ArchModel.h"
#include "ktflow/Arch/KTArchOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::ktarch;

#include "ktflow/Arch/KTArchDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Arch/KTArchAttrs.cpp.inc"

void KTArchDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Arch/KTArchAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Arch/KTArchOps.cpp.inc"
      >();
}
