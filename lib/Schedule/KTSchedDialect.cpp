//===- KTSchedDialect.cpp - the schedule IR dialect -----------------------===//
//
// Registration of the ktsched dialect plus the small helpers every pass uses
// to read and write decision attributes. The ops carry their invariants in
// ODS; the decision attribute checks its source here.
//
//===----------------------------------------------------------------------===//
#include "ktflow/Schedule/KTSched.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::ktsched;

#include "ktflow/Schedule/KTSchedDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Schedule/KTSchedTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ktflow/Schedule/KTSchedAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "ktflow/Schedule/KTSchedOps.cpp.inc"

void KTSchedDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Schedule/KTSchedTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Schedule/KTSchedAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ktflow/Schedule/KTSchedOps.cpp.inc"
      >();
}

LogicalResult DecisionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   Attribute value, StringRef source) {
  if (source != kHeuristic && source != kPlan && source != kCostModel)
    return emitError() << "decision source must be heuristic, plan or costmodel, got '"
                       << source << "'";
  if (!value)
    return emitError() << "decision without a value";
  return success();
}

DecisionAttr ktflow::ktsched::decide(Attribute value, StringRef source) {
  return DecisionAttr::get(value.getContext(), value, source);
}

Attribute ktflow::ktsched::decisionValue(Operation *op, StringRef name) {
  if (auto decision = op->getAttrOfType<DecisionAttr>(name))
    return decision.getValue();
  return {};
}

SmallVector<int64_t> ktflow::ktsched::decisionInts(Operation *op, StringRef name) {
  if (auto ints = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(decisionValue(op, name)))
    return SmallVector<int64_t>(ints.asArrayRef());
  return {};
}

std::optional<int64_t> ktflow::ktsched::decisionInt(Operation *op, StringRef name) {
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(decisionValue(op, name)))
    return i.getInt();
  return std::nullopt;
}
