//===- KTDPTypes.cpp - ktdp types -----------------------------------------===//
//
// Custom parsers and printers for the three ktdp types. Each parser checks
// the type's rules while it still knows the source location of the
// offending piece (the element type, a clause), so errors point there; the
// verify() hooks repeat the checks for types built from C++.
//
//===----------------------------------------------------------------------===//
#include "ktflow/KTDP/KTDPTypes.h"
#include "ktflow/KTDP/KTDPDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::ktdp;

#define GET_TYPEDEF_CLASSES
#include "ktflow/KTDP/KTDPTypes.cpp.inc"

void KTDPDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/KTDP/KTDPTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// AccessTileType
//===----------------------------------------------------------------------===//

LogicalResult
AccessTileType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Type elementType) {
  if (!elementType || !elementType.isIndex())
    return emitError() << "access tile element type must be 'index', got "
                       << elementType << " (spec §3.1)";
  for (int64_t dim : shape)
    if (dim < 0 && !ShapedType::isDynamic(dim))
      return emitError() << "access tile dimension must be >= 0 or '?', got "
                         << dim << " (spec §3.1)";
  return success();
}

ShapedType AccessTileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                                     Type elementType) const {
  return AccessTileType::get(getContext(), shape ? *shape : getShape());
}

/// Parses the `<` that opens a type body; in the stripped-form positions of
/// §3.4 a missing `<` means the operand has the wrong kind of type, so say
/// which type was expected.
static ParseResult parseBodyStart(AsmParser &parser, StringRef typeName) {
  if (succeeded(parser.parseOptionalLess()))
    return success();
  return parser.emitError(parser.getCurrentLocation())
         << "expected type '!ktdp." << typeName
         << "<...>' or its stripped form '<...>'";
}

Type AccessTileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  if (parseBodyStart(parser, "access_tile"))
    return {};
  // MLIR's dimension-list parser rejects a negative dimension with a generic
  // "expected type" message; look ahead in the source text (the body is
  // only dimensions and `x`) to name the rule instead.
  SMLoc bodyLoc = parser.getCurrentLocation();
  if (const char *text = bodyLoc.getPointer()) {
    for (const char *c = text; *c && *c != '>' && *c != '\n'; ++c)
      if (*c == '-') {
        parser.emitError(SMLoc::getFromPointer(c))
            << "access tile dimension must be >= 0 or '?' (spec §3.1)";
        return {};
      }
  }
  if (parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true))
    return {};
  SMLoc elementLoc = parser.getCurrentLocation();
  Type elementType;
  if (parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(elementLoc); },
                    parser.getContext(), shape, elementType);
}

void AccessTileType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getShape()) {
    if (ShapedType::isDynamic(dim))
      printer << '?';
    else
      printer << dim;
    printer << 'x';
  }
  printer << getElementType() << '>';
}

//===----------------------------------------------------------------------===//
// RuntimeArgType
//===----------------------------------------------------------------------===//

LogicalResult
RuntimeArgType::verify(function_ref<InFlightDiagnostic()> emitError,
                       Type valueType, std::optional<int64_t> granularity,
                       std::optional<int64_t> upperbound) {
  if (!valueType ||
      !(valueType.isIndex() || isa<IntegerType, FloatType>(valueType)))
    return emitError() << "runtime_arg underlying type must be index, an "
                          "integer or a float type, got "
                       << valueType << " (spec §3.2)";
  if (granularity && *granularity <= 0)
    return emitError() << "runtime_arg granularity must be > 0, got "
                       << *granularity << " (spec §3.2)";
  if (upperbound && *upperbound <= 0)
    return emitError() << "runtime_arg upperbound must be > 0, got "
                       << *upperbound << " (spec §3.2)";
  return success();
}

Type RuntimeArgType::parse(AsmParser &parser) {
  SMLoc typeLoc;
  Type valueType;
  if (parseBodyStart(parser, "runtime_arg"))
    return {};
  typeLoc = parser.getCurrentLocation();
  if (parser.parseType(valueType))
    return {};
  std::optional<int64_t> granularity, upperbound;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc clauseLoc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<int64_t> *slot = nullptr;
    if (keyword == "granularity")
      slot = &granularity;
    else if (keyword == "upperbound")
      slot = &upperbound;
    if (!slot) {
      parser.emitError(clauseLoc)
          << "runtime_arg: unknown clause '" << keyword
          << "', expected 'granularity' or 'upperbound' (spec §3.2)";
      return {};
    }
    if (slot->has_value()) {
      parser.emitError(clauseLoc)
          << "runtime_arg: clause '" << keyword << "' given twice (spec §3.2)";
      return {};
    }
    int64_t value;
    if (parser.parseEqual())
      return {};
    SMLoc valueLoc = parser.getCurrentLocation();
    if (parser.parseInteger(value))
      return {};
    if (value <= 0) {
      parser.emitError(valueLoc) << "runtime_arg " << keyword
                                 << " must be > 0, got " << value
                                 << " (spec §3.2)";
      return {};
    }
    *slot = value;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(typeLoc); },
                    parser.getContext(), valueType, granularity, upperbound);
}

void RuntimeArgType::print(AsmPrinter &printer) const {
  printer << '<' << getValueType();
  if (getGranularity())
    printer << ", granularity=" << *getGranularity();
  if (getUpperbound())
    printer << ", upperbound=" << *getUpperbound();
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TileFutureType
//===----------------------------------------------------------------------===//

LogicalResult
TileFutureType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<Type> partialTypes,
                       IntegerSetAttr groupsAttr) {
  if (partialTypes.empty())
    return emitError() << "tile_future needs at least one partial type "
                          "(spec §3.3)";
  for (Type type : partialTypes)
    if (!isa_and_nonnull<RankedTensorType>(type))
      return emitError() << "tile_future partial types must be ranked "
                            "tensors, got "
                         << type << " (spec §3.3)";
  if (!groupsAttr)
    return emitError() << "tile_future needs a groups set (spec §3.3)";
  IntegerSet groups = groupsAttr.getValue();
  if (groups.getNumDims() != 1 || groups.getNumSymbols() != 0)
    return emitError() << "tile_future groups must be a 1-D set without "
                          "symbols, got "
                       << groups.getNumDims() << " dims and "
                       << groups.getNumSymbols() << " symbols (spec §3.3)";
  return success();
}

Type TileFutureType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> partialTypes;
  if (parseBodyStart(parser, "tile_future"))
    return {};
  if (succeeded(parser.parseOptionalLParen())) {
    if (failed(parser.parseOptionalRParen()) &&
        (parser.parseTypeList(partialTypes) || parser.parseRParen()))
      return {};
  } else {
    // Older form: exactly one partial type, no parentheses.
    Type partial;
    if (parser.parseType(partial))
      return {};
    partialTypes.push_back(partial);
  }
  // A missing groups set is the verifier's rule (spec §3.3), not a syntax
  // error: say so rather than "expected ','".
  if (succeeded(parser.parseOptionalGreater()))
    return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                      partialTypes, IntegerSetAttr());
  Attribute groupsAttr;
  SMLoc groupsLoc;
  if (parser.parseComma() || parser.parseKeyword("groups") ||
      parser.parseEqual())
    return {};
  groupsLoc = parser.getCurrentLocation();
  if (parser.parseAttribute(groupsAttr) || parser.parseGreater())
    return {};
  auto setAttr = dyn_cast<IntegerSetAttr>(groupsAttr);
  if (!setAttr) {
    parser.emitError(groupsLoc) << "tile_future groups must be an "
                                   "affine_set, got "
                                << groupsAttr;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), partialTypes, setAttr);
}

void TileFutureType::print(AsmPrinter &printer) const {
  printer << "<(";
  llvm::interleaveComma(getPartialTypes(), printer);
  printer << "), groups = ";
  printer.printAttribute(getGroupsAttr());
  printer << '>';
}
