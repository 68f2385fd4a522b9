//===- KTUnitAttrs.cpp - node references, addresses, register types -------===//
//
// Readable syntax for what device code calls NodeRef and Address, so a lit
// test reads like the device code it becomes: `@ld[t2]`, `sym @A + t0`,
// `@spad + 512 + (d0 mod 2) * 4096 + d1 * 64`. The parsers accept exactly
// what the printers write (round-trip tests in test/Unit/dialect).
//
//===----------------------------------------------------------------------===//
#include "ktflow/Unit/KTUnit.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ktflow::ktunit;

#define GET_ATTRDEF_CLASSES
#include "ktflow/Unit/KTUnitAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ktflow/Unit/KTUnitTypes.cpp.inc"

void KTUnitDialect::registerAttributesAndTypes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ktflow/Unit/KTUnitAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "ktflow/Unit/KTUnitTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #ktunit.node
//===----------------------------------------------------------------------===//

/// `@name`, `@name[N]` or `@name[tC]`.
static FailureOr<NodeRefAttr> parseNodeRefBody(AsmParser &parser) {
  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  InstanceKind kind = InstanceKind::Nearest;
  int64_t value = 0;
  if (succeeded(parser.parseOptionalLSquare())) {
    StringRef keyword;
    SMLoc at = parser.getCurrentLocation();
    if (succeeded(parser.parseOptionalKeyword(&keyword))) {
      if (!keyword.consume_front("t") || keyword.getAsInteger(10, value) || value < 0)
        return parser.emitError(at, "expected an instance number or tCOLUMN");
      kind = InstanceKind::Column;
    } else {
      if (parser.parseInteger(value))
        return failure();
      kind = InstanceKind::Absolute;
    }
    if (parser.parseRSquare())
      return failure();
  }
  return NodeRefAttr::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                                 parser.getContext(), name.getValue(), kind, value);
}

static void printNodeRefBody(AsmPrinter &printer, NodeRefAttr ref) {
  printer.printSymbolName(ref.getName());
  if (ref.getKind() == InstanceKind::Absolute)
    printer << "[" << ref.getValue() << "]";
  else if (ref.getKind() == InstanceKind::Column)
    printer << "[t" << ref.getValue() << "]";
}

Attribute NodeRefAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<NodeRefAttr> ref = parseNodeRefBody(parser);
  if (failed(ref) || parser.parseGreater())
    return {};
  return *ref;
}

void NodeRefAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printNodeRefBody(printer, *this);
  printer << ">";
}

LogicalResult NodeRefAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  StringRef name, InstanceKind kind, int64_t value) {
  if (name.empty())
    return emitError() << "node reference without a name";
  if (kind != InstanceKind::Nearest && value < 0)
    return emitError() << "negative instance or column " << value;
  return success();
}

//===----------------------------------------------------------------------===//
// #ktunit.term and #ktunit.addr
//===----------------------------------------------------------------------===//

LogicalResult LoopTermAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t depth, int64_t, int64_t modulus) {
  if (depth < 0)
    return emitError() << "loop term of negative depth " << depth;
  if (modulus < 0)
    return emitError() << "loop term with negative modulus " << modulus;
  return success();
}

/// `dD` as a keyword (the lexer reads `i0` as a type, so loop indices are
/// spelled as affine maps spell dimensions).
static ParseResult parseLoopIndex(AsmParser &parser, StringRef keyword, int64_t &depth) {
  if (!keyword.consume_front("d") || keyword.getAsInteger(10, depth) || depth < 0)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a table column tC or a loop index dD");
  return success();
}

Attribute AddressAttr::parse(AsmParser &parser, Type) {
  MLIRContext *context = parser.getContext();
  if (parser.parseLess())
    return {};
  bool isSymbol = succeeded(parser.parseOptionalKeyword("sym"));
  FailureOr<NodeRefAttr> base = parseNodeRefBody(parser);
  if (failed(base))
    return {};
  int64_t offset = 0;
  std::optional<int64_t> column;
  SmallVector<LoopTermAttr> terms;
  while (true) {
    bool minus = false;
    if (succeeded(parser.parseOptionalMinus()))
      minus = true;
    else if (failed(parser.parseOptionalPlus()))
      break;
    int64_t value;
    OptionalParseResult number = parser.parseOptionalInteger(value);
    if (number.has_value()) {
      if (failed(*number))
        return {};
      offset += minus ? -value : value;
      continue;
    }
    if (minus) {
      parser.emitError(parser.getCurrentLocation(), "only a constant offset may be subtracted");
      return {};
    }
    int64_t depth = 0, modulus = 0, stride = 0;
    if (succeeded(parser.parseOptionalLParen())) {
      StringRef keyword;
      if (parser.parseKeyword(&keyword) || parseLoopIndex(parser, keyword, depth) ||
          parser.parseKeyword("mod") || parser.parseInteger(modulus) || parser.parseRParen())
        return {};
    } else {
      StringRef keyword;
      SMLoc at = parser.getCurrentLocation();
      if (parser.parseKeyword(&keyword))
        return {};
      if (keyword.starts_with("t")) {
        int64_t c;
        if (keyword.drop_front().getAsInteger(10, c) || c < 0) {
          parser.emitError(at, "expected a table column tC");
          return {};
        }
        if (column) {
          parser.emitError(at, "two table columns in one address");
          return {};
        }
        column = c;
        continue;
      }
      if (parseLoopIndex(parser, keyword, depth))
        return {};
    }
    if (parser.parseStar() || parser.parseInteger(stride))
      return {};
    terms.push_back(LoopTermAttr::get(context, depth, stride, modulus));
  }
  if (parser.parseGreater())
    return {};
  return AddressAttr::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                                 context, isSymbol, *base, offset, column, terms);
}

void AddressAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getIsSymbol())
    printer << "sym ";
  printNodeRefBody(printer, getBase());
  if (getOffset() > 0)
    printer << " + " << getOffset();
  else if (getOffset() < 0)
    printer << " - " << -getOffset();
  if (getColumn())
    printer << " + t" << *getColumn();
  for (LoopTermAttr term : getTerms()) {
    if (term.getModulus())
      printer << " + (d" << term.getDepth() << " mod " << term.getModulus() << ") * "
              << term.getStride();
    else
      printer << " + d" << term.getDepth() << " * " << term.getStride();
  }
  printer << ">";
}

LogicalResult AddressAttr::verify(function_ref<InFlightDiagnostic()> emitError, bool isSymbol,
                                  NodeRefAttr base, int64_t, std::optional<int64_t> column,
                                  ArrayRef<LoopTermAttr>) {
  if (!base)
    return emitError() << "address without a base";
  if (isSymbol && base.getKind() != InstanceKind::Nearest)
    return emitError() << "a symbol base has no instance";
  if (column && *column < 0)
    return emitError() << "negative table column";
  return success();
}

//===----------------------------------------------------------------------===//
// !ktunit.vreg
//===----------------------------------------------------------------------===//

Type VRegType::parse(AsmParser &parser) {
  SmallVector<int64_t, 1> dims;
  Type element;
  if (parser.parseLess() || parser.parseDimensionList(dims, /*allowDynamic=*/false) ||
      parser.parseType(element) || parser.parseGreater())
    return {};
  if (dims.size() != 1) {
    parser.emitError(parser.getNameLoc(), "a register is one-dimensional: <Nx TYPE>");
    return {};
  }
  return VRegType::getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                              parser.getContext(), dims[0], element);
}

void VRegType::print(AsmPrinter &printer) const {
  printer << "<" << getCount() << "x" << getElementType() << ">";
}

LogicalResult VRegType::verify(function_ref<InFlightDiagnostic()> emitError, int64_t count,
                               Type elementType) {
  if (count < 1)
    return emitError() << "a register holds at least one element, not " << count;
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32() &&
      !elementType.isSignlessInteger(8) && !elementType.isSignlessInteger(32) &&
      !elementType.isSignlessInteger(64))
    return emitError() << "registers hold f16, bf16, f32, i8, i32 or i64, not " << elementType;
  return success();
}
